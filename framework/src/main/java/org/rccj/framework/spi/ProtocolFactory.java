package org.rccj.framework.spi;

import java.util.List;
import org.rccj.framework.config.Param;

/**
 * A concurrency-control protocol plugin, found through {@link java.util.ServiceLoader}. The framework,
 * the CLI and the enumerator know a protocol only through this interface.
 */
public interface ProtocolFactory {
    /** Lower-case name used in configs ({@code occ}, {@code nowait}, ...). */
    String name();

    /** One line for {@code rcc list}. */
    String description();

    /** Stages that can be bound to one-sided or two-sided primitives, in execution order. */
    List<Stage> stages();

    /** Settings under {@code protocol_options} in a config. */
    default List<Param> parameters() { return List.of(); }

    /** Builds the protocol for one run. */
    Protocol create(ProtocolSetup setup);
}
