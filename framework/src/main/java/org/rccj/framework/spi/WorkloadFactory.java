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
}
