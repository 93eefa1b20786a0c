package org.rccj.framework.store;

/**
 * What a workload declares about a table: its name, record size, how many rows it will hold in the
 * whole cluster (loaded plus inserted) and how keys are placed on nodes.
 */
public record TableSpec(String name, int recordBytes, long expectedRows, Partitioner partitioner) {}
