package org.rccj.fabrics;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.FabricFactory;

/** What every fabric factory states about itself, held once: its name, its line in {@code rcc list}, its keys, its clock. */
public abstract class NamedFabric implements FabricFactory {
    private final String name, description;
    private final List<Param> parameters;
    private final boolean virtualTime;

    protected NamedFabric(String name, String description, List<Param> parameters, boolean virtualTime) {
        this.name = name;
        this.description = description;
        this.parameters = parameters;
        this.virtualTime = virtualTime;
    }

    @Override public final String name() { return name; }
    @Override public final String description() { return description; }
    @Override public final List<Param> parameters() { return parameters; }
    @Override public final boolean virtualTime() { return virtualTime; }
}
