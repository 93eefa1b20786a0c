package org.rccj.framework.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * Protocols, workloads and fabrics on the class path, found through {@link ServiceLoader}, sorted by name.
 * Looking one up by the name a config gives is the config resolver's job (it knows which key to blame).
 */
public final class Registry {
    private Registry() {}

    public static List<ProtocolFactory> protocols() { return load(ProtocolFactory.class, ProtocolFactory::name); }
    public static List<WorkloadFactory> workloads() { return load(WorkloadFactory.class, WorkloadFactory::name); }
    public static List<FabricFactory> fabrics() { return load(FabricFactory.class, FabricFactory::name); }

    private static <T> List<T> load(Class<T> service, Function<T, String> name) {
        List<T> out = new ArrayList<>();
        ServiceLoader.load(service).forEach(out::add);
        out.sort(Comparator.comparing(name));
        return out;
    }
}
