package org.rccj.protocols.waitdie;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.protocols.locking.ReadLocks;

/** WAITDIE's {@code protocol_options}, resolved. */
record WaitDieSettings(double retryUs, double pollUs, ReadLocks readLocks) {
    static final String RETRY = "retry_us", POLL = "poll_us";
    static final List<Param> PARAMS = List.of(
            Param.ofDouble(RETRY, 1.0, 0.01, 1e6, "one-sided LOCK: pause between CAS+READ tries of a waiting transaction, us"),
            Param.ofDouble(POLL, 1.0, 0.01, 1e6, "RPC LOCK: how often a worker re-attempts the requests it parked, us (needed when RELEASE is one-sided)"),
            ReadLocks.PARAM);

    static WaitDieSettings of(ProtocolSetup s) { return new WaitDieSettings(s.d(RETRY), s.d(POLL), ReadLocks.of(s.s(ReadLocks.NAME))); }
}
