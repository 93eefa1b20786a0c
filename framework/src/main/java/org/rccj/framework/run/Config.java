package org.rccj.framework.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.ClusterShape;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.WorkloadFactory;

/**
 * A fully resolved experiment configuration (docs/architecture.md), immutable. Built only by {@link ConfigResolver},
 * which checks every key and value, fills in defaults and looks the protocol, workload and fabric up.
 *
 * @param values the resolved tree in summary.json's order: the {@link #TOP_LEVEL} keys, the fabric's
 *               top-level keys right after {@code fabric}, the {@code workload} and {@code protocol_options}
 *               sections after {@code replication}, the fabric's sections last; unmodifiable
 */
public record Config(Map<String, Object> values, HybridCode hybrid, ProtocolFactory protocolFactory,
                     WorkloadFactory workloadFactory, FabricFactory fabricFactory) {
    public static final Param NAME = new Param("name", Param.Type.STRING, "run", 0, 0, List.of(), "name of the experiment, used in results");
    public static final Param FABRIC = new Param("fabric", Param.Type.STRING, "sim", 0, 0, List.of(), "fabric the cluster runs on (rcc list): sim, a deterministic simulated cluster; local, real threads in one JVM; tcp, one process per node");
    public static final Param NODES = Param.ofInt("nodes", 4, 1, 1024, "machines in the cluster");
    public static final Param THREADS = Param.ofInt("threads", 4, 1, 256, "worker threads per node");
    public static final Param COROUTINES = Param.ofInt("coroutines", 8, 1, 1024, "transaction coroutines per worker");
    public static final Param PROTOCOL = new Param("protocol", Param.Type.STRING, "occ", 0, 0, List.of(), "concurrency-control protocol (rcc list)");
    public static final Param HYBRID = new Param(org.rccj.framework.spi.HybridCode.KEY, Param.Type.STRING, "all-rpc", 0, 0, List.of(), "stages on one-sided primitives: all-rpc, all-onesided, a number, or READ+LOG+...");
    public static final Param REPLICATION = Param.ofInt("replication", 3, 1, 16, "copies of the coordinator log (the coordinator plus replication-1 backups)");
    public static final Param WARMUP_MS = Param.ofDoubleOrAuto("warmup_ms", 5, 0, 3.6e6, "warm-up before measuring, ms (virtual ms on sim); "
            + "auto (local, tcp, ucx): until the throughput is steady, at most " + (long) AutoWarmup.DEFAULT_BOUND_MS
            + " ms (auto:MAX_MS: at most MAX_MS), then summary.json's warmup says how long it took (docs/guide.md)");
    public static final Param DURATION_MS = Param.ofDouble("duration_ms", 20, 0.001, 3.6e6, "measured interval, ms (virtual ms on sim)");
    public static final Param SEED = Param.ofLong("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE, "random seed; same seed on sim gives the same results");
    public static final Param VERIFY = Param.ofBoolean("verify", false, "record the history, check serializability and the workload invariants; exit 1 on failure");
    public static final Param HISTORY = new Param("history", Param.Type.STRING, null, 0, 0, List.of(), "file to write the committed history to (JSON lines, docs/architecture.md)");
    public static final Param BACKOFF_US = Param.ofDouble("backoff_us", 2, 0, 1e6, "first back-off after an abort, us; doubles per retry up to 64x");
    public static final Param PASSIVE_ACK = Param.ofBoolean("passive_ack", false,
            "the artifact's PA: true = COMMIT's RPCs get no reply and its one-sided WRITEs go unsignaled (one signaled WR per 64 per queue pair), the log-clean message is not awaited; false = all awaited. RELEASE is always awaited");
    public static final Param LOCAL_ACCESS = Param.ofChoice("local_access", "network", List.of("network", "cpu"),
            "network = an access to a tuple of the own node goes through the NIC (one-sided: a queue pair to the own node; RPC: a message to the own node served at the worker's poll point), as in RCC's artifact; cpu = the local shortcut (plain memory operation, direct handler call). HADES, DrTM and CALVIN model their own local path and always use cpu");
    public static final Param STAGE_TIMERS = Param.ofChoice("stage_timers", "rccj", List.of("rccj", "artifact"),
            "rccj = a stage's row covers all of its calls' time; artifact = stages timed where RCC's artifact times them (LOG ends before the log-ack round trip, whose time is then outside the stages; docs/decisions/0175)");
    public static final Param FETCH_ITEMS = Param.ofChoice("fetch_items", "artifact", List.of("artifact", "together", "one_by_one"),
            "artifact = as RCC's artifact for the protocol and code: one stage call per access where its transactions lock and read item by item (NOWAIT, WAITDIE, MVCC, SUNDIAL; OCC when READ is one-sided), together where it batches (OCC's RPC READ, CALVIN) or the protocol is not one of its (docs/decisions/0201); together = the accesses a transaction adds before it fetches go out in one stage call (ops to every node at once); one_by_one = one stage call per access, each awaited before the next (docs/decisions/0176)");
    /** The sections every run has: the workload's settings (with its name) and the protocol's options. */
    public static final String WORKLOAD = org.rccj.framework.config.Settings.WORKLOAD, PROTOCOL_OPTIONS = org.rccj.framework.config.Settings.PROTOCOL_OPTIONS;
    /** The location cache's section (after the top-level keys). */
    public static final String LOCATION_CACHE = "location_cache";
    public static final List<Param> LOCATION_CACHE_PARAMS = List.of(Param.ofChoice("preload", "auto", List.of("auto", "true", "false"),
            "fill every node's location cache with the location of every loaded tuple before the run (not timed), as RCC's artifact "
            + "does when built with RDMA_CACHE 1 (its one-sided and hybrid builds); auto = true when any stage of the code is one-sided; "
            + "a cache bounded by the profile's location_cache.mb holds what fits (summary.json extra.location_cache_preloaded)"));

    /** The keys every run has, in summary.json's order. */
    public static final List<Param> TOP_LEVEL = List.of(NAME, FABRIC, NODES, THREADS, COROUTINES, PROTOCOL, HYBRID, REPLICATION,
            WARMUP_MS, DURATION_MS, SEED, VERIFY, HISTORY, BACKOFF_US, PASSIVE_ACK, LOCAL_ACCESS, STAGE_TIMERS, FETCH_ITEMS);

    public Config {
        values = frozen(values);
    }

    public String name() { return (String) get(NAME); }
    public String fabric() { return fabricFactory.name(); }
    public int nodes() { return (int) get(NODES); }
    public int threads() { return (int) get(THREADS); }
    public int coroutines() { return (int) get(COROUTINES); }
    public String protocol() { return protocolFactory.name(); }
    public int replication() { return (int) get(REPLICATION); }
    /** The fixed warm-up, ms; NaN under {@code warmup_ms: auto} (see {@link #autoWarmup}). */
    public double warmupMs() { return get(WARMUP_MS) instanceof Double d ? d : Double.NaN; }
    /** {@code warmup_ms: auto} (or {@code auto:MAX_MS}): the warm-up ends once the throughput is steady; null with a fixed warm-up. */
    public AutoWarmup autoWarmup() { return AutoWarmup.of(get(WARMUP_MS)); }
    public double durationMs() { return (double) get(DURATION_MS); }
    public long seed() { return (long) get(SEED); }
    public boolean verify() { return (boolean) get(VERIFY); }
    /** The history file, or null. */
    public String history() { return (String) get(HISTORY); }
    public double backoffUs() { return (double) get(BACKOFF_US); }
    public boolean passiveAck() { return (boolean) get(PASSIVE_ACK); }
    /** True when accesses to the own node's tuples go through the NIC ({@code local_access: network}). */
    public boolean localThroughNic() { return "network".equals(get(LOCAL_ACCESS)); }

    /** True with {@code stage_timers: artifact}. */
    public boolean artifactStageTimers() { return "artifact".equals(get(STAGE_TIMERS)); }

    /** True with {@code fetch_items: one_by_one} (asked for explicitly). */
    public boolean fetchOneByOne() { return "one_by_one".equals(get(FETCH_ITEMS)); }

    /**
     * Whether this run's fetches are one stage call per access: {@code fetch_items} resolved for the protocol and the
     * hybrid code ({@code artifact}: as RCC's artifact does, {@link ProtocolFactory#artifactFetchesOneByOne}; decisions
     * 0176, 0201). Never where the protocol cannot ({@link ProtocolFactory#fetchOneByOneApplies}).
     */
    public boolean fetchesOneByOne() {
        ProtocolFactory pf = protocolFactory();
        if (!pf.fetchOneByOneApplies()) return false;
        return switch ((String) get(FETCH_ITEMS)) {
            case "one_by_one" -> true;
            case "artifact" -> pf.artifactFetchesOneByOne(hybrid().code(), protocolOptions());
            default -> false;
        };
    }

    /** Whether the location caches are filled at load ({@code location_cache.preload}; auto: any stage one-sided). */
    @SuppressWarnings("unchecked")
    public boolean preloadLocationCache() {
        Object v = ((Map<String, Object>) values.get(LOCATION_CACHE)).get("preload");
        return "auto".equals(v) ? hybrid.code() != 0 : "true".equals(v);
    }

    /** The workload's resolved settings, with its {@code name} first. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> workload() { return (Map<String, Object>) values.get(WORKLOAD); }
    public String workloadName() { return workloadFactory.name(); }
    @SuppressWarnings("unchecked")
    public Map<String, Object> protocolOptions() { return (Map<String, Object>) values.get(PROTOCOL_OPTIONS); }

    /** The resolved values of the keys the fabric declares, by full dotted name ({@code faults.torn_reads}). */
    public Map<String, Object> fabricSettings() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Param p : fabricFactory.parameters()) out.put(p.key(), fabricSetting(p.key()));
        return out;
    }

    /** The value of one of the fabric's keys ({@code profile}, {@code faults.torn_reads}), or null when the fabric has no such key. */
    public Object fabricSetting(String dottedKey) {
        int dot = dottedKey.indexOf('.');
        if (dot < 0) return values.get(dottedKey);
        return values.get(dottedKey.substring(0, dot)) instanceof Map<?, ?> m ? m.get(dottedKey.substring(dot + 1)) : null;
    }

    /** What protocols and workloads are told about the run. */
    public ClusterShape shape() {
        return new ClusterShape(nodes(), threads(), coroutines(), replication(), warmupMs(), seed(), passiveAck());
    }

    /**
     * The resolved config as a tree (a mutable copy), in the key order of docs/architecture.md (for summary.json and
     * what "the same experiment" means), without the keys declared as not changing a result ({@link Param#keepsResults}:
     * {@code sim.threads}, decision 0147, summary.json's environment block says how many ran; {@code sim.critical_path}).
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> toMap() {
        Map<String, Object> m = copy(values);
        for (Param p : fabricFactory.parameters()) {
            if (!p.keepsResults()) continue;
            int dot = p.key().indexOf('.');
            if (dot < 0) {
                m.remove(p.key());
            } else if (m.get(p.key().substring(0, dot)) instanceof Map<?, ?> section) {
                section.remove(p.key().substring(dot + 1));
                if (section.isEmpty()) m.remove(p.key().substring(0, dot));
            }
        }
        return m;
    }

    private Object get(Param p) { return values.get(p.key()); }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Map<String, Object> tree) {
        Map<String, Object> out = new LinkedHashMap<>();
        tree.forEach((k, v) -> out.put(k, v instanceof Map<?, ?> m ? copy((Map<String, Object>) m) : v));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> frozen(Map<String, Object> tree) {
        Map<String, Object> out = new LinkedHashMap<>();
        tree.forEach((k, v) -> out.put(k, v instanceof Map<?, ?> m ? frozen((Map<String, Object>) m) : v));
        return Collections.unmodifiableMap(out);
    }
}
