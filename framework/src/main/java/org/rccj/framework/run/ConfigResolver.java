package org.rccj.framework.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;
import org.rccj.framework.spi.WorkloadFactory;

/**
 * Turns a parsed config tree (JSON/YAML plus {@code --set} overrides) into a {@link Config}: the one place that
 * looks protocols, workloads and fabrics up by name. Unknown keys, wrong types, out-of-range values, unknown
 * protocol/workload/fabric, a hybrid bit the protocol lacks, a key the chosen fabric cannot honour and fewer
 * nodes than {@code replication} are all rejected with a {@link ConfigException} naming the key.
 */
public final class ConfigResolver {
    private ConfigResolver() {}

    public static Config resolve(Map<String, Object> tree) {
        Map<String, Object> in = tree == null ? Map.of() : tree;
        FabricFactory ff = fabric(String.valueOf(Config.FABRIC.coerce("", in.getOrDefault(Config.FABRIC.key(), Config.FABRIC.defaultValue()))));
        List<Param> fabricTop = new ArrayList<>();
        Map<String, List<Param>> fabricSections = new LinkedHashMap<>();
        for (Param p : ff.parameters()) {
            int dot = p.key().indexOf('.');
            if (dot < 0) fabricTop.add(p);
            else fabricSections.computeIfAbsent(p.key().substring(0, dot), k -> new ArrayList<>()).add(p);
        }
        checkKeys(in, ff, fabricTop, fabricSections);

        Map<String, Object> v = new LinkedHashMap<>();
        for (Param p : Config.TOP_LEVEL) {
            v.put(p.key(), p.coerce("", in.containsKey(p.key()) ? in.get(p.key()) : p.defaultValue()));
            if (p == Config.FABRIC) {
                v.put(p.key(), ff.name());
                for (Param f : fabricTop) v.put(f.key(), f.coerce("", in.containsKey(f.key()) ? in.get(f.key()) : f.defaultValue()));
            }
            if (p == Config.REPLICATION) {      // placeholders: the sections' place in the order
                v.put(Config.WORKLOAD, null);
                v.put(Config.PROTOCOL_OPTIONS, null);
            }
        }
        int nodes = (int) v.get(Config.NODES.key()), replication = (int) v.get(Config.REPLICATION.key());
        if (nodes < replication) {
            String r = Config.REPLICATION.key(), n = Config.NODES.key();
            throw new ConfigException(r + ": " + replication + " copies need at least " + replication
                    + " nodes, but " + n + " is " + nodes + "; lower " + r + " or add nodes");
        }
        ProtocolFactory pf = protocol((String) v.get(Config.PROTOCOL.key()));
        v.put(Config.PROTOCOL.key(), pf.name());
        pf.checkFabric(ff.name());
        HybridCode hybrid = HybridCode.parse(String.valueOf(v.get(Config.HYBRID.key())), pf.name(), pf.stages());
        v.put(Config.HYBRID.key(), hybrid.spelled());
        v.put(Config.PROTOCOL_OPTIONS, section(Config.PROTOCOL_OPTIONS, in.get(Config.PROTOCOL_OPTIONS), pf.parameters(), null));

        Map<String, Object> wmap = workloadTree(in.get(Config.WORKLOAD));
        WorkloadFactory wf = workload(String.valueOf(wmap.get("name")));
        v.put(Config.WORKLOAD, section(Config.WORKLOAD, wmap, wf.parameters(), wf.name()));

        v.put(Config.LOCATION_CACHE, section(Config.LOCATION_CACHE, in.get(Config.LOCATION_CACHE), Config.LOCATION_CACHE_PARAMS, null));
        for (Map.Entry<String, List<Param>> s : fabricSections.entrySet()) {
            List<Param> inner = new ArrayList<>();
            for (Param p : s.getValue()) inner.add(p.withKey(p.key().substring(s.getKey().length() + 1)));
            v.put(s.getKey(), section(s.getKey(), in.get(s.getKey()), inner, null));
        }
        Config c = new Config(v, hybrid, pf, wf, ff);
        if (c.autoWarmup() != null && ff.virtualTime()) {
            String w = Config.WARMUP_MS.key();
            throw new ConfigException(w + ": auto waits until a wall-clock run's throughput is steady (local, tcp, ucx); "
                    + ff.name() + " runs in virtual time, which has no JIT or host to wait for: give a number of virtual ms, e.g. " + w + "=5");
        }
        ff.check(c.fabricSettings());
        ff.checkPassiveAck(c.passiveAck());
        pf.checkOptions(new ProtocolSetup(c.shape(), hybrid, c.protocolOptions()));
        return c;
    }

    public static ProtocolFactory protocol(String name) {
        return byName(Registry.protocols(), ProtocolFactory::name, name, Config.PROTOCOL.key() + ": unknown protocol");
    }

