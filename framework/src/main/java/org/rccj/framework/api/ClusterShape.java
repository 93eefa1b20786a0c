package org.rccj.framework.api;

/**
 * What protocols and workloads are told about a run: the cluster's shape and the few run-wide figures they
 * size or seed themselves with. They never see the whole config.
 *
 * @param coroutines transaction coroutines per worker (protocols may add service coroutines of their own)
 * @param replication copies of the coordinator log (the coordinator plus replication-1 backups)
 * @param warmupMs warm-up before measuring (virtual ms on a virtual-time fabric); NaN with {@code warmup_ms: auto}, whose
 *                 window opens during the run (a protocol's time origin is {@code CoroutineContext.runStart})
 * @param seed the run's random seed
 * @param passiveAck the run's {@code passive_ack}: COMMIT's messages and WRITEs and the log-clean message are not awaited
 */
public record ClusterShape(int nodes, int threads, int coroutines, int replication, double warmupMs, long seed, boolean passiveAck) {
    /** Workers in the whole cluster. */
    public int workers() { return nodes * threads; }
}
