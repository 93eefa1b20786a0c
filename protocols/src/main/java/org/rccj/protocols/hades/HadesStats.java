package org.rccj.protocols.hades;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counters of one node's simulated hardware (each node's are touched only by that node's simulation thread;
 * {@link #sum} merges them at the end, in node order). Every Bloom-filter probe goes
 * through {@link #probe}, which checks it against the exact line set: a filter "no" where the exact set
 * says "yes" would be a missed conflict and stops the run; a "yes" where the exact set says "no" is
 * counted as a false positive.
 */
final class HadesStats {
    long probes, falsePositives;
    long stalls, falseStalls, lockWaits;
    /** Squash messages sent over the fabric (remote victims), squashes of local victims, messages that came too late. */
    long squashMessages, squashesLocal, squashesStale, squashesTaken;
    /** Release messages an aborted attempt's NIC sent to the nodes it touched. */
    long releaseMessages;
    long intends, nacks, validations;
    long fallbackAttempts, fallbackLockWaits;
    final long[] aborts = new long[Abort.values().length];

    enum Abort { SELF_SQUASH, SQUASHED, LOCK_CONFLICT, NACK, LOCAL_VALIDATION, NOT_FOUND, EVICTION }

    boolean probe(Filter f, long line) {
        boolean maybe = f.bloom.mightContain(line);
        boolean really = f.exact.contains(line);
        if (really && !maybe) throw new IllegalStateException("hades: Bloom filter missed line " + line + " (a conflict would be missed)");
        probes++;
        if (maybe && !really) falsePositives++;
        return maybe;
    }

    /** The counters of every node added up (sums of counts: the same whatever order the nodes ran in). */
    static HadesStats sum(Iterable<HadesStats> nodes) {
        HadesStats s = new HadesStats();
        for (HadesStats n : nodes) {
            s.probes += n.probes;
            s.falsePositives += n.falsePositives;
            s.stalls += n.stalls;
            s.falseStalls += n.falseStalls;
            s.lockWaits += n.lockWaits;
            s.squashMessages += n.squashMessages;
            s.squashesLocal += n.squashesLocal;
            s.squashesStale += n.squashesStale;
            s.squashesTaken += n.squashesTaken;
            s.releaseMessages += n.releaseMessages;
            s.intends += n.intends;
            s.nacks += n.nacks;
            s.validations += n.validations;
            s.fallbackAttempts += n.fallbackAttempts;
            s.fallbackLockWaits += n.fallbackLockWaits;
            for (int k = 0; k < s.aborts.length; k++) s.aborts[k] += n.aborts[k];
        }
        return s;
    }

    Map<String, Double> metrics() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("hades.filter_probes", (double) probes);
        m.put("hades.false_positives", (double) falsePositives);
        m.put("hades.false_positive_rate", probes == 0 ? 0 : falsePositives / (double) probes);
        m.put("hades.stalls", (double) stalls);
        m.put("hades.false_positive_stalls", (double) falseStalls);
        m.put("hades.locking_buffer_waits", (double) lockWaits);
        m.put("hades.squash_messages", (double) squashMessages);
        m.put("hades.squashes_local", (double) squashesLocal);
        m.put("hades.squashes_stale", (double) squashesStale);
        m.put("hades.squashes_taken", (double) squashesTaken);
        m.put("hades.release_messages", (double) releaseMessages);
        m.put("hades.intends", (double) intends);
        m.put("hades.nacks", (double) nacks);
        m.put("hades.validations", (double) validations);
        m.put("hades.fallback_attempts", (double) fallbackAttempts);
        m.put("hades.fallback_lock_waits", (double) fallbackLockWaits);
        for (Abort a : Abort.values()) m.put("hades.abort." + a.name().toLowerCase(), (double) aborts[a.ordinal()]);
        return m;
    }
}
