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
import org.rccj.primitives.Bytes;
import org.rccj.primitives.NicAction;
import org.rccj.primitives.SmartNic;
import org.rccj.primitives.Op;
import org.rccj.protocols.occ.SwImplCosts;

/**
 * HADES and HADES-H on the simulated cluster: per node the hardware of {@link HadesNode}, per coroutine a
 * {@link HadesTxn}, and the executors that run the paper's execution and commit steps against them.
 */
public class HadesProtocol implements Protocol {
    final HybridCode hybrid;
    final HadesOptions options;
    final HadesStats stats = new HadesStats();
    ClusterView cluster;
    /** The simulated NIC hardware HADES runs on (its filters' probes, its NIC-to-NIC messages). */
    SmartNic nic;
    long oneWayNs;
    private HadesNode[] nodes;
    /** Transactions by coroutine global id (RPC halves find the caller's filters through it). */
    HadesTxn[] byGlobalId = new HadesTxn[64];
    TupleFetch.Rpc locate;
    HadesRpc rpc;
    final List<SwImplCosts> software = new ArrayList<>();
    /** Every NIC entry ever made (they are recycled), by id. */
    final List<RemoteEntry> entries = new ArrayList<>();

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

    @Override
    public TxnExecutor executor(CoroutineContext ctx) {
        if (oneWayNs == 0) oneWayNs = ctx.cost.oneWayNs;
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
        if (!((HadesTxn) op.owner).squash(op.value, now)) stats.squashesStale++;
        return false;
    };

    /** The NIC of node {@code from} sends a squash of {@code victim}'s attempt {@code txnId} at {@code at} (a NIC-to-NIC message). */
    void sendSquash(int from, HadesTxn victim, long txnId, long at) {
        Op op = nic.atNic(nic.newOp().write(victim.node, 0, 0, SQUASH_BYTES), squashArrives);
        Bytes.putLong(op.data, 0, victim.ctx.globalId);
        Bytes.putLong(op.data, 8, txnId);
        op.owner = victim;
        op.value = txnId;
        stats.squashMessages++;
        nic.send(from, op, at);
    }

    /** Commit step 2 probes the NIC's remote filters; a test-only variant skips it to show the checker notices. */
    protected boolean probeRemoteFiltersAtCommit() { return true; }

    /** Decision 0146: the simulated hardware is shared across nodes at run time. */
    @Override
    public String sequentialSimReason() {
        return "HADES's simulated hardware (every node's filters, probed by other nodes' transactions at once, and shared "
                + "statistics) is read and written across nodes without a wire delay";
    }

    @Override
    public Map<String, Double> metrics() {
        Map<String, Double> m = stats.metrics();
        if (options.hybrid()) SwImplCosts.sum(software, "hades_h.sw.", m);
        return m;
    }
}
