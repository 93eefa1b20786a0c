package org.rccj.workloads.ycsb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Settings;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Hashing;
import org.rccj.framework.store.Partitioner;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * YCSB in the form RDMA transaction papers use (RCC, DrTM+H): one table of fixed-size records hashed over
 * all nodes; a transaction touches {@code ops_per_txn} distinct keys in one fetch round, each a read or (with
 * {@code write_probability}) a read-modify-write, then spends {@code compute_us} of CPU time in the execution
 * stage (on top of the logic's own measured cost, the profile's {@code logic_ns.ycsb.*}, which the framework charges). Keys come from a hot area ({@code hot_probability} of the operations go to the first
 * {@code hot_fraction} of the keys, the rest uniformly to the others) or, with {@code zipf_theta} set, from a
 * Zipfian distribution over all keys (rank r = key r; hashing spreads the popular keys over the nodes).
 *
 * <p>Record: a write counter, then payload words. A write increments the counter and sets every payload word
 * to {@link #stamp}(key, new counter). Invariants: {@code write_count} - the counters sum to the number of
 * committed writes; {@code record_consistent} - every record's payload matches its counter (no write was
 * installed partially or mixed with another).
 */
public final class Ycsb implements Workload {
    /** Record layout: the write counter, then payload words up to record_bytes. */
    public static final int COUNTER = 0;
    public static final int PAYLOAD = 8;
    public static final int WORD = 8;
    public static final String TABLE = "usertable";
    public static final List<String> TYPES = List.of("ReadOnly", "ReadWrite");
    static final int READ_ONLY = 0, READ_WRITE = 1;

    final long keys;
    final int opsPerTxn;
    final double writeProbability;
    final int recordBytes;
    /** Payload words per record (those that fit after the counter). */
    final int payloadWords;
    final long hotKeys;
    final double hotProbability;
    /** Null unless zipf_theta is set. */
    final ZipfianGenerator zipf;
    final long computeNs;
    /** Null unless local_fraction is set. */
    final Double localFraction;
    long seed;
    Table table;
    private final List<YcsbGenerator> generators = new ArrayList<>();

    Ycsb(WorkloadSetup s) {
        keys = (long) s.i(YcsbFactory.KEYS_PER_THREAD) * s.cluster().workers();
        opsPerTxn = s.i(YcsbFactory.OPS_PER_TXN);
        if (opsPerTxn > keys) {
            throw new ConfigException(Settings.workloadKey(YcsbFactory.OPS_PER_TXN) + ": " + opsPerTxn + " distinct keys per transaction but only "
                    + keys + " keys in the cluster; raise " + Settings.workloadKey(YcsbFactory.KEYS_PER_THREAD));
        }
        writeProbability = s.d(YcsbFactory.WRITE_PROBABILITY);
        recordBytes = s.i(YcsbFactory.RECORD_BYTES);
        payloadWords = (recordBytes - PAYLOAD) / WORD;
        hotKeys = Math.min(keys, Math.max(1, Math.round(keys * s.d(YcsbFactory.HOT_FRACTION))));
        hotProbability = s.d(YcsbFactory.HOT_PROBABILITY);
        if (hotProbability >= 1 && hotKeys < opsPerTxn) {
            throw new ConfigException(Settings.workloadKey(YcsbFactory.HOT_PROBABILITY) + ": every operation goes to a hot area of " + hotKeys
                    + " keys, fewer than " + YcsbFactory.OPS_PER_TXN + " = " + opsPerTxn + "; raise " + Settings.workloadKey(YcsbFactory.HOT_FRACTION));
        }
        Double theta = (Double) s.params().get(YcsbFactory.ZIPF_THETA);
        zipf = theta == null ? null : new ZipfianGenerator(keys, theta);
        computeNs = Math.round(s.d(YcsbFactory.COMPUTE_US) * 1000);
        localFraction = (Double) s.params().get(org.rccj.workloads.LocalFraction.KEY);
    }

    @Override
    public List<TableSpec> tables() { return List.of(new TableSpec(TABLE, recordBytes, keys, Partitioner.HASH)); }

    @Override public List<String> txnTypes() { return TYPES; }

    @Override public int maxAccessesPerTxn() { return opsPerTxn; }

    /** The payload word value of a record whose counter is {@code counter}. */
    static long stamp(long seed, long key, long counter) { return Hashing.mix(Hashing.mix(seed, key), counter); }

    @Override
    public void load(Store store, long seed) {
        this.seed = seed;
        table = store.table(TABLE);
        byte[] rec = new byte[recordBytes];
        for (long k = 0; k < keys; k++) {
            Bytes.putLong(rec, COUNTER, 0);
            long v = stamp(seed, k, 0);
            for (int w = 0; w < payloadWords; w++) Bytes.putLong(rec, PAYLOAD + w * WORD, v);
            store.load(table, k, rec);
        }
    }

    @Override
    public TxnGenerator generator(CoroutineContext ctx) {
        YcsbGenerator g = new YcsbGenerator(this, ctx);
        generators.add(g);
        return g;
    }

    @Override
    public TxnGenerator replayer(CoroutineContext ctx) { return new YcsbGenerator(this, ctx); }

    @Override public int maxPickBytes() { return 8 * opsPerTxn; }

    /** Committed writes of generators in other processes (tcp). */
    private long remoteWrites;

    @Override public long[] tallies() { return new long[] {committedWrites() - remoteWrites}; }

    @Override public void addTallies(long[] other) { remoteWrites += other[0]; }

    long committedWrites() {
        long n = remoteWrites;
        for (YcsbGenerator g : generators) n += g.committedWrites;
        return n;
    }

    @Override
    public Map<String, Boolean> checkInvariants(Store store) {
        long[] sum = {0};
        boolean[] consistent = {true};
        store.forEach(table, (node, key, off) -> {
            RegisteredMemory m = store.fabric().memory(node);
            long c = table.getField(m, off, COUNTER);
            sum[0] += c;
            long v = stamp(seed, key, c);
            for (int w = 0; w < payloadWords; w++) {
                if (table.getField(m, off, PAYLOAD + w * WORD) != v) consistent[0] = false;
            }
        });
        Map<String, Boolean> out = new LinkedHashMap<>();
        out.put("write_count", sum[0] == committedWrites());
        out.put("record_consistent", consistent[0]);
        return out;
    }
}
