package org.rccj.framework.spi;

import java.util.List;
import org.rccj.framework.config.Param;

/** A workload plugin, found through {@link java.util.ServiceLoader}. */
public interface WorkloadFactory {
    /** Lower-case name used in configs ({@code smallbank}, ...). */
    String name();

    /** One line for {@code rcc list}. */
    String description();

    /** Settings under {@code workload} in a config (besides {@code name}). */
    List<Param> parameters();

    /** Builds the workload for one run from its resolved settings. */
    Workload create(WorkloadSetup setup);

    /**
     * A lower bound on the tables {@link #create} will declare, computed without looping over the data, for a workload
     * whose constructor loops over its data to size them exactly (the memory estimate refuses a run that cannot fit
     * before that loop, decision 0156); null: {@link #create} is cheap, its tables are checked.
     */
    default java.util.List<org.rccj.framework.store.TableSpec> tablesAtLeast(WorkloadSetup setup) { return null; }
}
