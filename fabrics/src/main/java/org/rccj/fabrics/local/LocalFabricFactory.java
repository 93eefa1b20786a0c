package org.rccj.fabrics.local;

import java.util.List;
import java.util.Map;
import org.rccj.fabrics.Profiles;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Fabric;
import org.rccj.fabrics.local.LocalFabric;

/** Registers {@code local}: the cluster in one JVM on real threads; it injects no faults. */
public final class LocalFabricFactory implements FabricFactory {
    static final String PROFILE = Profiles.KEY;
    static final List<Param> PARAMS = List.of(Profiles.param("cost profile handed to the workers (local charges no simulated time)"));

    @Override public String name() { return "local"; }

    @Override
    public String description() {
        return "the cluster in one JVM with real threads (one per worker) and real atomics; wall-clock time";
    }

    @Override public List<Param> parameters() { return PARAMS; }
    @Override public boolean virtualTime() { return false; }
    /** A profile name or file that does not load is bad input (exit 2 naming it), as on sim. */
    @Override public void check(Map<String, Object> settings) { Profiles.check(settings); }

    @Override public Fabric create(FabricSetup s) { return new LocalFabric(s.nodes(), s.threads(), CostProfile.load(s.s(PROFILE))); }
}
