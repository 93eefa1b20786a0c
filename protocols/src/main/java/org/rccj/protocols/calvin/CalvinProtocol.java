package org.rccj.protocols.calvin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.txn.TxnExecutor;

/**
 * CALVIN (deterministic ordering and locking, Thomson et al. SIGMOD'12, as in RCC): per node a sequencer
 * batches its coordinators' inputs per epoch, logs (LOG) and broadcasts (DISPATCH) them; per node a scheduler
 * takes the locks in the global order, and participant loops forward the values (FORWARD) to the executor once
 * granted; coordinators execute and write back.
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
    Cluster cluster;
    Dispatch dispatch;
    InputLog inputLog;
    Forward forward;
    WriteBack.Rpc writeBackRpc;
    TupleFetch.Rpc fetchRpc;
    private SubmitBuffer[] submit;
    private Sequencer[] sequencers;
    private Scheduler[] schedulers;
    private ParticipantQueue[][] participantQueues;
    private Participant[][] participants;
    private long drainLimitNs;
    /** OLLP commits only if the reconnaissance values equal the locked ones (false only in a test showing why). */
    boolean checkReconnaissance = true;

    CalvinProtocol(HybridCode hybrid, double epochUs, int batchBytes, int forwardBytes, Double pollUs) {
        this.hybrid = hybrid;
        this.pollUs = pollUs;
        this.epochNs = Math.max(1, Math.round(epochUs * 1000));
        this.batchBytes = batchBytes;
        this.forwardBytes = forwardBytes;
    }

    @Override public HeaderLayout header() { return CalvinTuple.LAYOUT; }

    @Override
    public void attach(Cluster cluster) {
        this.cluster = cluster;
        boolean sim = cluster.fabric.name().equals("sim");
        pollNs = pollUs != null ? Math.round(pollUs * 1000) : sim ? 0 : REAL_THREADS_POLL_NS;
        // a safety net against a lost wake-up: nothing may still wait this long after the end (virtual or wall time)
        drainLimitNs = sim ? 20_000_000L : 10_000_000_000L;
        int nodes = cluster.nodes(), threads = cluster.threads();
        // every coordinator coroutine has at most one request in flight, so a node's batch never holds more
        int largestRequest = CalvinRequest.bytes(cluster.workload.maxAccessesPerTxn());
        if (batchBytes == 0) batchBytes = threads * cluster.shape.coroutines() * largestRequest;
        if (batchBytes < largestRequest) {
            throw new org.rccj.framework.config.ConfigException("protocol_options.batch_bytes: " + batchBytes
                    + " bytes cannot hold one request of this workload (" + largestRequest + " bytes); use 0 (automatic) or more");
        }
        dispatch = new Dispatch(cluster, batchBytes, epochNs, pollNs);
        inputLog = new InputLog(cluster, dispatch.slotBytes);
        forward = new Forward(cluster, forwardBytes);
        writeBackRpc = new WriteBack.Rpc(cluster);
        fetchRpc = new TupleFetch.Rpc(cluster);
        submit = new SubmitBuffer[nodes];
        sequencers = new Sequencer[nodes];
        schedulers = new Scheduler[nodes];
        participants = new Participant[nodes][threads];
        participantQueues = new ParticipantQueue[nodes][threads];
        for (int n = 0; n < nodes; n++) {
            submit[n] = new SubmitBuffer();
            for (int w = 0; w < threads; w++) participantQueues[n][w] = new ParticipantQueue();
        }
    }

    SubmitBuffer submitBuffer(int node) { return submit[node]; }

    /** Per worker of {@code node}: the hand-off from the node's scheduler to that worker's participant loop. */
    ParticipantQueue[] participantQueues(int node) { return participantQueues[node]; }

    /** When the run started on {@code ctx}'s clock (the same instant for every worker: epochs are counted from it). */
    long runStart(CoroutineContext ctx) { return ctx.measureStart() - Math.round(cluster.shape.warmupMs() * 1e6); }

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
        int worker = ctx.worker.index;
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
        long epochs = 0, txns = 0, nonEmpty = 0, waits = 0, parts = 0, lockWaits = 0;
        int nodes = 0;
        for (int n = 0; n < sequencers.length; n++) {
            if (sequencers[n] == null || schedulers[n] == null) continue;
            nodes++;
            epochs += sequencers[n].epochs;
            txns += sequencers[n].txns;
            nonEmpty += sequencers[n].nonEmpty;
            waits += sequencers[n].flowControlWaits();
            for (Participant pt : participants[n]) {
                if (pt == null) continue;
                parts += pt.parts;
                lockWaits += pt.lockWaits;
            }
        }
        Map<String, Double> m = new LinkedHashMap<>();
        if (nodes == 0) return m;
        m.put("calvin_epochs_per_node", epochs / (double) nodes);
        m.put("calvin_txns_per_batch", epochs == 0 ? 0 : txns / (double) epochs);
        m.put("calvin_nonempty_batch_share", epochs == 0 ? 0 : nonEmpty / (double) epochs);
        m.put("calvin_lock_wait_share", parts == 0 ? 0 : lockWaits / (double) parts);
        m.put("calvin_flow_control_waits", (double) waits);
        return m;
    }
}
