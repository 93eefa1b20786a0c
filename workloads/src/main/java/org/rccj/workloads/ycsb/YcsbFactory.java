package org.rccj.workloads.ycsb;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;

/** Registers YCSB (the multi-key transactional form used by RDMA transaction papers) with the framework. */
public final class YcsbFactory implements WorkloadFactory {
    static final String KEYS_PER_THREAD = "keys_per_thread", OPS_PER_TXN = "ops_per_txn",
            WRITE_PROBABILITY = "write_probability", RECORD_BYTES = "record_bytes", HOT_FRACTION = "hot_fraction",
            HOT_PROBABILITY = "hot_probability", ZIPF_THETA = "zipf_theta", COMPUTE_US = "compute_us";
    static final List<Param> PARAMS = List.of(
            Param.ofInt(KEYS_PER_THREAD, 100_000, 1, 100_000_000, "records per worker thread in the cluster (total = this x nodes x threads)"),
            Param.ofInt(OPS_PER_TXN, 10, 1, 1024, "operations per transaction, each on a distinct key"),
            Param.ofDouble(WRITE_PROBABILITY, 0.2, 0, 1, "chance that an operation is a read-modify-write instead of a read"),
            Param.ofInt(RECORD_BYTES, 64, 8, 4096, "record size in bytes: an 8-byte write counter, then payload words"),
            Param.ofDouble(HOT_FRACTION, 0.001, 0, 1, "share of the keys that form the hot area"),
            Param.ofDouble(HOT_PROBABILITY, 0.1, 0, 1, "share of operations that go to the hot area (the rest: uniform over the other keys)"),
            Param.ofOptionalDouble(ZIPF_THETA, 0, 0.9999, "Zipfian skew of key choice (YCSB uses 0.99); when set it replaces the hot area; off by default"),
            Param.ofDouble(COMPUTE_US, 5, 0, 1_000_000, "extra CPU work per transaction in the execution stage, microseconds, on top of the logic's own measured cost (the profile's logic_ns.ycsb.*; sim: modelled CPU time; local: spins)"),
            org.rccj.workloads.LocalFraction.param());

    @Override public String name() { return "ycsb"; }
    @Override public String description() { return "YCSB transactions: ops_per_txn distinct keys, reads or read-modify-writes, hot area or Zipfian keys"; }
    @Override public List<Param> parameters() { return PARAMS; }
    @Override public Workload create(WorkloadSetup setup) { return new Ycsb(setup); }
}
