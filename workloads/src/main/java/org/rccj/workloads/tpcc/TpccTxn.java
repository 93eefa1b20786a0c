package org.rccj.workloads.tpcc;

import java.util.SplittableRandom;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Tx;

/**
 * One TPC-C transaction type of one coroutine: {@link #pick} draws its inputs (clause 2.x.1), {@link #execute}
 * runs its logic on a transaction and may run again for a retry, {@link #committed} accounts for what a
 * committed run did. Inputs, handles and scratch are fields, reused for every transaction.
 *
 * <p>Values read before the protocol validated them may be inconsistent with each other (optimistic
 * protocols); the logic then throws {@link #INCONSISTENT} (a retried conflict abort) instead of acting on
 * them, and never takes a logic rollback on them.
 */
abstract class TpccTxn {
    /** The transaction read a combination of values no committed state has (retried). */
    static final AbortException INCONSISTENT = AbortException.conflict("tpcc_inconsistent_read");

    final Tpcc wl;
    final Keys k;
    final CoroutineContext ctx;
    final SplittableRandom rng;
    final TpccGenerator gen;

    TpccTxn(TpccGenerator gen) {
        this.gen = gen;
        this.wl = gen.wl;
        this.k = wl.keys;
        this.ctx = gen.ctx;
        this.rng = ctx.rng;
    }

    abstract void pick(int home);

    /** The pick's home warehouse and district, and its customer (by id, or by last name: {@link #pickCustomer}). */
    int w, d, c, lastName;
    boolean byName;

    /** The customer by last name ({@code BY_LAST_NAME_PERCENT}, clauses 2.5.1.2 and 2.6.1.2) or by id (NURand). */
    void pickCustomer() {
        byName = rng.nextInt(100) < Tpcc.BY_LAST_NAME_PERCENT;
        if (byName) lastName = wl.nu.lastNameRun(rng);
        else c = wl.nu.customerId(rng);
    }

    /** The home warehouse and district, in saved order. */
    void homeFields(Words io) {
        w = io.i(w);
        d = io.i(d);
    }

    /** The customer as {@link #pickCustomer} chose it, in saved order. */
    void customerFields(Words io) {
        c = io.i(c);
        lastName = io.i(lastName);
        byName = io.b(byName);
    }

    /** The current pick came from {@link #load} (a replay), not from {@link #pick}. */
    boolean loaded;

    /** Starts a fresh pick (the generator calls it before {@link #pick}). */
    void fresh() {
        savedDate = 0;
        loaded = false;
    }

    /** Writes or reads a pick's 8-byte words in order (one per transaction type, reused). */
    final Words words = new Words();

    /**
     * A pick's fields as 8-byte words, in one direction per use: saving writes each value it is given and
     * returns it, loading returns the next word instead. So {@code x = io.i(x)} saves or loads x, and one list
     * of fields ({@link #fields}) serves both {@link #save} and {@link #load}.
     */
    static final class Words {
        private byte[] buf;
        private int at, start;
        private boolean saving;

        Words saving(byte[] b, int off) { return on(b, off, true); }

        Words loading(byte[] b, int off) { return on(b, off, false); }

        private Words on(byte[] b, int off, boolean save) {
            buf = b;
            at = start = off;
            saving = save;
            return this;
        }

        boolean saving() { return saving; }

        long l(long v) {
            if (saving) org.rccj.primitives.Bytes.putLong(buf, at, v);
            else v = org.rccj.primitives.Bytes.getLong(buf, at);
            at += 8;
            return v;
        }

        int i(int v) { return (int) l(v); }

        boolean b(boolean v) { return l(v ? 1 : 0) != 0; }

        int written() { return at - start; }
    }

    abstract void execute(Tx tx);

    // replay (TxnGenerator#savePick): each type writes its inputs as 8-byte words, at most NewOrderTxn.PICK_BYTES
    /** Writes the inputs {@link #pick} drew (and what else the logic takes from the coordinator); returns bytes. */
    final int save(byte[] dst, int off) {
        fields(words.saving(dst, off));
        return words.written();
    }

    /** Takes inputs {@link #save} wrote: the next {@link #execute} runs that transaction. */
    final void load(byte[] src, int off) {
        loaded = true;
        fields(words.loading(src, off));
    }

    /** The pick's inputs in their saved order, each as {@code x = io.i(x)} (see {@link Words}). */
    abstract void fields(Words io);

    /** The pick's date as a field: pinned when saving ({@link #pinDate}), taken from the word when loading. */
    void dateField(Words io) { savedDate = io.l(io.saving() ? pinDate() : 0); }

    /** The date a saved pick carries (0: none; {@link #date} reads the clock). Cleared by {@link #pick}. */
    long savedDate;

    /** Pins the date of this pick (the coordinator's clock now) and returns it, for {@link #save}. */
    long pinDate() {
        if (savedDate == 0) savedDate = Math.max(1, ctx.now());
        return savedDate;
    }

    void committed(Tx tx) {}

    int uniform(int lo, int hi) { return NuRand.uniform(rng, lo, hi); }

    /** A date for O_ENTRY_D / OL_DELIVERY_D: the coordinator's clock (virtual on sim), never 0 (= null). */
    long date() { return savedDate != 0 ? savedDate : Math.max(1, ctx.now()); }

    /** Clause 2.5.2.2: the customer at position ceil(n / 2) of the by-last-name list (sorted by C_FIRST). */
    long middleCustomer(Tx tx, int indexHandle) {
        long n = tx.get(indexHandle, Schema.CustomerByLastName.COUNT);
        if (n < 1 || n > wl.maxIdsPerLastName) throw new IllegalStateException("by-last-name index row with " + n + " customers");
        return tx.get(indexHandle, Schema.CustomerByLastName.idAt((int) ((n + 1) / 2 - 1)));
    }
}
