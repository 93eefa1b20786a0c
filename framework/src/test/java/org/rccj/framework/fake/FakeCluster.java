package org.rccj.framework.fake;

import java.util.ArrayList;
import java.util.List;
import org.rccj.framework.api.ClusterShape;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CommitLog;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcHandler;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.WorkerHost;

/**
 * A cluster without a runtime, for running the stage kit in a unit test: every node's registered memory in this
 * process, a store over it, the RPC handler registry, and workers whose handlers run at once when a
 * {@link FakeContext} posts an RPC. One clock for everyone, moved only by {@code sleep}; nothing is modelled.
 */
public final class FakeCluster extends ClusterView {
    public static final CostProfile COST = CostProfile.load(CostProfile.DEFAULT);

    /** Just the memories (what {@link Store} and the coordinator log need of a fabric). */
    public record Memories(RegisteredMemory[] memory, int threads) implements Fabric {
        @Override public String name() { return "fake"; }
        @Override public int nodes() { return memory.length; }
        @Override public RegisteredMemory memory(int node) { return memory[node]; }
        @Override public Endpoint endpoint(int node, int worker) { throw new UnsupportedOperationException("fake: no endpoints"); }
        @Override public void run(WorkerHost[][] hosts) { throw new UnsupportedOperationException("fake: no event loop"); }
    }

    /** A worker as its handlers see it: replies are recorded on the call, CPU charges are added up. */
    public static final class FakeWorker extends RpcWorker {
        private final FakeCluster cluster;
        /** CPU the handlers charged, ns. */
        public long charged;
        /** Calls this worker handled, and replies it sent. */
        public int handled, replies;

        FakeWorker(FakeCluster cluster, int node, int index) {
            super(node, index, cluster.fabric.memory(node));
            this.cluster = cluster;
        }

        @Override public void reply(Op call) { replies++; call.inFlight = false; }
        @Override public void charge(long ns) { charged += ns; }
        @Override public long now() { return cluster.clock; }
        @Override public CostProfile profile() { return COST; }
        @Override public boolean hasReady() { return false; }
    }

    public final Memories fabric;
    private final List<RpcHandler> handlers = new ArrayList<>();
    private final FakeWorker[][] workers;
    /** What {@link #log()} hands out (a test sets it). */
    public CommitLog log;
    public long clock;

    private FakeCluster(ClusterShape shape, Memories fabric, Store store) {
        super(shape, store);
        this.fabric = fabric;
        workers = new FakeWorker[fabric.nodes()][shape.threads()];
        for (int n = 0; n < workers.length; n++) for (int t = 0; t < workers[n].length; t++) workers[n][t] = new FakeWorker(this, n, t);
    }

    /** {@code nodes} nodes of {@code threads} workers with the tables of {@code specs} under header {@code header}. */
    public static FakeCluster of(int nodes, int threads, int replication, HeaderLayout header, List<TableSpec> specs) {
        RegisteredMemory[] memory = new RegisteredMemory[nodes];
        for (int n = 0; n < nodes; n++) memory[n] = RegisteredMemory.direct(n);
        Memories fabric = new Memories(memory, threads);
        ClusterShape shape = new ClusterShape(nodes, threads, 1, replication, 0, 1, false);
        return new FakeCluster(shape, fabric, new Store(fabric, header, specs));
    }

    public FakeWorker worker(int node, int index) { return workers[node][index]; }

    /** Runs the handler of RPC {@code call} on worker {@code index} of its target node. */
    void serve(Op call, int index) {
        FakeWorker w = workers[call.node][Math.min(index, workers[call.node].length - 1)];
        w.handled++;
        handlers.get(call.handler).handle(w, call);
    }

    @Override public int nodes() { return fabric.nodes(); }
    @Override public int threads() { return shape.threads(); }
    @Override public RegisteredMemory memory(int node) { return fabric.memory(node); }

    /** Registers {@code h}; its id is its position (the name is not kept). */
    @Override public int register(String name, RpcHandler h) { handlers.add(h); return handlers.size() - 1; }

    @Override public CommitLog log() { return log; }
    @Override public String fabricName() { return fabric.name(); }
    @Override public boolean virtualTime() { return true; }
    @Override public long origin() { return 0; }
    @Override public void nicSend(int from, Op op, long at) { throw new UnsupportedOperationException("fake: no programmable NIC"); }
    @Override public int maxAccessesPerTxn() { return 64; }
    @Override public int maxPickBytes() { return 0; }
    @Override public TxnGenerator replayer(CoroutineContext ctx) { return null; }
}
