package org.rccj.protocols.calvin;

import java.util.Arrays;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * One coordinator coroutine of CALVIN: it submits its transactions and learns their outcome; the active
 * participants run the logic and install the writes.
 * <ol>
 *   <li>{@link #fetch} (the workload declared its accesses): submit the input (accesses and the generator's saved
 *       pick) to the node's sequencer and wait for the reporting active participant's forward: every value the
 *       transaction read and whether the active participants installed it. A read-only transaction has no active
 *       participant: then every participant forwards its values here and this coroutine is the only one to run
 *       the logic.</li>
 *   <li>The workload's logic runs here too, on the same values, so the coordinator ends where the active
 *       participants did (a logic rollback here is one there) and keeps the history, {@code committed} and the
 *       latency. Nothing is written from here.</li>
 *   <li>{@link #commit}: nothing to do but record the stages. No validation: nothing can conflict, so CALVIN
 *       never aborts for concurrency.</li>
 * </ol>
 * A transaction type that fetches in several rounds (keys that depend on values read) is learned the first time
 * (that attempt aborts with {@code ollp_learn}); from then on its attempts run OLLP: every round is a
 * reconnaissance read without locks, the whole access set is submitted at commit with a digest of every record the
 * logic used, and the active participants and this coroutine alike commit only if the locked records have the
 * same digests ({@code ollp_changed} otherwise: nothing installed, retried).
 */
final class CalvinExecutor extends TxnExecutor {
    static final AbortException CLOSED = AbortException.conflict("closed");
    static final AbortException OLLP_LEARN = AbortException.conflict("ollp_learn");
    static final AbortException OLLP_CHANGED = AbortException.conflict("ollp_changed");
    static final AbortException NOT_FOUND = new AbortException("not_found", true);

    private final CalvinProtocol p;
    private final int coordSlot;
    private final RegisteredMemory mem;
    private final TupleFetch recon;
    private final boolean reconOneSided;
    private final Poller poller;
    private final boolean[] participant, active, expected;
    private final int[] rank;
    private boolean[] multiRound = new boolean[8];
    private byte[] scratch = new byte[64];
    private boolean submitted, reconnaissance, absent, changed;
    private int reporter;
    private long outcome;
    private long submitAt, sealedAt, syncFrom, syncTo, grantedAt, valuesAt;

    CalvinExecutor(CoroutineContext ctx, CalvinProtocol p) {
        super(ctx);
        this.p = p;
        this.reconOneSided = p.hybrid.oneSided(Stage.FORWARD);
        this.coordSlot = p.forward.coordSlot(ctx.worker().index, ctx.index);
        this.mem = ctx.cluster().memory(ctx.node);
        this.recon = new TupleFetch(ctx, p.fetchRpc);
        this.poller = new Poller(ctx, p.pollNs);
        int nodes = ctx.cluster().nodes();
        this.participant = new boolean[nodes];
        this.active = new boolean[nodes];
        this.expected = new boolean[nodes];
        this.rank = new int[nodes];
    }

    private boolean isMultiRound(int type) { return type < multiRound.length && multiRound[type]; }

    @Override
    public void begin(Tx tx) {
        submitted = false;
        reconnaissance = isMultiRound(tx.type);
    }

    @Override
    public void fetch(Tx tx, int from, int to) {
        if (reconnaissance) {
            reconRead(tx, from, to);
            return;
        }
        if (submitted) {
            // a second round: its keys were not in the input. Learn the type, retry with OLLP.
            if (tx.type >= multiRound.length) multiRound = Arrays.copyOf(multiRound, Math.max(tx.type + 1, multiRound.length * 2));
            multiRound[tx.type] = true;
            throw OLLP_LEARN;
        }
        submitAndAwait(tx, false);
    }

    @Override
    public void commit(Tx tx) {
        if (reconnaissance && tx.size() > 0) submitAndAwait(tx, true);
        if (!submitted) return;     // nothing accessed: nothing to order
        if (reporter >= 0 && outcome != Forward.INSTALLED) throw diverged(tx, "it commits here and was not installed there");
        long now = ctx.now();
        long sync = Math.max(0, Math.min(sealedAt, syncTo) - Math.max(submitAt, syncFrom));
        long dispatch = Math.max(0, grantedAt - submitAt - sync);
        long forward = Math.max(0, valuesAt - Math.max(grantedAt, submitAt));
        ctx.stageEnd(Stage.EPOCH_SYNC, now - sync);
        ctx.stageEnd(Stage.DISPATCH, now - dispatch);
        ctx.stageEnd(Stage.FORWARD, now - forward);
    }

    @Override
    public void abort(Tx tx) {
        // nothing is held here; the active participants reached the same end on their own
        if (submitted && reporter >= 0 && outcome == Forward.INSTALLED) throw diverged(tx, "it aborts here and was installed there");
    }

    /** The active participants pay for the logic; this coroutine runs it only for its own books, unless read-only. */
    @Override
    protected boolean paysForLogic(Tx tx) { return !submitted || reporter < 0; }

    private IllegalStateException diverged(Tx tx, String what) {
        return new IllegalStateException("CALVIN transaction " + tx.id + " (type " + tx.type + ") diverged from its active participants' replay: "
                + what + " (the workload's logic is not a deterministic function of its saved pick and the values read)");
    }

    /**
     * Submits every access of {@code tx} and waits for the values (the reporter's forward, or every participant's
     * for a read-only transaction). With {@code validate} (OLLP) the values read before are kept and compared
     * with the locked ones instead of replaced.
     */
    private void submitAndAwait(Tx tx, boolean validate) {
        submitted = true;
        Arrays.fill(participant, false);
        Arrays.fill(active, false);
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            participant[a.node] = true;
            if (a.write) active[a.node] = true;
        }
        reporter = TxnState.reporter(active, ctx.node);
        TxnState.ranks(participant, rank);
        int remaining = 0;
        for (int n = 0; n < participant.length; n++) {
            expected[n] = reporter >= 0 ? n == reporter : participant[n];
            if (expected[n]) remaining++;
        }
        submitAt = ctx.now();
        ctx.charge(Batch.copyNs(ctx.cost.localOpNs, CalvinRequest.bytes(tx.size(), p.maxPickBytes)));
        if (!p.submitBuffer(ctx.node).submit(tx, coordSlot, validate, p.maxPickBytes)) {
            // the node's sequencer closed: the run is over (wait for its end so the refusal is not counted)
            submitted = false;
            long end = ctx.endTime();
            if (ctx.now() < end) ctx.sleep(end - ctx.now());
            throw CLOSED;
        }
        absent = false;
        changed = false;
        outcome = Forward.VALUES;
        grantedAt = 0;
        poller.reset();
        while (true) {
            for (int n = 0; n < expected.length; n++) {
                if (!expected[n]) continue;
                long slot = p.forward.slot(ctx.node, coordSlot, rank[n]);
                if (mem.getLongVolatile(p.forward.region, slot + Forward.NOTIFY) != tx.id) continue;
                accept(tx, slot + Forward.IMAGE, validate);
                expected[n] = false;
                remaining--;
                poller.reset();
            }
            if (remaining == 0) break;
            if (p.drainOverdue(ctx)) {
                throw new IllegalStateException("CALVIN coordinator " + ctx.node + "/" + ctx.worker().index + "/" + ctx.index
                        + " still waits for the values of transaction " + tx.id + " long after the run ended");
            }
            poller.idle();
        }
        valuesAt = ctx.now();
        if (absent) throw NOT_FOUND;
        if (changed) throw OLLP_CHANGED;
    }

    /** Takes one forwarded image (same bytes whichever transport brought it). */
    private void accept(Tx tx, long image, boolean validate) {
        int region = p.forward.region;
        int count = (int) mem.getLong(region, image + Forward.COUNT);
        sealedAt = mem.getLong(region, image + Forward.SEALED_AT);
        syncFrom = mem.getLong(region, image + Forward.SYNC_FROM);
        syncTo = mem.getLong(region, image + Forward.SYNC_TO);
        grantedAt = Math.max(grantedAt, mem.getLong(region, image + Forward.GRANTED_AT));
        long o = mem.getLong(region, image + Forward.OUTCOME);
        if (o != Forward.VALUES) outcome = o;
        long at = image + Forward.ITEMS;
        int bytes = Forward.ITEMS;
        for (int k = 0; k < count; k++) {
            Access a = tx.access((int) mem.getLong(region, at + Forward.ITEM_ACCESS));
            long version = mem.getLong(region, at + Forward.ITEM_VERSION);
            int rb = a.table.recordBytes;
            if (version == TxnState.ABSENT) {
                a.absent = true;
                absent = true;
            } else if (!validate) {
                a.version = a.prevVersion = version;
                mem.read(region, at + Forward.ITEM_RECORD, a.record, 0, rb);
                a.fetchedRecord();
            } else {
                // OLLP: the logic already ran on the reconnaissance values; it stands if the locked records match
                a.version = a.prevVersion = version;
                if (a.needsValue) {
                    if (scratch.length < rb) scratch = new byte[rb];
                    mem.read(region, at + Forward.ITEM_RECORD, scratch, 0, rb);
                    if (CalvinRequest.digest(scratch, rb) != CalvinRequest.digest(a.record, rb)) changed = true;
                }
            }
            at += Forward.itemBytes(a.table);
            bytes += Forward.itemBytes(a.table);
        }
        ctx.charge(Batch.copyNs(ctx.cost.localOpNs, bytes));
    }

    /** OLLP reconnaissance: reads without locks (checked against the locked records when sequenced). */
    private void reconRead(Tx tx, int from, int to) {
        recon.fetch(tx, from, to, reconOneSided, true);
        for (int i = from; i < to; i++) {
            Access a = tx.access(i);
            if (!a.needsValue) continue;
            if (a.absent) throw NOT_FOUND;
            a.version = a.prevVersion = Bytes.getLong(a.image, CalvinTuple.VERSION);
            a.table.recordOf(a.image, a.record);
            a.fetchedRecord();
        }
    }
}
