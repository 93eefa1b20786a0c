package org.rccj.protocols.hades;

/**
 * One read or write filter of a transaction: the Bloom filter the hardware probes and the exact line set
 * kept only to check it ({@link HadesStats#probe}).
 */
final class Filter {
    final Bloom bloom;
    final LineSet exact = new LineSet();

    Filter(Bloom bloom) { this.bloom = bloom; }

    void add(long line) {
        if (exact.add(line)) bloom.add(line);
    }

    boolean isEmpty() { return exact.size() == 0; }

    void clear() {
        bloom.clear();
        exact.clear();
    }
}
