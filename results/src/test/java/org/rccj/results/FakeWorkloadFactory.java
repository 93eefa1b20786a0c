package org.rccj.results;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;

/** Test-only workload so that a {@link org.rccj.framework.run.Config} can be resolved. */
public final class FakeWorkloadFactory implements WorkloadFactory {
    @Override public String name() { return "fakewl"; }
    @Override public String description() { return "test-only workload"; }
    @Override public List<Param> parameters() {
        return List.of(Param.ofInt("accounts", 1000, 1, 1_000_000, "accounts"),
                Param.ofDouble("hot_probability", 0.9, 0, 1, "probability of a hot account"));
    }
    @Override public Workload create(WorkloadSetup setup) { throw new UnsupportedOperationException("fake"); }
}
