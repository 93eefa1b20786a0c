package org.rccj.framework.spi;

import java.util.List;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.primitives.Fabric;

/**
 * A fabric plugin, found through {@link java.util.ServiceLoader} like protocols and workloads. The runner,
 * the config resolver and the CLI know a fabric only through this interface: a new fabric is its factory
 * plus one line in {@code META-INF/services/org.rccj.framework.spi.FabricFactory}.
 */
public interface FabricFactory {
    /** Lower-case name used in configs ({@code sim}, {@code local}, ...). */
    String name();

    /** One line for {@code rcc list}. */
    String description();

    /**
     * The config keys this fabric honours, by full dotted name: a top-level key ({@code profile}) or a key of a
     * section ({@code faults.torn_reads}). A run on this fabric accepts these and rejects every other fabric's;
     * summary.json shows top-level ones right after {@code fabric} and sections after the common keys.
     */
    List<Param> parameters();

    /** True when the fabric's clock is virtual: a run starts at time 0, and runs may share the machine's cores. */
    boolean virtualTime();

    /** Builds the fabric for one run. */
    Fabric create(FabricSetup setup);

    /**
     * Checks values that a parameter's type and range cannot (a profile file's contents); throws a
     * {@link org.rccj.framework.config.ConfigException} naming the key. {@code settings} by full dotted name.
     */
    default void check(Map<String, Object> settings) {}

    /**
     * Refuses a {@code passive_ack} value the fabric cannot honour with a {@link org.rccj.framework.config.ConfigException}
     * naming the key; the default honours both (its endpoints carry passive RPCs and unsignaled WRs).
     */
    default void checkPassiveAck(boolean passiveAck) {}

    /** Figures the fabric measured in the run (for summary.json's {@code extra}); {@code fabric} is one this factory made. */
    default Map<String, Double> metrics(Fabric fabric, FabricSetup setup) { return Map.of(); }
}
