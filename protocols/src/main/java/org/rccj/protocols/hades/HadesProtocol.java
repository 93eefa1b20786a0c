package org.rccj.protocols.hades;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.NicAction;
import org.rccj.primitives.SmartNic;
import org.rccj.primitives.Op;
import org.rccj.protocols.occ.SwImplCosts;

/**
 * HADES and HADES-H on the simulated cluster: per node the hardware of {@link HadesNode}, per coroutine a
 * {@link HadesTxn}, and the executors that run the paper's execution and commit steps against them. A node's
 * hardware is touched only by its own node: a transaction reaches another node's only through a message
 * (the NIC actions below, which read the request and nothing of the sender), so every simulation thread
 * count gives the same run (decision 0205).
 */
public class HadesProtocol implements Protocol {
    final HybridCode hybrid;
    final HadesOptions options;
    ClusterView cluster;
    /** The simulated NIC hardware HADES runs on (its filters' probes, its NIC-to-NIC messages). */
    SmartNic nic;
    private HadesNode[] nodes;
    /** Transactions by coroutine global id, filled before the run: the address a squash message is sent to. */
    private HadesTxn[] byGlobalId = new HadesTxn[64];
    TupleFetch.Rpc locate;
    HadesRpc rpc;
    final List<SwImplCosts> software = new ArrayList<>();

    public HadesProtocol(HybridCode hybrid, HadesOptions options) {
        this.hybrid = hybrid;
        this.options = options;
    }

    @Override public HeaderLayout header() { return HadesTuple.LAYOUT; }

    @Override
    public void attach(ClusterView c) {
        cluster = c;
        HadesFactory.refuseUnlessSimulated(c.fabricName());
        nic = c.capability(SmartNic.class).orElseThrow(() -> new IllegalStateException("HADES: fabric " + c.fabricName() + " has no simulated NIC hardware"));
        nodes = new HadesNode[c.nodes()];
        for (int n = 0; n < nodes.length; n++) nodes[n] = new HadesNode(this, n);
        locate = new TupleFetch.Rpc(c);
        rpc = new HadesRpc(this, c);
    }

    int nodes() { return nodes.length; }
    HadesNode node(int n) { return nodes[n]; }
    HadesTxn transaction(int globalId) { return byGlobalId[globalId]; }

    @Override
    public TxnExecutor executor(CoroutineContext ctx) {
        HadesTxn t = new HadesTxn(this, ctx);
        if (ctx.globalId >= byGlobalId.length) byGlobalId = java.util.Arrays.copyOf(byGlobalId, Math.max(ctx.globalId + 1, byGlobalId.length * 2));
        byGlobalId[ctx.globalId] = t;
        nodes[ctx.node].locals.add(t);
        SwImplCosts sw = new SwImplCosts(options.raw());
        software.add(sw);
        return new HadesExecutor(ctx, this, t, sw);
    }

    /** Payload of a squash message: the victim coroutine's global id and its attempt. */
    static final int SQUASH_BYTES = 16;

    /** A squash message reaches the victim's home NIC: attempt {@code op.value} of {@code op.owner} is squashed from now on. */
    private final NicAction squashArrives = (op, m, now) -> {
        if (!((HadesTxn) op.owner).squash(op.value, now)) nodes[op.node].stats.squashesStale++;
        return false;
    };

    /** The NIC of node {@code from} sends a squash of {@code victim}'s attempt {@code txnId} at {@code at} (a NIC-to-NIC message). */
    void sendSquash(int from, HadesTxn victim, long txnId, long at) {
        Op op = message(victim.node, victim.ctx.globalId, txnId, squashArrives);
        op.owner = victim;
        op.value = txnId;
        nodes[from].stats.squashMessages++;
        nic.send(from, op, at);
    }

    /** A release message reaches a node the squashed attempt touched: its NIC entry there is unlocked and cleared. */
    private final NicAction releaseArrives = (op, m, now) -> {
        nodes[op.node].release(Bytes.getLong(op.data, 8));
        return false;
    };

    /**
     * The NIC of node {@code from} tells node {@code y} at {@code at} that attempt {@code txnId} (of coroutine
     * {@code gid}) was squashed ("notify the involved nodes"): y drops its entry when the message arrives.
     */
    void sendRelease(int from, int y, int gid, long txnId, long at) {
        nodes[from].stats.releaseMessages++;
        nic.send(from, message(y, gid, txnId, releaseArrives), at);
    }

    /** A NIC-to-NIC message to node {@code y} naming attempt {@code txnId} of coroutine {@code gid}, acted on by {@code action}. */
    private Op message(int y, int gid, long txnId, NicAction action) {
        Op op = nic.atNic(nic.newOp().write(y, 0, 0, SQUASH_BYTES), action);
        Bytes.putLong(op.data, 0, gid);
        Bytes.putLong(op.data, 8, txnId);
        return op;
    }

    /**
     * A remote READ at the target NIC: the request names the attempt ({@code op.compare}) and the access
     * ({@code op.value}, {@link HadesRpc#readMeta}); the NIC records its lines, then (unless stalled) transfers them.
     */
    final NicAction readAtNic = (op, m, now) -> {
        HadesNode y = nodes[op.node];
        long meta = op.value;
        RemoteEntry e = y.entry(op.compare, HadesRpc.gidOf(meta));
        if ((meta & HadesRpc.F_FALLBACK) != 0) e.fallback = true;
        Table tb = cluster.store.table(HadesRpc.tableOf(meta));
        boolean served = y.admitRemoteRead(e, tb, op.offset, (meta & HadesRpc.F_READ) != 0, (meta & HadesRpc.F_WRITE) != 0);
        op.result = served ? HadesRpc.SERVED : HadesRpc.STALLED;
        return served;
    };

    /** Intend-to-commit at the target NIC: Ack or not in op.result. */
    final NicAction intendAtNic = (op, m, now) -> {
        op.result = nodes[op.node].intend(op.data, now) ? 1 : 0;
        return false;
    };

    /** A livelock fallback's lock request at the target NIC: held or not in op.result. */
    final NicAction lockAtNic = (op, m, now) -> {
        op.result = nodes[op.node].lockRequest(op.data) ? 1 : 0;
        return false;
    };

    /** Validation of attempt {@code op.compare} at the target NIC: the data reaches memory, the entry is released. */
    final NicAction validationAtNic = (op, m, now) -> {
        nodes[op.node].validate(op.compare, op.data, 0, op.length, m);
        return false;
    };

    /** Commit step 2 probes the NIC's remote filters; a test-only variant skips it to show the checker notices. */
    protected boolean probeRemoteFiltersAtCommit() { return true; }

    @Override
    public Map<String, Double> metrics() {
        List<HadesStats> each = new ArrayList<>();
        for (HadesNode n : nodes) each.add(n.stats);
        Map<String, Double> m = HadesStats.sum(each).metrics();
        if (options.hybrid()) SwImplCosts.sum(software, "hades_h.sw.", m);
        return m;
    }
}
