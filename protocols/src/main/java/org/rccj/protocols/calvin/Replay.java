package org.rccj.protocols.calvin;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;

/**
 * An active participant's run of a transaction's logic: the workload's replayer takes the coordinator's saved pick
 * and runs the same logic on a local {@link Tx} whose fetches are served from the values collected for the
 * transaction (this node's, read under its locks, and the other participants' forwarded ones). Every active
 * participant and the coordinator run the same deterministic function on the same values, so they reach the same
 * outcome without talking to each other.
 */
final class Replay {
    /** The logic asked for an access beyond the input: a multi-round transaction whose later rounds were not sequenced. */
    private static final AbortException BEYOND_INPUT = AbortException.conflict("ollp_learn");

    private final TxnGenerator replayer;
    private final Tx tx;
    private TxnState s;

    Replay(CoroutineContext ctx) {
        this.replayer = ctx.cluster().replayer(ctx);
        if (replayer == null) {
            throw new ConfigException("protocol calvin: the workload cannot be replayed at the active participants "
                    + "(it implements no Workload.replayer); choose another protocol or workload");
        }
        this.tx = new Tx(ctx);
        tx.executor(new TxnExecutor(ctx) {
            @Override public void fetch(Tx t, int from, int to) { serve(from, to); }
            @Override public void commit(Tx t) {}
            @Override public void abort(Tx t) {}
        });
        tx.source = replayer;
    }

    /**
     * Runs {@code s}'s logic on its collected values. True if it commits; then {@link #update} holds each written
     * record. False (nothing to install) when a key is absent, when an OLLP digest differs from the locked record,
     * when the logic rolls back or aborts, or when it needs accesses the input did not have.
     */
    boolean run(TxnState s) {
        for (int i = 0; i < s.count; i++) {
            if (s.version[i] == TxnState.ABSENT) return false;
            if (s.expects[i] && CalvinRequest.digest(s.record[i], s.table[i].recordBytes) != s.expected[i]) return false;
        }
        this.s = s;
        tx.begin(s.txn, s.type);
        replayer.loadPick(s.type, s.pick, 0);
        try {
            replayer.execute(tx);
            tx.fetch();
            tx.chargeLogic();
        } catch (AbortException a) {
            return false;
        }
        if (tx.size() != s.count) throw diverged("it used " + tx.size() + " accesses, the input has " + s.count);
        return true;
    }

    /** The record the committed logic computed for access {@code i}. */
    byte[] update(int i) { return tx.access(i).update; }

    private void serve(int from, int to) {
        for (int i = from; i < to; i++) {
            if (i >= s.count) throw BEYOND_INPUT;
            Access a = tx.access(i);
            if (a.table != s.table[i] || a.key != s.key[i] || a.write != s.write[i]) {
                throw diverged("access " + i + " is " + a.table.name + "#" + a.key + ", the input has " + s.table[i].name + "#" + s.key[i]);
            }
            a.version = a.prevVersion = s.version[i];
            System.arraycopy(s.record[i], 0, a.record, 0, a.table.recordBytes);
            a.fetchedRecord();
        }
    }

    private IllegalStateException diverged(String what) {
        return new IllegalStateException("CALVIN replay of transaction " + s.txn + " (type " + s.type + ") diverged from its coordinator's run: "
                + what + " (the workload's logic is not a deterministic function of its saved pick and the values read)");
    }
}
