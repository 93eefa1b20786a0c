package org.rccj.protocols.calvin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.HeaderLayout;

/**
 * CALVIN (deterministic ordering and locking, Thomson et al. SIGMOD'12, as in RCC and its artifact): per node a
 * sequencer batches its coordinators' inputs (accesses and the generator's saved pick) per epoch, replicates them to
 * the backups (asynchronously, by RPC) and broadcasts them (DISPATCH), then passes the epoch barrier with the other
 * sequencers (EPOCH_SYNC); per node a scheduler takes the locks in the global order; participant loops read the
 * granted tuples and forward the values (FORWARD) to the active participants (the nodes holding write-set records),
 * which run the logic, install their own writes, and one of which reports to the coordinator.
 * Service coroutines: per node a sequencer and a scheduler (on two different workers, and on different worker
 * indexes from node to node); per worker a participant loop, which forwards the transaction parts of coordinators
 * on its worker index.
 */
public final class CalvinProtocol implements Protocol {
    private static final Runnable IDLE = () -> {};

    final HybridCode hybrid;
    final long epochNs;
    /** Largest batch per epoch and sequencer (0 until attach when sized automatically). */
    int batchBytes;
    final int forwardBytes;
    /** Default sleep between polls on fabrics with real threads (on sim, polls only yield: a pure spin). */
    static final long REAL_THREADS_POLL_NS = 20_000;
    private final Double pollUs;
    long pollNs;
    ClusterView cluster;
    Dispatch dispatch;
    InputLog inputLog;
    Forward forward;
    EpochSync epochSync;
    TupleFetch.Rpc fetchRpc;
    /** The workload's bound on a saved pick. */
    int maxPickBytes;
    private EpochProgress[] progress;
    private SubmitBuffer[] submit;
    private Sequencer[] sequencers;
    private Scheduler[] schedulers;
    private ParticipantQueue[][] participantQueues;
    private Participant[][] participants;
    private long drainLimitNs;

    CalvinProtocol(HybridCode hybrid, double epochUs, int batchBytes, int forwardBytes, Double pollUs) {
        this.hybrid = hybrid;
        this.pollUs = pollUs;
        this.epochNs = Math.max(1, Math.round(epochUs * 1000));
        this.batchBytes = batchBytes;
        this.forwardBytes = forwardBytes;
    }

    @Override public HeaderLayout header() { return CalvinTuple.LAYOUT; }

    /**
     * The bytes of a node's batch: {@code protocol_options.batch_bytes}, or (0) room for a request of every
     * coordinator coroutine of a node; refused when it cannot hold one request of the workload.
     */
    private int batchBytes(org.rccj.framework.api.ClusterShape shape, int maxAccessesPerTxn, int maxPickBytes) {
        int largestRequest = CalvinRequest.bytes(maxAccessesPerTxn, maxPickBytes);
        int b = batchBytes == 0 ? shape.threads() * shape.coroutines() * largestRequest : batchBytes;
        if (b < largestRequest) {
            throw new org.rccj.framework.config.ConfigException(org.rccj.framework.config.Settings.optionKey(CalvinSettings.BATCH) + ": " + b
                    + " bytes cannot hold one request of this workload (" + largestRequest + " bytes); use 0 (automatic) or more");
        }
        return b;
    }

    /** The batch slots, their input-log copies, the forward slots and the epoch words, every node (what attach registers). */
    @Override
    public List<org.rccj.framework.store.Store.PlannedRegion> plannedRegions(RegionPlan plan) {
        var shape = plan.shape();
        int slot = Dispatch.slotBytes(batchBytes(shape, plan.maxAccessesPerTxn(), plan.maxPickBytes()));
        int[] records = plan.tables().stream().mapToInt(org.rccj.framework.store.TableSpec::recordBytes).toArray();
        int forwardSlot = Forward.slotBytes(forwardBytes, plan.maxAccessesPerTxn(), records);
        String batchKeys = "lower " + org.rccj.framework.config.Settings.optionKey(CalvinSettings.BATCH) + " (" + batchBytes + "; 0 = room for a request per coroutine)";
        return List.of(new org.rccj.framework.store.Store.PlannedRegion(Dispatch.REGION, Dispatch.regionBytes(shape.nodes(), slot), batchKeys),
                new org.rccj.framework.store.Store.PlannedRegion(InputLog.REGION, InputLog.regionBytes(shape.nodes(), shape.replication(), slot), batchKeys),
                new org.rccj.framework.store.Store.PlannedRegion(Forward.REGION, Forward.regionBytes(shape, plan.maxAccessesPerTxn(), forwardSlot),
                        "lower " + org.rccj.framework.config.Settings.optionKey(CalvinSettings.FORWARD) + " (" + forwardBytes + "; 0 = the largest transaction) or coroutines"),
                new org.rccj.framework.store.Store.PlannedRegion(EpochSync.REGION, EpochSync.regionBytes(shape.nodes())));
    }

