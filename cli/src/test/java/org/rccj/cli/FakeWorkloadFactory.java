package org.rccj.cli;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;

/** Test-only workload with one setting of each kind; cannot actually run. */
public final class FakeWorkloadFactory implements WorkloadFactory {
    @Override public String name() { return "fakewl"; }
    @Override public String description() { return "test-only workload"; }
    @Override public List<Param> parameters() {
        return List.of(
                Param.ofInt("accounts", 1000, 1, 1_000_000, "number of accounts"),
                Param.ofDouble("hot_probability", 0.9, 0, 1, "probability that a transaction picks a hot account"),
                Param.ofBoolean("read_only", false, "only read-only transactions"),
                Param.ofChoice("mix", "default", List.of("default", "write-heavy"), "transaction mix"),
                Param.ofOptionalDouble("skew", 0, 2, "Zipf skew, or null for uniform"));
    }
    @Override public Workload create(WorkloadSetup setup) { throw new UnsupportedOperationException("fakewl cannot run"); }
}
