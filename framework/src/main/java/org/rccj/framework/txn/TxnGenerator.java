package org.rccj.framework.txn;


/**
 * Generates and runs one coroutine's transactions. {@link #next()} picks a transaction (type and
 * parameters, drawn from the coroutine's seeded random source); {@link #execute} runs its logic and may
 * be called several times for one pick (retries after aborts).
 *
 * <p>Replay (what CALVIN needs): a transaction's logic is a deterministic function of its type, its
 * parameters and the values it reads. {@link #savePick} writes the parameters of the current pick (everything
 * {@link #execute} uses besides the values read: keys, amounts, the random draws, the coordinator's clock or
 * coroutine where the logic uses them) so that a replayer ({@code Workload.replayer}, spi) on any node can
 * {@link #loadPick} them and run the same logic. A generator that is never replayed never has these called.
 */
public interface TxnGenerator extends PickSource {
    /** Picks the next transaction; returns its type index. */
    int next();

    /** Runs the picked transaction's logic on {@code tx}: add accesses, fetch, compute the writes. */
    void execute(Tx tx);

    /** The picked transaction committed (account for its effects, e.g. money deposited). */
    default void committed(Tx tx) {}

    /** Makes {@code type} with the parameters {@link #savePick} wrote the current pick (a replayer's only way to pick). */
    default void loadPick(int type, byte[] src, int off) { throw new UnsupportedOperationException(getClass().getName() + " cannot be replayed"); }
}
