package org.rccj.framework.txn;

/**
 * Where a transaction's parameters come from (its generator, or a replayer of another node's pick): a protocol
 * that replays the logic elsewhere (CALVIN) saves the pick through it ({@link Tx#source}).
 */
public interface PickSource {
    /** Writes the current pick's parameters at {@code dst[off..)}; returns the bytes written (at most the workload's {@code maxPickBytes}). */
    default int savePick(byte[] dst, int off) { throw new UnsupportedOperationException(getClass().getName() + " cannot be replayed"); }
}
