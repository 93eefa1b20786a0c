package org.rccj.experiments.calibrate;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.ClusterRun;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.Registry;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Fabric;

/**
 * A workload's transaction logic on real cores, for {@code bench}'s LogicBench (JMH) and {@code rcc calibrate}
 * ({@link LogicCosts}, plain timed loops): one node, one worker, one coroutine of a
 * real workload and store on the {@code sim} fabric (never run: only its memory, clock and charge calls are used),
 * whose transactions go to a fake protocol ({@link FakeExecutor}) that serves every fetch from the local store at
 * no modelled cost and commits nothing. The generator is forced to one transaction type.
 *
 * <p>{@link #logic} runs one transaction as the coordinator does: the generator's pick and its logic with every fetch
 * round (not its committed-bookkeeping, a counter or two, which would use up TPC-C's HISTORY slots: nothing is
 * installed, so every Payment takes the same slot). {@link #accesses} replays the same accesses (recorded from up to
 * {@link #TRACES} picks of the same type; {@link #logic} replays the same picks, as the coroutine's random source is
 * rewound after the last, so both touch the same records in the same order) with no workload logic: each access
 * added, fetched in the same rounds, one field read
 * per read and one written per write. The difference is the logic's own CPU work; the framework's per-access work
 * that {@code cpu.tuple_op_ns} charges, and the fake's lookups, are in both and cancel out.
 */
public final class LogicHarness implements AutoCloseable {
    /** At most this many recorded picks, and at most {@link #TRACE_ACCESSES} accesses over all of them (the replay's own memory). */
    static final int TRACES = 4096, TRACE_ACCESSES = 1 << 14;

    /**
     * The benchmarked (workload, type) pairs: every transaction type of every built-in workload (those the workloads
     * module registers), as the workload registry lists them, workloads by name.
     */
    public static final List<String> CASES = cases();

    private static List<String> cases() {
        List<String> out = new ArrayList<>();
        for (WorkloadFactory f : Registry.workloads()) {
            if (!f.getClass().getName().startsWith("org.rccj.workloads.")) continue;
            Config c = ConfigResolver.resolve(tree(f.name(), ""));
            for (String type : c.workloadFactory().create(new WorkloadSetup(c.shape(), c.workload())).txnTypes()) out.add(f.name() + "/" + type);
        }
        return List.copyOf(out);
    }

