package org.rccj.protocols.calvin;

import java.util.Arrays;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.Stage;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnExecutor;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * One coordinator coroutine of CALVIN. It is also its transaction's executor: the workload's logic runs here,
 * on values the participants forward once the transaction holds its deterministic locks.
 * <ol>
 *   <li>{@link #fetch} (the workload declared its accesses): submit the input to the node's sequencer and wait
 *       until every participant node forwarded its tuples (their locks are then held in the global order).</li>
 *   <li>The workload computes its writes on those values (a logic rollback releases the write locks).</li>
 *   <li>{@link #commit}: write back the new records and pass the write locks on. No validation: nothing can
 *       conflict, so CALVIN never aborts for concurrency.</li>
 * </ol>
 * A transaction type that fetches in several rounds (keys that depend on values read) is learned the first
 * time (that attempt releases and aborts with {@code ollp_learn}); from then on its attempts run OLLP: every
 * round is a reconnaissance read without locks, the whole access set is submitted at commit, and the
 * transaction commits only if every value it computed with equals the value it holds locked ({@code ollp_changed}
 * otherwise: release and retry).
 */
final class CalvinExecutor extends TxnExecutor {
    static final AbortException CLOSED = AbortException.conflict("closed");
    static final AbortException OLLP_LEARN = AbortException.conflict("ollp_learn");
    static final AbortException OLLP_CHANGED = AbortException.conflict("ollp_changed");
    static final AbortException NOT_FOUND = new AbortException("not_found", true);

    private final CalvinProtocol p;
    private final boolean forwardOneSided;
    private final int coordSlot;
    private final RegisteredMemory mem;
    private final WriteBack writeBack;
    private final TupleFetch recon;
    private final Poller poller;
    private final boolean[] participant;
    private final int[] participants;
    private int participantCount;
    private boolean[] multiRound = new boolean[8];
    private byte[] scratch = new byte[64];
    private boolean submitted, reconnaissance, absent, changed;
    private long submitAt, sealedAt, loggedAt, postedAt, valuesAt;

    CalvinExecutor(CoroutineContext ctx, CalvinProtocol p) {
        super(ctx);
        this.p = p;
        this.forwardOneSided = p.hybrid.oneSided(Stage.FORWARD);
        this.coordSlot = p.forward.coordSlot(ctx.worker.index, ctx.index);
        this.mem = ctx.cluster.memory(ctx.node);
        this.writeBack = new WriteBack(ctx, p.writeBackRpc);
        this.recon = new TupleFetch(ctx, p.fetchRpc);
        this.poller = new Poller(ctx, p.pollNs);
        this.participant = new boolean[ctx.cluster.nodes()];
        this.participants = new int[ctx.cluster.nodes()];
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
            // a second round: its keys were not in the input, so they are not locked. Learn the type, retry with OLLP.
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
        long t = ctx.now();
        if (!tx.readOnly()) writeBack.finish(tx, forwardOneSided, true);
        long now = ctx.now();
        long log = Math.max(0, loggedAt - sealedAt);
        long dispatch = Math.max(0, postedAt - submitAt - log);
        long forward = Math.max(0, valuesAt - postedAt) + (now - t);
        ctx.stageEnd(Stage.LOG, now - log);
        ctx.stageEnd(Stage.DISPATCH, now - dispatch);
        ctx.stageEnd(Stage.FORWARD, now - forward);
    }

    @Override
    public void abort(Tx tx) {
        for (int i = 0; i < tx.size(); i++) {
            if (tx.access(i).locked) {
                writeBack.finish(tx, forwardOneSided, false);
                return;
            }
        }
    }

    /**
     * Submits every access of {@code tx} and waits for the participants' values. With {@code validate} (OLLP)
     * the values read before are kept and compared with the locked ones instead of replaced.
     */
    private void submitAndAwait(Tx tx, boolean validate) {
        submitted = true;
        participantCount = 0;
        Arrays.fill(participant, false);
        for (int i = 0; i < tx.size(); i++) {
            int n = tx.access(i).node;
            if (!participant[n]) {
                participant[n] = true;
                participants[participantCount++] = n;
            }
        }
        submitAt = ctx.now();
        ctx.charge(Batch.copyNs(ctx.cost.localOpNs, CalvinRequest.bytes(tx.size())));
        if (!p.submitBuffer(ctx.node).submit(tx, coordSlot)) {
            // the node's sequencer closed: the run is over (wait for its end so the refusal is not counted)
            long end = ctx.endTime();
            if (ctx.now() < end) ctx.sleep(end - ctx.now());
            throw CLOSED;
        }
        absent = false;
        changed = false;
        postedAt = 0;
        int remaining = participantCount;
        poller.reset();
        while (true) {
            for (int k = 0; k < participantCount; k++) {
                int n = participants[k];
                if (!participant[n]) continue;
                long slot = p.forward.slot(coordSlot, n);
                if (mem.getLongVolatile(p.forward.region, slot + Forward.NOTIFY) != tx.id) continue;
                accept(tx, slot + Forward.IMAGE, validate);
                participant[n] = false;
                remaining--;
                poller.reset();
            }
            if (remaining == 0) break;
            if (p.drainOverdue(ctx)) {
                throw new IllegalStateException("CALVIN coordinator " + ctx.node + "/" + ctx.worker.index + "/" + ctx.index
                        + " still waits for the values of transaction " + tx.id + " long after the run ended");
            }
            poller.idle();
        }
        valuesAt = ctx.now();
        if (absent) throw NOT_FOUND;
        if (changed) throw OLLP_CHANGED;
    }

    /** Takes one participant's forwarded image (same bytes whichever transport brought it). */
    private void accept(Tx tx, long image, boolean validate) {
        int region = p.forward.region;
        int count = (int) mem.getLong(region, image + Forward.COUNT);
        sealedAt = mem.getLong(region, image + Forward.SEALED_AT);
        loggedAt = mem.getLong(region, image + Forward.LOGGED_AT);
        postedAt = Math.max(postedAt, mem.getLong(region, image + Forward.POSTED_AT));
        long at = image + Forward.ITEMS;
        int bytes = Forward.ITEMS;
        for (int i = 0; i < count; i++) {
            Access a = tx.access((int) mem.getLong(region, at + Forward.ITEM_ACCESS));
            long off = mem.getLong(region, at + Forward.ITEM_OFFSET);
            int rb = a.table.recordBytes;
            if (off < 0) {
                a.absent = true;
                absent = true;
            } else {
                a.offset = off;
                writeBack.ticket(a, mem.getLong(region, at + Forward.ITEM_TICKET));
                a.locked = a.write;
                a.version = a.prevVersion = mem.getLong(region, at + Forward.ITEM_VERSION);
                if (!validate) {
                    mem.read(region, at + Forward.ITEM_RECORD, a.record, 0, rb);
                    a.fetchedRecord();
                } else if (a.needsValue) {
                    if (scratch.length < rb) scratch = new byte[rb];
                    mem.read(region, at + Forward.ITEM_RECORD, scratch, 0, rb);
                    if (p.checkReconnaissance && !Arrays.equals(scratch, 0, rb, a.record, 0, rb)) changed = true;
                }
            }
            at += Forward.itemBytes(a.table);
            bytes += Forward.itemBytes(a.table);
        }
        ctx.charge(Batch.copyNs(ctx.cost.localOpNs, bytes));
    }

    /** OLLP reconnaissance: reads without locks (validated against the locked values at commit). */
    private void reconRead(Tx tx, int from, int to) {
        recon.fetch(tx, from, to, forwardOneSided, true);
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
