package org.rccj.framework.run;

import org.rccj.framework.runtime.Cluster;

/** Test hooks into a run (e.g. corrupt the store after the run to show an invariant check fails). */
public interface RunHooks {
    RunHooks NONE = new RunHooks() {};

    /** After every transaction finished, before verification. */
    default void afterRun(Cluster cluster) {}
}
