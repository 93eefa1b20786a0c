package org.rccj.protocols.locking;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;

/**
 * Test-only workload "scripted-locks": scripted transactions on one hot counter, to show what a locking
 * protocol does on a conflict (see {@link ScriptedLocks}).
 */
public final class ScriptedLocksFactory implements WorkloadFactory {
    static final List<Param> PARAMS = List.of(
            Param.ofChoice("script", "wait-die", List.of("wait-die", "starvation"), "which scripted conflict to play"),
            Param.ofInt("hot_node", 1, 0, 1023, "node that owns the hot counter"),
            Param.ofDouble("hold_us", 20, 0, 1e6, "wait-die: how long the holder keeps the lock; starvation: how long each streamer keeps it"),
            Param.ofDouble("stream_us", 150, 0, 1e6, "starvation: streamers start new transactions until this time"));

    @Override public String name() { return "scripted-locks"; }
    @Override public String description() { return "TEST ONLY: scripted lock conflicts on one hot counter"; }
    @Override public List<Param> parameters() { return PARAMS; }
    @Override public Workload create(WorkloadSetup setup) { return new ScriptedLocks(setup); }
}
