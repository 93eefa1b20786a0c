package org.rccj.framework.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.primitives.CostProfile;

/**
 * A fully resolved experiment configuration (design.md §6). Built only by {@link #fromMap}, which checks
 * every key and value and fills in defaults; a bad one raises {@link ConfigException} naming the key.
 */
public final class Config {
    /** Top-level keys with their parameter descriptions, in the order summary.json shows them. */
    public static final List<Param> TOP_LEVEL = List.of(
            new Param("name", Param.Type.STRING, "run", 0, 0, List.of(), "name of the experiment, used in results"),
            Param.ofChoice("fabric", "sim", Registry.FABRICS, "sim: deterministic simulated cluster; local: real threads in one JVM"),
            Param.ofChoice("profile", CostProfile.DEFAULT, CostProfile.known(), "cost profile of the sim fabric (calibration.md)"),
            Param.ofInt("nodes", 4, 1, 1024, "machines in the cluster"),
            Param.ofInt("threads", 4, 1, 256, "worker threads per node"),
            Param.ofInt("coroutines", 8, 1, 1024, "transaction coroutines per worker"),
            new Param("protocol", Param.Type.STRING, "occ", 0, 0, List.of(), "concurrency-control protocol (rcc list)"),
            new Param("hybrid", Param.Type.STRING, "all-rpc", 0, 0, List.of(), "stages on one-sided primitives: all-rpc, all-onesided, a number, or READ+LOG+..."),
            Param.ofInt("replication", 3, 1, 16, "copies of the coordinator log (the coordinator plus replication-1 backups)"),
            Param.ofDouble("warmup_ms", 5, 0, 3.6e6, "warm-up before measuring, ms (virtual ms on sim)"),
            Param.ofDouble("duration_ms", 20, 0.001, 3.6e6, "measured interval, ms (virtual ms on sim)"),
            Param.ofLong("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE, "random seed; same seed on sim gives the same results"),
            Param.ofBoolean("verify", false, "record the history, check serializability and the workload invariants; exit 1 on failure"),
            new Param("history", Param.Type.STRING, null, 0, 0, List.of(), "file to write the committed history to (JSON lines, design.md §8)"),
            Param.ofDouble("backoff_us", 2, 0, 1e6, "first back-off after an abort, us; doubles per retry up to 64x"));

    public static final List<Param> FAULTS = List.of(
            Param.ofBoolean("torn_reads", false, "sim: multi-line one-sided READs reach memory line by line, so concurrent writes can tear them"));

    public String name;
    public String fabric;
    public String profile;
    public int nodes, threads, coroutines;
    public String protocol;
    public HybridCode hybrid;
    public int replication;
    public Map<String, Object> workload;
    public Map<String, Object> protocolOptions;
    public double warmupMs, durationMs;
    public long seed;
    public boolean verify;
    public String history;
    public double backoffUs;
    public boolean tornReads;

    private Config() {}

    public ProtocolFactory protocolFactory() { return Registry.protocol(protocol); }
    public WorkloadFactory workloadFactory() { return Registry.workload((String) workload.get("name")); }

    public int workersPerCluster() { return nodes * threads; }

    /**
     * Resolves a parsed config tree (from JSON/YAML plus {@code --set} overrides).
     * Unknown keys, wrong types, out-of-range values, unknown protocol/workload/fabric, a hybrid bit the
     * protocol lacks and fewer nodes than {@code replication} are all rejected.
     */
    @SuppressWarnings("unchecked")
    public static Config fromMap(Map<String, Object> tree) {
        Map<String, Object> in = tree == null ? Map.of() : tree;
        List<String> allowed = new ArrayList<>();
        for (Param p : TOP_LEVEL) allowed.add(p.key());
        allowed.add("workload");
        allowed.add("protocol_options");
        allowed.add("faults");
        for (String k : in.keySet()) {
            if (!allowed.contains(k)) {
                throw new ConfigException(k + ": unknown key; accepted top-level keys: " + String.join(", ", allowed));
            }
        }
        Config c = new Config();
        Map<String, Object> v = new LinkedHashMap<>();
        for (Param p : TOP_LEVEL) {
            Object raw = in.containsKey(p.key()) ? in.get(p.key()) : p.defaultValue();
            if (p.key().equals("history")) {
                v.put("history", raw == null ? null : raw.toString());
            } else {
                v.put(p.key(), p.coerce("", raw));
            }
        }
        c.name = (String) v.get("name");
        c.fabric = (String) v.get("fabric");
        c.profile = (String) v.get("profile");
        c.nodes = (int) v.get("nodes");
        c.threads = (int) v.get("threads");
        c.coroutines = (int) v.get("coroutines");
        c.protocol = ((String) v.get("protocol")).trim().toLowerCase();
        c.replication = (int) v.get("replication");
        c.warmupMs = (double) v.get("warmup_ms");
        c.durationMs = (double) v.get("duration_ms");
        c.seed = (long) v.get("seed");
        c.verify = (boolean) v.get("verify");
        c.history = (String) v.get("history");
        c.backoffUs = (double) v.get("backoff_us");
        if (c.nodes < c.replication) {
            throw new ConfigException("replication: " + c.replication + " copies need at least " + c.replication
                    + " nodes, but nodes is " + c.nodes + "; lower replication or add nodes");
        }
        ProtocolFactory pf = Registry.protocol(c.protocol);
        c.protocol = pf.name();
        c.hybrid = HybridCode.parse(String.valueOf(v.get("hybrid")), pf.name(), pf.stages());
        c.protocolOptions = resolveSection("protocol_options", in.get("protocol_options"), pf.parameters(), null);

        Object wl = in.get("workload");
        Map<String, Object> wmap;
        if (wl == null) {
            wmap = new LinkedHashMap<>();
            wmap.put("name", "smallbank");
        } else if (wl instanceof Map<?, ?> m) {
            wmap = new LinkedHashMap<>((Map<String, Object>) m);
            if (!wmap.containsKey("name")) wmap.put("name", "smallbank");
        } else if (wl instanceof String s) {
            wmap = new LinkedHashMap<>();
            wmap.put("name", s);
        } else {
            throw new ConfigException("workload: expected a mapping with 'name' and the workload's keys, got '" + wl + "'");
        }
        WorkloadFactory wf = Registry.workload(String.valueOf(wmap.get("name")).trim().toLowerCase());
        c.workload = resolveSection("workload", wmap, wf.parameters(), wf.name());

        Object faults = in.get("faults");
        Map<String, Object> f = resolveSection("faults", faults, FAULTS, null);
        c.tornReads = (boolean) f.get("torn_reads");
        if (c.tornReads && !c.fabric.equals("sim")) {
            throw new ConfigException("faults.torn_reads: the " + c.fabric + " fabric cannot inject torn reads (only sim models a READ"
                    + " reaching memory line by line); use fabric=sim or faults.torn_reads=false");
        }
        return c;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> resolveSection(String section, Object raw, List<Param> params, String name) {
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
                throw new ConfigException(section + "." + k + ": unknown key for " + what + "; accepted: "
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

    /** The resolved config as a tree, in the key order of design.md §6 (for summary.json). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("fabric", fabric);
        m.put("profile", profile);
        m.put("nodes", nodes);
        m.put("threads", threads);
        m.put("coroutines", coroutines);
        m.put("protocol", protocol);
        m.put("hybrid", hybrid.spelled());
        m.put("replication", replication);
        m.put("workload", new LinkedHashMap<>(workload));
        m.put("protocol_options", new LinkedHashMap<>(protocolOptions));
        m.put("warmup_ms", warmupMs);
        m.put("duration_ms", durationMs);
        m.put("seed", seed);
        m.put("verify", verify);
        m.put("history", history);
        m.put("backoff_us", backoffUs);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("torn_reads", tornReads);
        m.put("faults", f);
        return m;
    }

    public int intParam(String key) { return (int) workload.get(key); }
    public long longParam(String key) { return (long) workload.get(key); }
    public double doubleParam(String key) { return (double) workload.get(key); }
    public String stringParam(String key) { return (String) workload.get(key); }
}
