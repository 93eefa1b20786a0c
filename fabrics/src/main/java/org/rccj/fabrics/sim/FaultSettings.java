package org.rccj.fabrics.sim;

/**
 * Faults the {@code sim} fabric injects on request (config key {@code faults}).
 *
 * @param tornReads multi-word one-sided READs reach memory word by word
 * @param incoherentAtomics a NIC atomic reads, waits {@code fault.atomic_gap_ns}, then writes: it is atomic
 *        with other NIC atomics (one atomic unit per NIC) but not with CPU atomics
 * @param cpuLocalAtomics test-only: CPU atomics skip the loopback the profile asks for (what a port that
 *        ignores incoherent NIC atomics does); with {@code incoherentAtomics} the checker must catch it
 */
public record FaultSettings(boolean tornReads, boolean incoherentAtomics, boolean cpuLocalAtomics) {
    public static final FaultSettings NONE = new FaultSettings(false, false, false);

    public FaultSettings(boolean tornReads) { this(tornReads, false, false); }
}
