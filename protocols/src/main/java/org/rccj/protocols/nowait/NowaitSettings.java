package org.rccj.protocols.nowait;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.protocols.locking.ReadLocks;

/** NOWAIT's {@code protocol_options}, resolved. */
record NowaitSettings(ReadLocks readLocks) {
    static final List<Param> PARAMS = List.of(ReadLocks.PARAM);

    static NowaitSettings of(ProtocolSetup s) { return new NowaitSettings(ReadLocks.of(s.s(ReadLocks.NAME))); }
}
