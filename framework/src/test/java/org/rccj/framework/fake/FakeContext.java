package org.rccj.framework.fake;

import java.util.ArrayList;
import java.util.List;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.store.LocationCache;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxEngine;
import org.rccj.primitives.Op;
import org.rccj.primitives.Verb;

/**
 * A coroutine's context over a {@link FakeCluster}: {@link #flush} executes the queued ops at once, in queuing
 * order (one-sided ones on the target node's memory, RPCs by running their handler there), so a stage's ops have
 * completed when it awaits them. It records what was posted, and refuses to await an RPC whose reply never came
 * (that would wait forever).
 */
public final class FakeContext extends CoroutineContext {
    private final FakeCluster cluster;
    private final FakeCluster.FakeWorker worker;
    private final LocationCache cache = new LocationCache(1 << 10);
    private final List<Op> pool = new ArrayList<>(), queued = new ArrayList<>(), awaited = new ArrayList<>();
    private int cursor;
    /** Every op posted, in order (the same Op objects, so a later reuse shows its latest use). */
    public final List<Verb> posted = new ArrayList<>();
    /** Nodes the posted ops went to, in order. */
    public final List<Integer> targets = new ArrayList<>();
    /** Stages ended with {@link #stageEnd}, in order. */
    public final List<Stage> stages = new ArrayList<>();
    public int flushes, awaits;
    /** CPU charged by the coroutine, ns. */
    public long charged;
    /** Whether the fabric carries passive RPCs. */
    public boolean passive;

    public FakeContext(FakeCluster cluster, int node, int worker, int index) {
        super(node, index, 1 + (node * cluster.threads() + worker) * 16 + index, 7, FakeCluster.COST);
        this.cluster = cluster;
        this.worker = cluster.worker(node, worker);
        tx.executor(new TxEngine() {
            @Override public void begin(Tx t) {}
            @Override public void fetch(Tx t, int from, int to) {}
            @Override public void compute(Tx t, long ns) { charged += ns; }
            @Override public void logic(Tx t, long ns) { charged += ns; }
        });
    }

    /** Starts attempt {@code id} (of type 0) of this coroutine's transaction. */
    public Tx begin(long id) {
        tx.begin(id, 0);
        return tx;
    }

    /** Ops taken since the last {@link #release} (0 once a stage released its ops). */
    public int taken() { return cursor; }

    /** How many ops of {@code verb} were posted. */
    public long count(Verb verb) { return posted.stream().filter(v -> v == verb).count(); }

    @Override public FakeCluster.FakeWorker worker() { return worker; }
    @Override public FakeCluster cluster() { return cluster; }
    @Override public LocationCache cache() { return cache; }

    @Override
    public long cachedLocation(Table t, long key) {
        long off = cache.get(t.id, key);
        return off >= 0 && t.validTupleOffset(off) ? off : -1;
    }

    @Override public long endTime() { return Long.MAX_VALUE; }
    @Override public long measureStart() { return 0; }
    @Override public long runStart() { return 0; }
    @Override public long now() { return cluster.clock; }
    @Override public void charge(long ns) { charged += ns; }
    @Override public void compute(long ns) { charged += ns; }
    @Override public void sleep(long ns) { cluster.clock += ns; }
    @Override public int nodes() { return cluster.nodes(); }
    @Override public long tupleOpNs() { return cost.tupleOpNs; }
    @Override public long logicNs(int type) { return 0; }
    @Override public boolean passiveRpc() { return passive; }

    @Override
    public Op op() {
        Op o;
        if (cursor < pool.size()) {
            o = pool.get(cursor);
        } else {
            o = new Op();
            o.owner = this;
            pool.add(o);
        }
        cursor++;
        o.signaled = true;
        return o;
    }

    @Override public void release() { cursor = 0; }
    @Override public void add(Op op) { queued.add(op); }

    @Override
    public void flush() {
        flushes++;
        for (Op op : queued) execute(op);
        queued.clear();
    }

    @Override public void post(Op op) { execute(op); }

    private void execute(Op op) {
        op.posted(node, worker.index);
        posted.add(op.verb);
        targets.add(op.node);
        var m = cluster.memory(op.node);
        switch (op.verb) {
            case READ -> m.read(op.region, op.offset, op.data, 0, op.length);
            case WRITE -> m.write(op.region, op.offset, op.data, 0, op.length);
            case CAS -> op.result = m.casDirect(op.region, op.offset, op.compare, op.value);
            case FAA -> op.result = m.faaDirect(op.region, op.offset, op.value);
            case RPC -> cluster.serve(op, worker.index);
            case TIMER -> throw new IllegalStateException("fake: timers are not posted");
        }
        if (op.verb != Verb.RPC) op.inFlight = false;
        if (op.signaled) awaited.add(op);
    }

    @Override
    public void await() {
        awaits++;
        for (Op op : awaited) {
            if (op.inFlight) throw new IllegalStateException("fake: awaiting an RPC to node " + op.node + " that was never answered");
        }
        awaited.clear();
    }

    @Override public void yieldNow() {}
    @Override public long stageStart() { return cluster.clock; }
    @Override public void stageEnd(Stage s, long start) { stages.add(s); }
}
