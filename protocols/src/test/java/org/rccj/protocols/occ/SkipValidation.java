package org.rccj.protocols.occ;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;

/** Test-only broken OCC: never validates its read set (neither the lock bit at read time nor versions before commit). */
final class SkipValidation extends OccValidate {
    SkipValidation(CoroutineContext ctx) { super(ctx, null); }

    @Override void acceptRead(Access a) { OccTuple.acceptReadIgnoringLock(a); }

    @Override public void run(Tx tx, boolean oneSided) {}
}
