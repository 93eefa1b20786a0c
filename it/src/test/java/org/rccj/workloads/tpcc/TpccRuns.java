package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.DISTRICTS_PER_WAREHOUSE;

import org.rccj.framework.run.Config;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Store;

/** TPC-C runs whose tests look into (or change) the store after the run, by the workload's own key layout. */
final class TpccRuns {
    private TpccRuns() {}

    /** What the store holds after a run, seen through the run's key layout. */
    interface AfterRun { void accept(Store s, Keys k); }

    /** One district of the layout. */
    interface DistrictVisit { void accept(Store s, int w, int d); }

    /** The key layout a run of {@code cfg} uses. */
    static Keys keys(Config cfg) { return new Tpcc(new WorkloadSetup(cfg.shape(), cfg.workload())).keys; }

    /** Runs {@code cfg}; when the run ends (before the invariants are checked) hands its store to {@code after}. */
    static RunResult run(Config cfg, AfterRun after) {
        Keys k = keys(cfg);
        return ExperimentRunner.run(cfg, null, new RunHooks() {
            @Override public void afterRun(Cluster cluster) { after.accept(cluster.store, k); }
        });
    }

    /** Runs {@code cfg}; when the run ends hands the store with every district (w, d) to {@code visit}. */
    static RunResult runVisitingDistricts(Config cfg, DistrictVisit visit) {
        return run(cfg, (s, k) -> {
            for (int w = 0; w < k.warehouses; w++) {
                for (int d = 0; d < DISTRICTS_PER_WAREHOUSE; d++) visit.accept(s, w, d);
            }
        });
    }
}
