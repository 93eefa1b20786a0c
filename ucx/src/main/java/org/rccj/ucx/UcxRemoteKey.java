package org.rccj.ucx;

import java.lang.foreign.MemorySegment;

/** A peer's memory key unpacked on one endpoint (valid for that endpoint only). */
public final class UcxRemoteKey implements AutoCloseable {
    final MemorySegment handle;
    /** The handle's address (what the posting calls pass). */
    final long address;
    private boolean closed;

    UcxRemoteKey(MemorySegment handle) {
        this.handle = handle;
        this.address = handle.address();
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            Lib.ucp_rkey_destroy.invokeExact(handle);
        } catch (Throwable t) {
            throw Lib.rethrow(t);
        }
    }
}
