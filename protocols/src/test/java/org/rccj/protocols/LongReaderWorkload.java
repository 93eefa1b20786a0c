package org.rccj.protocols;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Partitioner;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;
import org.rccj.testkit.SmallRuns;

/**
 * Test-only workload "long-reader": a scripted conflict between one slow reader and busy writers.
 * Table {@code cells} holds keys 0..2, each a counter starting at {@value #START}. The first coroutine of
 * node 0 is the reader: it reads cell {@code first_cell} (0: never written; 1: written), sleeps
 * {@code sleep_us}, then reads cell 2 (LongRead). Every other coroutine moves one unit from cell 2 to cell 1
 * (Move), so cell 2 gets new versions while the reader sleeps; {@code write_delay_us} makes a writer access its
 * cells that long after it began (a timestamp protocol's writer then locks later than its timestamp says).
 * Each record is (value, id of the transaction that wrote it). Invariants: {@code total}, the cells still
 * sum to 3 x {@value #START}; {@code reads_match_versions}, in every committed transaction each record read
 * carries the writer id the protocol reported as its version (a torn or mislabelled read breaks it).
 */
public final class LongReaderWorkload implements WorkloadFactory {
    static final long START = 1_000_000;
    static final int VALUE = 0, WRITER = 8, RECORD_BYTES = 16;
    static final List<String> TYPES = List.of("LongRead", "Move");
    static final int LONG_READ = 0, MOVE = 1;

    @Override public String name() { return "long-reader"; }
    @Override public String description() { return "TEST ONLY: one slow reader against writers of the key it reads last"; }

    @Override
    public List<Param> parameters() {
        return List.of(Param.ofDouble("sleep_us", 5, 0, 1e6, "how long the reader waits between its two reads"),
                Param.ofInt("first_cell", 0, 0, 1, "cell the reader reads first: 0 (no writer touches it) or 1 (the writers' target)"),
                Param.ofDouble("write_delay_us", 0, 0, 1e6, "how long a writer waits after it began before it accesses its cells"));
    }

    @Override
    public Workload create(WorkloadSetup s) {
        long sleepNs = Math.round(s.d("sleep_us") * 1000);
        long firstCell = s.i("first_cell");
        long writeDelayNs = Math.round(s.d("write_delay_us") * 1000);
        return new Workload() {
            Table cells;
            final java.util.List<long[]> mismatches = new java.util.ArrayList<>();

            @Override public List<TableSpec> tables() { return List.of(new TableSpec("cells", RECORD_BYTES, 3, Partitioner.HASH)); }
            @Override public List<String> txnTypes() { return TYPES; }

            @Override
            public void load(Store store, long seed) {
                cells = store.table("cells");
                byte[] r = new byte[RECORD_BYTES];
                Bytes.putLong(r, VALUE, START);
                for (long k = 0; k < 3; k++) store.load(cells, k, r);
            }

            @Override
            public TxnGenerator generator(CoroutineContext ctx) {
                boolean reader = ctx.node == 0 && ctx.worker().index == 0 && ctx.index == 0;
                long[] mismatch = new long[1];
                synchronized (mismatches) { mismatches.add(mismatch); }
                return new TxnGenerator() {
                    @Override public int next() { return reader ? LONG_READ : MOVE; }

                    @Override
                    public void execute(Tx tx) {
                        if (reader) {
                            tx.read(cells, firstCell);
                            tx.fetch();
                            tx.ctx.sleep(sleepNs);
                            tx.read(cells, 2);
                            tx.fetch();
                        } else {
                            if (writeDelayNs > 0) tx.ctx.sleep(writeDelayNs);
                            int to = tx.readForUpdate(cells, 1), from = tx.readForUpdate(cells, 2);
                            tx.fetch();
                            tx.put(to, VALUE, tx.get(to, VALUE) + 1);
                            tx.put(from, VALUE, tx.get(from, VALUE) - 1);
                            tx.put(to, WRITER, tx.id);
                            tx.put(from, WRITER, tx.id);
                        }
                    }

                    @Override
                    public void committed(Tx tx) {
                        for (int h = 0; h < tx.size(); h++) {
                            if (tx.access(h).needsValue && tx.getRead(h, WRITER) != tx.access(h).version) mismatch[0]++;
                        }
                    }
                };
            }

            @Override
            public Map<String, Boolean> checkInvariants(Store store) {
                long sum = 0;
                for (long k = 0; k < 3; k++) sum += store.field(cells, k, VALUE);
                Map<String, Boolean> m = new LinkedHashMap<>();
                m.put("total", sum == 3 * START);
                long bad = 0;
                synchronized (mismatches) { for (long[] c : mismatches) bad += c[0]; }
                m.put("reads_match_versions", bad == 0);
                return m;
            }
        };
    }

    /** A small long-reader cluster with verify on. */
    public static Map<String, Object> config(String protocol, Object... kv) {
        Map<String, Object> m = SmallRuns.cluster("long-reader", "protocol", protocol, "nodes", 2, "coroutines", 2, "warmup_ms", 0.0);
        return SmallRuns.set(m, kv);
    }
}
