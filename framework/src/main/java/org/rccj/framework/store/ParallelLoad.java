package org.rccj.framework.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.rccj.primitives.Fabric;

/**
 * The writers of a parallel load ({@link Store#loadThreads}): node {@code n}'s rows go to writer {@code n mod
 * writers}, in batches, in the order the workload's single loading thread handed them over; each writer writes its
 * nodes' rows in that order into the slots taken for them. The workload's own loop (its random draws, its record
 * contents) stays on one thread, unchanged; what runs in parallel is the memory work, the tuples and the index
 * inserts, which at many nodes is most of a load.
 */
final class ParallelLoad {
    private static final int BATCH_ROWS = 2048;
    /** Batches queued per writer at most (the loading thread waits beyond it). */
    private static final int QUEUE = 8;
    private static final Batch END = new Batch(0);

    private final Fabric fabric;
    private final Writer[] writers;
    private final Batch[] open;
    private volatile Throwable failed;

    ParallelLoad(Fabric fabric, int threads) {
        this.fabric = fabric;
        this.writers = new Writer[threads];
        this.open = new Batch[threads];
        for (int i = 0; i < threads; i++) {
            writers[i] = new Writer(i);
            writers[i].start();
        }
    }

    /** Hands one row to the writer of its node (the record is copied: the workload reuses its buffer). */
    void write(int node, Table t, long off, long key, byte[] record) {
        if (failed != null) rethrow();
        int w = node % writers.length;
        Batch b = open[w];
        if (b == null) b = open[w] = new Batch(BATCH_ROWS);
        b.add(node, t, off, key, record);
        if (b.full()) {
            put(w, b);
            open[w] = null;
        }
    }

    /** Flushes every batch and waits for the writers; rethrows a writer's failure. */
    void finish(boolean flush) {
        for (int w = 0; w < writers.length; w++) {
            if (flush && open[w] != null && failed == null) put(w, open[w]);
            open[w] = null;
            put(w, END);
        }
        for (Writer wr : writers) {
            try {
                wr.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while loading", e);
            }
        }
        if (flush && failed != null) rethrow();
    }

    private void put(int w, Batch b) {
        try {
            writers[w].queue.put(b);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading", e);
        }
    }

    private void rethrow() {
        Throwable t = failed;
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException(t);
    }

    /** Rows for one writer: node, table, slot offset, key and a copy of the record, in order. */
    private static final class Batch {
        final int[] node;
        final Table[] table;
        final long[] off, key;
        final List<byte[]> records;
        int n;

        Batch(int rows) {
            node = new int[rows];
            table = new Table[rows];
            off = new long[rows];
            key = new long[rows];
            records = new ArrayList<>(rows);
        }

        void add(int nd, Table t, long o, long k, byte[] record) {
            node[n] = nd;
            table[n] = t;
            off[n] = o;
            key[n] = k;
            records.add(record == null ? null : java.util.Arrays.copyOf(record, t.recordBytes));
            n++;
        }

        boolean full() { return n == node.length; }
    }

    private final class Writer extends Thread {
        final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUE);

        Writer(int i) {
            super("rcc-load-" + i);
            setDaemon(true);
        }

        @Override
        public void run() {
            while (true) {
                Batch b;
                try {
                    b = queue.take();
                } catch (InterruptedException e) {
                    return;
                }
                if (b == END) return;
                if (failed != null) continue;       // keep draining so the loading thread never waits on a full queue
                try {
                    for (int i = 0; i < b.n; i++) b.table[i].writeAt(fabric.memory(b.node[i]), b.off[i], b.key[i], b.records.get(i), 0);
                } catch (Throwable t) {
                    failed = t;
                }
            }
        }
    }
}
