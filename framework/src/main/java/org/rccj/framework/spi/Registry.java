package org.rccj.framework.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.rccj.framework.config.ConfigException;

/** Protocols and workloads on the class path, found through {@link ServiceLoader}, sorted by name. */
public final class Registry {
    public static final List<String> FABRICS = List.of("sim", "local", "tcp");

    private Registry() {}

    public static List<ProtocolFactory> protocols() {
        List<ProtocolFactory> out = new ArrayList<>();
        ServiceLoader.load(ProtocolFactory.class).forEach(out::add);
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    public static List<WorkloadFactory> workloads() {
        List<WorkloadFactory> out = new ArrayList<>();
        ServiceLoader.load(WorkloadFactory.class).forEach(out::add);
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    public static ProtocolFactory protocol(String name) {
        List<String> names = new ArrayList<>();
        for (ProtocolFactory f : protocols()) {
            if (f.name().equalsIgnoreCase(name)) return f;
            names.add(f.name());
        }
        throw new ConfigException("protocol: unknown protocol '" + name + "'; accepted: " + String.join(", ", names));
    }

    public static WorkloadFactory workload(String name) {
        List<String> names = new ArrayList<>();
        for (WorkloadFactory f : workloads()) {
            if (f.name().equalsIgnoreCase(name)) return f;
            names.add(f.name());
        }
        throw new ConfigException("workload.name: unknown workload '" + name + "'; accepted: " + String.join(", ", names));
    }
}