    public static WorkloadFactory workload(String name) {
        return byName(Registry.workloads(), WorkloadFactory::name, name, org.rccj.framework.config.Settings.workloadKey("name") + ": unknown workload");
    }

    public static FabricFactory fabric(String name) {
        return byName(Registry.fabrics(), FabricFactory::name, name, Config.FABRIC.key() + ": unknown fabric");
    }

    private static <T> T byName(List<T> all, Function<T, String> nameOf, String name, String unknown) {
        String wanted = name.trim();
        List<String> names = new ArrayList<>();
        for (T f : all) {
            if (nameOf.apply(f).equalsIgnoreCase(wanted)) return f;
            names.add(nameOf.apply(f));
        }
        throw new ConfigException(unknown + " '" + name + "'; accepted: " + String.join(", ", names));
    }

    /** Every top-level key must be a common one, a section or one of the fabric's; another fabric's key is named as such. */
    private static void checkKeys(Map<String, Object> in, FabricFactory ff, List<Param> fabricTop, Map<String, List<Param>> fabricSections) {
        List<String> allowed = new ArrayList<>();
        for (Param p : Config.TOP_LEVEL) {
            allowed.add(p.key());
            if (p == Config.FABRIC) for (Param f : fabricTop) allowed.add(f.key());
        }
        allowed.add(Config.WORKLOAD);
        allowed.add(Config.PROTOCOL_OPTIONS);
        allowed.add(Config.LOCATION_CACHE);
        allowed.addAll(fabricSections.keySet());
        for (Map.Entry<String, Object> e : in.entrySet()) {
            String k = e.getKey();
            if (allowed.contains(k)) continue;
            if (e.getValue() instanceof Map<?, ?> m) {
                if (m.isEmpty() && declaredElsewhere(k + ".", ff) != null) continue;   // an empty section asks for nothing
                if (!m.isEmpty()) k = k + "." + m.keySet().iterator().next();
            }
            String owner = declaredElsewhere(k, ff);
            if (owner != null) {
                throw new ConfigException(k + ": fabric " + ff.name() + " cannot honour it (a key of fabric " + owner
                        + "); drop it or choose fabric " + owner);
            }
            throw new ConfigException(e.getKey() + ": unknown key" + org.rccj.framework.config.Suggest.didYouMean(e.getKey(), allowed)
                    + "; accepted top-level keys: " + String.join(", ", allowed));
        }
    }

    /** The name of a fabric other than {@code ff} declaring {@code key} (or, for "section.", any key of it), else null. */
    private static String declaredElsewhere(String key, FabricFactory ff) {
        for (FabricFactory f : Registry.fabrics()) {
            if (f.name().equals(ff.name())) continue;
            for (Param p : f.parameters()) if (key.endsWith(".") ? p.key().startsWith(key) : p.key().equals(key)) return f.name();
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> workloadTree(Object wl) {
        Map<String, Object> wmap;
        if (wl == null) {
            wmap = new LinkedHashMap<>();
        } else if (wl instanceof Map<?, ?> m) {
            wmap = new LinkedHashMap<>((Map<String, Object>) m);
        } else if (wl instanceof String s) {
            wmap = new LinkedHashMap<>();
            wmap.put("name", s);
        } else {
            throw new ConfigException("workload: expected a mapping with 'name' and the workload's keys, got '" + wl + "'");
        }
        if (!wmap.containsKey("name")) wmap.put("name", "smallbank");
        wmap.put("name", String.valueOf(wmap.get("name")).trim().toLowerCase(Locale.ROOT));
        return wmap;
    }

    /** Resolves one section; {@code name} (a workload's) is kept as the section's first key. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(String section, Object raw, List<Param> params, String name) {
        Map<String, Object> in;
        if (raw == null) {
            in = Map.of();
        } else if (raw instanceof Map<?, ?> m) {
            in = (Map<String, Object>) m;
        } else {
            throw new ConfigException(section + ": expected a mapping, got '" + raw + "'");
        }
        List<String> keys = new ArrayList<>();
        for (Param p : params) keys.add(p.key());
        for (String k : in.keySet()) {
            if (name != null && k.equals("name")) continue;
            if (!keys.contains(k)) {
                String what = name != null ? "workload " + name : section;
                throw new ConfigException(section + "." + k + ": unknown key for " + what + org.rccj.framework.config.Suggest.didYouMean(k, keys)
                        + "; accepted: "
                        + (keys.isEmpty() ? "(none)" : String.join(", ", keys)));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (name != null) out.put("name", name);
        for (Param p : params) {
            Object v = in.containsKey(p.key()) ? in.get(p.key()) : p.defaultValue();
            out.put(p.key(), p.coerce(section + ".", v));
        }
        return out;
    }
}
