package org.rccj.protocols;

import java.util.List;
import org.rccj.framework.api.Stage;
import org.rccj.framework.spi.ProtocolFactory;

/** A test-only protocol's factory: a real protocol with one rule broken, under its own name, for the checker to catch. */
public abstract class TestOnlyProtocol implements ProtocolFactory {
    private final String name, description;
    private final List<Stage> stages;

    protected TestOnlyProtocol(String name, String description, List<Stage> stages) {
        this.name = name;
        this.description = "TEST ONLY: " + description;
        this.stages = stages;
    }

    @Override public final String name() { return name; }
    @Override public final String description() { return description; }
    @Override public final List<Stage> stages() { return stages; }
}
