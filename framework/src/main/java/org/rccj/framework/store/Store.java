package org.rccj.framework.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.RegisteredMemory;

/** The cluster's tables: every table registered on every node, with its index. */
public final class Store {
    private final Fabric fabric;
    private final List<Table> tables = new ArrayList<>();
    private final HeaderLayout header;

    public Store(Fabric fabric, HeaderLayout header, List<TableSpec> specs) {
        this.fabric = fabric;
        this.header = header;
        for (TableSpec s : specs) {
            Table t = new Table(tables.size(), s, header, fabric.nodes());
            for (int n = 0; n < fabric.nodes(); n++) {
                RegisteredMemory m = fabric.memory(n);
                int r = m.register("table:" + s.name(), t.capacityPerNode * t.tupleBytes);
                int ir = m.register("index:" + s.name(), t.index.regionBytes());
                if (t.region >= 0 && (t.region != r || t.indexRegion != ir)) throw new IllegalStateException("asymmetric registration");
                t.region = r;
                t.indexRegion = ir;
            }
            tables.add(t);
        }
    }

    /**
     * A region every node registers (a table's, or a protocol's): its name, size in bytes, and the settings that
     * shrink it (for the memory estimate's refusal; null: the workload's sizes).
     */
    public record PlannedRegion(String name, long bytes, String shrink) {
        public PlannedRegion(String name, long bytes) { this(name, bytes, null); }
    }

    /** The regions {@link #Store} would register on each node for these tables, without allocating anything. */
    public static List<PlannedRegion> plannedRegions(HeaderLayout header, List<TableSpec> specs, int nodes) {
        List<PlannedRegion> out = new ArrayList<>();
        for (TableSpec s : specs) {
            Table t = new Table(out.size() / 2, s, header, nodes);
            out.add(new PlannedRegion("table:" + s.name(), t.capacityPerNode * t.tupleBytes));
            out.add(new PlannedRegion("index:" + s.name(), t.index.regionBytes()));
        }
        return out;
    }

    public List<Table> tables() { return Collections.unmodifiableList(tables); }
    public Table table(int id) { return tables.get(id); }
    public HeaderLayout header() { return header; }
    public Fabric fabric() { return fabric; }
    public int nodes() { return fabric.nodes(); }

    public Table table(String name) {
        for (Table t : tables) if (t.name.equals(name)) return t;
        throw new IllegalArgumentException("no table " + name);
    }

    public List<String> tableNames() {
        List<String> n = new ArrayList<>();
        for (Table t : tables) n.add(t.name);
        return n;
    }

    /**
     * Loads one row on its owner node. A node another process hosts (tcp) only counts the row's slot, so slots
     * and {@link #forEach} agree on every process while its memory stays untouched (a shadow, see
     * {@link RegisteredMemory#shadow}).
     */
    public void load(Table t, long key, byte[] record) {
        int node = t.nodeOf(key, nodes());
        long off;
        if (loader != null && fabric.hosts(node)) {
            // the slot is taken here, in the workload's order; a writer thread owning the node writes it (ParallelLoad)
            off = t.tupleOffset(t.skipSlot(node));
            loader.write(node, t, off, key, record);
        } else {
            off = fabric.hosts(node) ? t.insertLocal(fabric.memory(node), key, record) : t.tupleOffset(t.skipSlot(node));
        }
        if (loadListener != null) loadListener.loaded(node, t, key, off);
    }

    private ParallelLoad loader;

    /**
     * Loads the rows the workload's {@code load} hands over on {@code threads} threads (1: in the caller's thread) and
     * returns when every row is written. Each node's rows are written by one thread in the order the workload gave them,
     * into the slots taken in that order, so memory, indexes and results are the same for any number of threads
     * (decision 0157).
     */
    public void loadThreads(int threads, Runnable load) {
        if (threads <= 1 || nodes() <= 1) {
            load.run();
            return;
        }
        loader = new ParallelLoad(fabric, Math.min(threads, nodes()));
        boolean done = false;
        try {
            load.run();
            done = true;
        } finally {
            ParallelLoad l = loader;
            loader = null;
            l.finish(done);
        }
    }

    /** Threads a load uses by default: every core ({@code -Drcc.load_threads=N} to choose). */
    public static int defaultLoadThreads() {
        String p = System.getProperty("rcc.load_threads");
        if (p != null) {
            try {
                return Math.max(1, Integer.parseInt(p.trim()));
            } catch (NumberFormatException e) {
                throw new org.rccj.framework.config.ConfigException("-Drcc.load_threads=" + p + ": expected a number of threads");
            }
        }
        return Runtime.getRuntime().availableProcessors();
    }

    /** Told of every row {@link #load} stores, on every process (a tcp process also of the rows other processes hold). */
    @FunctionalInterface
    public interface LoadListener { void loaded(int node, Table t, long key, long tupleOffset); }

    private LoadListener loadListener;

    /** Sets (null: clears) the listener of {@link #load}. */
    public void onLoad(LoadListener l) { loadListener = l; }

    /** Tuple offset of a key on its owner node, or -1. */
    public long locate(Table t, long key) {
        int node = t.nodeOf(key, nodes());
        return t.index.lookupLocal(fabric.memory(node), t.indexRegion, t.id, key);
    }

    /** A record field read directly from memory (after a run: invariants, tests). */
    public long field(Table t, long key, int field) {
        int node = t.nodeOf(key, nodes());
        long off = locate(t, key);
        if (off < 0) throw new IllegalArgumentException("no key " + key + " in " + t.name);
        return t.getField(fabric.memory(node), off, field);
    }

    public void setField(Table t, long key, int field, long v) {
        int node = t.nodeOf(key, nodes());
        long off = locate(t, key);
        if (off < 0) throw new IllegalArgumentException("no key " + key + " in " + t.name);
        t.putField(fabric.memory(node), off, field, v);
    }

    /** Visits every stored tuple of a table: (node, key, tuple offset). */
    public void forEach(Table t, TupleVisitor v) {
        for (int n = 0; n < nodes(); n++) {
            RegisteredMemory m = fabric.memory(n);
            for (long s = 0; s < t.used[n]; s++) v.visit(n, t.keyAt(m, s), t.tupleOffset(s));
        }
    }

    @FunctionalInterface
    public interface TupleVisitor { void visit(int node, long key, long tupleOffset); }
}
