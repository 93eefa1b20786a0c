package org.rccj.protocols.mvcc;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.ProtocolSetup;

/** MVCC's {@code protocol_options}, resolved. */
record MvccSettings(int versionSlots) {
    static final String VERSION_SLOTS = "version_slots";
    static final int DEFAULT_SLOTS = 4, MAX_SLOTS = 16;
    static final List<Param> PARAMS = List.of(Param.ofInt(VERSION_SLOTS, DEFAULT_SLOTS, 1, MAX_SLOTS,
            "versions kept per tuple (each a record slot with its wts and writer id in the header)"));

    static MvccSettings of(ProtocolSetup s) { return new MvccSettings(s.i(VERSION_SLOTS)); }
}
