package org.rccj.protocols.hades;

/**
 * One read or write filter of a transaction: the Bloom filter the hardware probes and the exact line set
 * kept only to check it ({@link HadesStats#probe}).
 */
final class Filter {
    final Bloom bloom;
    final LineSet exact = new LineSet();

    Filter(Bloom bloom) { this.bloom = bloom; }

    /** Inserts {@code line}; true if it was not in the filter's exact set yet. */
    boolean add(long line) {
        if (!exact.add(line)) return false;
        bloom.add(line);
        return true;
    }

    boolean isEmpty() { return exact.size() == 0; }

    void clear() {
        bloom.clear();
        exact.clear();
    }
}
