package org.rccj.protocols.sundial;

import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.stage.ReleaseWord;
import org.rccj.framework.txn.Access;

/**
 * RELEASE stage: store an unlocked rts word in every tuple this attempt locked: after a commit the new
 * version's lease end (the commit timestamp), after an abort the rts frozen at the lock. Either way the
 * value is in {@code meta1}.
 */
final class SundialRelease extends ReleaseWord {
    SundialRelease(CoroutineContext ctx, ReleaseWord.Rpc rpc) { super(ctx, rpc, SundialTuple.RTS); }

    @Override protected long valueAfter(Access a) { return a.meta1; }
}
