package org.rccj.framework.store;

/** Which node holds a key of a table. */
@FunctionalInterface
public interface Partitioner {
    int node(long key, int nodes);

    /** Keys spread over all nodes by a hash: no locality (SmallBank, as in FaSST). */
    Partitioner HASH = (key, nodes) -> (int) Long.remainderUnsigned(Hashing.mix(key), nodes);
}