    /** One node, thread and coroutine of the workload, its tables sized for a harness (not the run's defaults). */
    private static Map<String, Object> tree(String wl, String typeName) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("name", wl);
        switch (wl) {
            case "smallbank" -> w.put("accounts_per_thread", 100_000);
            case "tatp" -> w.put("subscribers_per_node", 100_000);
            case "tpcc" -> w.put("warehouses_per_thread", 1);
            case "ycsb" -> {
                w.put("keys_per_thread", 100_000);
                w.put("compute_us", 0);     // the knob on top of the measured logic, not part of it
                if (typeName.equals("ReadOnly")) w.put("write_probability", 0.0);
            }
            default -> { }                  // a workload added later: its own defaults
        }
        return new LinkedHashMap<>(Map.of(Config.FABRIC.key(), "sim", Config.NODES.key(), 1, Config.THREADS.key(), 1, Config.COROUTINES.key(), 1, Config.REPLICATION.key(), 1,
                Config.PROTOCOL.key(), "occ", Config.WORKLOAD, w));
    }

    private final TxnGenerator gen;
    private final Tx tx;
    private final FakeExecutor fake;
    private final int type;
    private long id;
    // the recorded accesses: per trace, its rounds; per round, its accesses
    private final int traces;
    private final Table[][] tables;
    private final long[][] keys;
    private final byte[][] kinds;      // 0 read, 1 read for update, 2 blind write
    private final int[][] roundEnds;
    private int next;
    // the coroutine's random source, rewound to where the recording started whenever the logic has replayed every
    // recorded pick: both benchmarks then touch the same records in the same order (the same caches)
    private final Field seedField = SplittableRandom.class.getDeclaredField("seed");
    private final SplittableRandom rng;
    private final long firstSeed;
    private int picks;
    private Runnable restoreMix = () -> {};

    public LogicHarness(String kase) throws ReflectiveOperationException {
        int slash = kase.indexOf('/');
        String wl = kase.substring(0, slash), typeName = kase.substring(slash + 1);
        Config c = ConfigResolver.resolve(tree(wl, typeName));
        Protocol real = c.protocolFactory().create(new ProtocolSetup(c.shape(), c.hybrid(), c.protocolOptions()));
        Workload workload = c.workloadFactory().create(new WorkloadSetup(c.shape(), c.workload()));
        Fabric fabric = c.fabricFactory().create(new FabricSetup(c.nodes(), c.threads(), c.fabricSettings()));
        Store store = new Store(fabric, real.header(), workload.tables());
        workload.load(store, c.seed());
        Cluster cluster = new Cluster(c.shape(), fabric, store, workload);
        CoroutineContext[] captured = new CoroutineContext[1];
        Protocol fakeProtocol = new Protocol() {
            @Override public HeaderLayout header() { return real.header(); }
            @Override public void attach(ClusterView cl) {}
            @Override public TxnExecutor executor(CoroutineContext ctx) {
                captured[0] = ctx;
                return new FakeExecutor(ctx, store);
            }
        };
        // builds the worker and its coroutine; with no measured time their loop ends before its first transaction
        ClusterRun.run(cluster, fakeProtocol, workload, () -> 0L, 0, 0, null, 0, false, 1);
        CoroutineContext ctx = captured[0];
        type = workload.txnTypes().indexOf(typeName);
        if (type < 0) throw new IllegalArgumentException(kase + ": no such type in " + workload.txnTypes());
        if (!wl.equals("ycsb")) restoreMix = onlyType(workload, type);
        gen = workload.generator(ctx);
        fake = new FakeExecutor(ctx, store);
        tx = new Tx(ctx);
        tx.executor(fake);
        tx.source = gen;

        seedField.setAccessible(true);       // needs --add-opens java.base/java.util (LogicBench's fork and ./rcc add it)
        rng = ctx.rng;
        int max = 1;
        for (int i = 0; i < 64; i++) max = Math.max(max, (int) pick());
        int n0 = TRACES;
        while (n0 > 16 && (long) n0 * max > TRACE_ACCESSES) n0 /= 2;
        traces = n0;
        tables = new Table[traces][];
        keys = new long[traces][];
        kinds = new byte[traces][];
        roundEnds = new int[traces][];
        fake.rounds = new ArrayList<>();
        firstSeed = seedField.getLong(rng);
        for (int i = 0; i < traces; i++) {
            fake.rounds.clear();
            pick();
            int n = tx.size();
            if (fake.rounds.isEmpty() || fake.rounds.get(fake.rounds.size() - 1) != n) fake.rounds.add(n);
            tables[i] = new Table[n];
            keys[i] = new long[n];
            kinds[i] = new byte[n];
            for (int j = 0; j < n; j++) {
                Access a = tx.access(j);
                tables[i][j] = a.table;
                keys[i][j] = a.key;
                kinds[i][j] = (byte) (!a.write ? 0 : a.needsValue ? 1 : 2);
            }
            roundEnds[i] = fake.rounds.stream().mapToInt(Integer::intValue).toArray();
        }
        fake.rounds = null;
        // the replay runs half a cycle away from the logic: each batch of either half then touches records last
        // touched alike (not the records the other half has just brought into the caches)
        next = traces / 2;
        walkNext = traces / 2;
    }

    /** The mean number of accesses of a recorded transaction (what {@link #accesses} replays per call, on average). */
    public double accessesPerTransaction() {
        long n = 0;
        for (long[] k : keys) n += k.length;
        return (double) n / traces;
    }

    /**
     * Gives the workload's mix back (it may be a static array of the workload's class): a JVM that goes on to run
     * workloads after the harness (rcc calibrate's tests) must see the standard mix again.
     */
    @Override
    public void close() { restoreMix.run(); }

    /**
     * Makes the workload's cumulative mix pick only {@code type} (the mix array the generators read, changed in place);
     * returns what puts it back.
     */
    private static Runnable onlyType(Workload workload, int type) throws ReflectiveOperationException {
        int[] mix;
        Field f;
        try {
            f = workload.getClass().getDeclaredField("mix");
            f.setAccessible(true);
            mix = (int[]) f.get(workload);
        } catch (NoSuchFieldException e) {
            f = workload.getClass().getDeclaredField("STANDARD_MIX");
            f.setAccessible(true);
            mix = (int[]) f.get(null);
        }
        // the array may be the workload's static mix: put back by close()
        int[] array = mix, before = mix.clone();
        for (int t = 0; t < mix.length; t++) mix[t] = t < type ? 0 : 100;
        return () -> System.arraycopy(before, 0, array, 0, before.length);
    }

    /** One transaction of the type (pick, logic with its fetch rounds): the recorded picks again, in order. */
    public long logic() {
        if (picks == traces) {
            picks = 0;
            try {
                seedField.setLong(rng, firstSeed);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        picks++;
        return pick();
    }

    private long pick() {
        int t;
        do t = gen.next(); while (t != type);    // YCSB's types follow from its write draws; the others always match
        tx.begin(++id, t);
        try {
            gen.execute(tx);
            tx.fetch();
        } catch (AbortException a) {
            return tx.size();
        }
        return tx.size();
    }

    private static final java.lang.management.ThreadMXBean MX = java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * {@code batch} transactions of the type ({@link #logic}), then {@code batch} replays without the logic
     * ({@link #accesses}), then {@code batch} walks ({@link #walk}), each timed in this thread's CPU time and added to
     * {@code ns[0]}, {@code ns[1]}, {@code ns[2]}. Interleaving the halves in batches makes them see the same machine
     * load and the same compiled framework code. Returns the sum of their results (keep it alive).
     */
    public long paired(int batch, long[] ns) {
        long t0 = MX.getCurrentThreadCpuTime(), s = 0;
        for (int i = 0; i < batch; i++) s += logic();
        long t1 = MX.getCurrentThreadCpuTime();
        for (int i = 0; i < batch; i++) s += accesses();
        long t2 = MX.getCurrentThreadCpuTime();
        for (int i = 0; i < batch; i++) s += walk();
        long t3 = MX.getCurrentThreadCpuTime();
        ns[0] += t1 - t0;
        ns[1] += t2 - t1;
        ns[2] += t3 - t2;
        return s;
    }

    /** The same accesses with no logic: added, fetched in the same rounds, one field read or written each. */
    public long accesses() {
        int i = next;
        next = (i + 1) & (traces - 1);
        Table[] ts = tables[i];
        long[] ks = keys[i];
        byte[] kind = kinds[i];
        int[] ends = roundEnds[i];
        tx.begin(++id, type);
        long sink = 0;
        int from = 0;
        for (int end : ends) {
            for (int j = from; j < end; j++) {
                switch (kind[j]) {
                    case 0 -> tx.read(ts[j], ks[j]);
                    case 1 -> tx.readForUpdate(ts[j], ks[j]);
                    default -> tx.write(ts[j], ks[j]);
                }
            }
            tx.fetch();
            for (int j = from; j < end; j++) {
                if (kind[j] != 2) sink += tx.getRead(j, 0);
                if (kind[j] != 0) tx.put(j, 0, sink);
            }
            from = end;
        }
        return sink;
    }

    private int walkNext;

    /**
     * The replay's own bookkeeping alone: reads the next recorded transaction's accesses as {@link #accesses} does,
     * without adding or fetching them (added back to logic - accesses, as the logic does not pay it).
     */
    public long walk() {
        int i = walkNext;
        walkNext = (i + 1) & (traces - 1);
        Table[] ts = tables[i];
        long[] ks = keys[i];
        byte[] kind = kinds[i];
        long sink = 0;
        int from = 0;
        for (int end : roundEnds[i]) {
            for (int j = from; j < end; j++) sink += ks[j] ^ kind[j] ^ ts[j].id;
            from = end;
        }
        return sink;
    }

    /** Serves fetches from the local store (the record copy only), commits nothing; records the fetch rounds. */
    static final class FakeExecutor extends TxnExecutor {
        private final Store store;
        private final org.rccj.primitives.RegisteredMemory mem;
        List<Integer> rounds;

        FakeExecutor(CoroutineContext ctx, Store store) {
            super(ctx);
            this.store = store;
            this.mem = ctx.cluster().memory(0);
        }

        @Override
        public void fetch(Tx tx, int from, int to) {
            for (int i = from; i < to; i++) {
                Access a = tx.access(i);
                if (a.needsValue) {
                    long off = locate(a.table, a.key);
                    if (off < 0) {
                        a.absent = true;
                        continue;
                    }
                    mem.read(a.table.region(), off + a.table.recordOffset, a.record, 0, a.table.recordBytes);
                }
                a.fetchedRecord();
            }
            if (rounds != null) rounds.add(to);
        }

        // an open-addressing cache (table, key) -> tuple offset in front of the store's index, so that the fake's own
        // cost (paid alike by both benchmarks) is small next to the logic it is subtracted from
        private long[] keys = new long[1 << 16], offsets = new long[1 << 16];
        private int[] tableIds = new int[1 << 16];      // table id + 1; 0 = empty slot
        private int cached;

        private long locate(Table t, long key) {
            int mask = keys.length - 1;
            for (int i = (int) org.rccj.framework.store.Hashing.mix(key, t.id) & mask; ; i = (i + 1) & mask) {
                if (tableIds[i] == t.id + 1 && keys[i] == key) return offsets[i];
                if (tableIds[i] == 0) {
                    long off = store.locate(t, key);
                    if (2 * (cached + 1) > keys.length) {     // half full: start over at twice the size
                        keys = new long[2 * keys.length];
                        offsets = new long[keys.length];
                        tableIds = new int[keys.length];
                        cached = 0;
                        return off;
                    }
                    tableIds[i] = t.id + 1;
                    keys[i] = key;
                    offsets[i] = off;
                    cached++;
                    return off;
                }
            }
        }

        @Override public void commit(Tx tx) {}
        @Override public void abort(Tx tx) {}
    }
}