    @Override
    public void attach(ClusterView cluster) {
        this.cluster = cluster;
        boolean virtual = cluster.virtualTime();
        pollNs = pollUs != null ? Math.round(pollUs * 1000) : virtual ? 0 : REAL_THREADS_POLL_NS;
        // a safety net against a lost wake-up: nothing may still wait this long after the end (virtual or wall time)
        drainLimitNs = virtual ? 20_000_000L : 10_000_000_000L;
        int nodes = cluster.nodes(), threads = cluster.threads();
        // every coordinator coroutine has at most one request in flight, so a node's batch never holds more
        maxPickBytes = cluster.maxPickBytes();
        batchBytes = batchBytes(cluster.shape, cluster.maxAccessesPerTxn(), maxPickBytes);
        dispatch = new Dispatch(cluster, batchBytes);
        inputLog = new InputLog(cluster, dispatch.slotBytes);
        forward = new Forward(cluster, forwardBytes);
        epochSync = new EpochSync(cluster);
        fetchRpc = new TupleFetch.Rpc(cluster);
        submit = new SubmitBuffer[nodes];
        sequencers = new Sequencer[nodes];
        schedulers = new Scheduler[nodes];
        participants = new Participant[nodes][threads];
        participantQueues = new ParticipantQueue[nodes][threads];
        progress = new EpochProgress[nodes];
        for (int n = 0; n < nodes; n++) {
            submit[n] = new SubmitBuffer();
            progress[n] = new EpochProgress();
            for (int w = 0; w < threads; w++) participantQueues[n][w] = new ParticipantQueue();
        }
    }

    SubmitBuffer submitBuffer(int node) { return submit[node]; }

    /** How far {@code node} got with the epochs (its sequencer's barrier waits for it). */
    EpochProgress progress(int node) { return progress[node]; }

    /** Per worker of {@code node}: the hand-off from the node's scheduler to that worker's participant loop. */
    ParticipantQueue[] participantQueues(int node) { return participantQueues[node]; }

    /** True once {@code ctx}'s clock is so far past the run's end that a wait can only be a bug. */
    boolean drainOverdue(CoroutineContext ctx) { return ctx.now() - ctx.endTime() > drainLimitNs; }

    @Override
    public TxnExecutor executor(CoroutineContext ctx) { return new CalvinExecutor(ctx, this); }

    @Override public int serviceCoroutines() { return 3; }

    /**
     * The worker of {@code node} that runs its sequencer: a different worker index on each node, because a
     * sequencer's LOG and DISPATCH RPCs are served by the worker of the same index on the other nodes.
     */
    int sequencerWorker(int node) { return node % cluster.threads(); }

    /** The worker of {@code node} that runs its scheduler: the one before the sequencer's (the same if only one). */
    int schedulerWorker(int node) { return (sequencerWorker(node) + cluster.threads() - 1) % cluster.threads(); }

    /** Slot 0: the node's sequencer; slot 1: its scheduler; slot 2: every worker's participant loop. */
    @Override
    public List<Runnable> services(CoroutineContext ctx) {
        int slot = ctx.index - cluster.shape.coroutines();
        int worker = ctx.worker().index;
        Runnable body = IDLE;
        if (slot == 0 && worker == sequencerWorker(ctx.node)) body = sequencers[ctx.node] = new Sequencer(ctx, this);
        if (slot == 1 && worker == schedulerWorker(ctx.node)) body = schedulers[ctx.node] = new Scheduler(ctx, this);
        if (slot == 2) body = participants[ctx.node][worker] = new Participant(ctx, this);
        Runnable[] bodies = {IDLE, IDLE, IDLE};
        bodies[slot] = body;
        return List.of(bodies);
    }

    /** Figures over the whole run (warm-up and drain included). */
    @Override
    public Map<String, Double> metrics() {
        long epochs = 0, txns = 0, nonEmpty = 0, parts = 0, lockWaits = 0, executed = 0, syncNs = 0;
        int nodes = 0;
        for (int n = 0; n < sequencers.length; n++) {
            if (sequencers[n] == null || schedulers[n] == null) continue;
            nodes++;
            epochs += sequencers[n].epochs;
            txns += sequencers[n].txns;
            nonEmpty += sequencers[n].nonEmpty;
            syncNs += sequencers[n].syncNs;
            for (Participant pt : participants[n]) {
                if (pt == null) continue;
                parts += pt.parts;
                lockWaits += pt.lockWaits;
                executed += pt.executed;
            }
        }
        Map<String, Double> m = new LinkedHashMap<>();
        if (nodes == 0) return m;
        m.put("calvin_epochs_per_node", epochs / (double) nodes);
        m.put("calvin_txns_per_batch", epochs == 0 ? 0 : txns / (double) epochs);
        m.put("calvin_nonempty_batch_share", epochs == 0 ? 0 : nonEmpty / (double) epochs);
        m.put("calvin_lock_wait_share", parts == 0 ? 0 : lockWaits / (double) parts);
        m.put("calvin_executions_per_txn", txns == 0 ? 0 : executed / (double) txns);
        m.put("calvin_epoch_sync_us_per_epoch", epochs == 0 ? 0 : syncNs / 1e3 / epochs);
        return m;
    }
}
