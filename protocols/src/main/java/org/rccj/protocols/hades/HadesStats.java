package org.rccj.protocols.hades;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counters of the simulated hardware (one per run; sim is single-threaded). Every Bloom-filter probe goes
 * through {@link #probe}, which checks it against the exact line set: a filter "no" where the exact set
 * says "yes" would be a missed conflict and stops the run; a "yes" where the exact set says "no" is
 * counted as a false positive.
 */
final class HadesStats {
    long probes, falsePositives;
    long stalls, falseStalls, lockWaits;
    /** Squash messages sent over the fabric (remote victims), squashes of local victims, messages that came too late. */
    long squashMessages, squashesLocal, squashesStale, squashesTaken;
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
        m.put("hades.intends", (double) intends);
        m.put("hades.nacks", (double) nacks);
        m.put("hades.validations", (double) validations);
        m.put("hades.fallback_attempts", (double) fallbackAttempts);
        m.put("hades.fallback_lock_waits", (double) fallbackLockWaits);
        for (Abort a : Abort.values()) m.put("hades.abort." + a.name().toLowerCase(), (double) aborts[a.ordinal()]);
        return m;
    }
}
