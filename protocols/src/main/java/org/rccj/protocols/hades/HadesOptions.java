package org.rccj.protocols.hades;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.protocols.occ.SwImplCosts;

/**
 * HADES's hardware settings ({@code protocol_options}). Filter sizes are the paper's; hash counts are the
 * ones that reproduce its Table IV (k = 2 for 1 Kbit; one hash per section, AND-ed, for 512 b + 4 Kbit);
 * the paper gives no NIC handler latency, Locking-Buffer count or livelock threshold (docs/architecture.md).
 */
record HadesOptions(boolean hybrid, int localReadBits, int localReadHashes, int localWriteBits, int localWriteHashes,
                    int localWriteIndexBits, int remoteBits, int remoteHashes, long nicHandlerNs, long filterOpNs,
                    long findTagsNs, int lockingBuffers, long stallNs, int livelockSquashes, double evictionSquashRate,
                    Map<String, Object> raw) {

    static final String MODE = "mode", LOCAL_READ_BF_BITS = "local_read_bf_bits", LOCAL_READ_BF_HASHES = "local_read_bf_hashes",
            LOCAL_WRITE_BF_BITS = "local_write_bf_bits", LOCAL_WRITE_BF_HASHES = "local_write_bf_hashes",
            LOCAL_WRITE_BF_INDEX_BITS = "local_write_bf_index_bits", REMOTE_BF_BITS = "remote_bf_bits", REMOTE_BF_HASHES = "remote_bf_hashes",
            NIC_HANDLER_NS = "nic_handler_ns", FILTER_OP_NS = "filter_op_ns", FIND_TAGS_NS = "find_tags_ns", LOCKING_BUFFERS = "locking_buffers",
            STALL_NS = "stall_ns", LIVELOCK_SQUASHES = "livelock_squashes", EVICTION_SQUASH_RATE = "eviction_squash_rate";

    static List<Param> params() {
        List<Param> p = new ArrayList<>(List.of(
                Param.ofChoice(MODE, "hades", List.of("hades", "hades-h"), "hades: local and remote accesses tracked in hardware; hades-h: NIC hardware for remote accesses, local accesses in software (SW-Impl path) with local validation"),
                Param.ofInt(LOCAL_READ_BF_BITS, 1024, 8, 1 << 20, "LocalReadBF bits per local transaction (paper: 1024)"),
                Param.ofInt(LOCAL_READ_BF_HASHES, 2, 1, 16, "hash functions of LocalReadBF (k = 2 reproduces Table IV)"),
                Param.ofInt(LOCAL_WRITE_BF_BITS, 512, 8, 1 << 20, "LocalWriteBF hashed section, bits (paper: 512, CRC)"),
                Param.ofInt(LOCAL_WRITE_BF_HASHES, 1, 1, 16, "hash functions of LocalWriteBF's hashed section"),
                Param.ofInt(LOCAL_WRITE_BF_INDEX_BITS, 4096, 0, 1 << 20, "LocalWriteBF LLC-set-index section, bits, AND-ed with the hashed one (paper: 4096; 0 = none)"),
                Param.ofInt(REMOTE_BF_BITS, 1024, 8, 1 << 20, "RemoteReadBF and RemoteWriteBF bits each, per remote transaction in the NIC (paper: 1024)"),
                Param.ofInt(REMOTE_BF_HASHES, 2, 1, 16, "hash functions of the remote filters"),
                Param.ofInt(NIC_HANDLER_NS, 200, 0, 100_000, "NIC handler latency for an Intend-to-commit (not stated by the paper; 100-300 ns suggested)"),
                Param.ofInt(FILTER_OP_NS, 1, 0, 1000, "one Bloom-filter insert or probe on the commit path, ns of hardware time (not CPU)"),
                Param.ofInt(FIND_TAGS_NS, 50, 0, 10_000, "Find-LLC-Tags: listing a committing transaction's written lines (80-120 cycles at 2 GHz)"),
                Param.ofInt(LOCKING_BUFFERS, 0, 0, 1024, "Locking Buffers per node (not stated by the paper); 0 = one per filter pair in the node's pools (its local transactions' pairs and its NIC's remote entries), so committing never waits for one (decision 0185)"),
                Param.ofInt(STALL_NS, 100, 1, 100_000, "an access that hits a Locking Buffer (or a full Locking-Buffer set) retries after this long"),
                Param.ofInt(LIVELOCK_SQUASHES, 8, 0, 1_000_000, "after this many squashes in a row a transaction's next attempts lock their lines before accessing them (livelock fallback, one-sided READ only; not stated by the paper; 0 = never)"),
                Param.ofDouble(EVICTION_SQUASH_RATE, 0.0, 0.0, 1.0, "HADES: probability that an attempt with local speculative writes loses one to an LLC eviction and squashes itself before committing (the paper measured 0.1% on average, 0.7% for TPC-C; the cache is not modelled; 0 = none)")));
        p.addAll(SwImplCosts.params());
        return p;
    }

    static HadesOptions of(Map<String, Object> o) {
        return new HadesOptions("hades-h".equals(o.get(MODE)), (int) o.get(LOCAL_READ_BF_BITS), (int) o.get(LOCAL_READ_BF_HASHES),
                (int) o.get(LOCAL_WRITE_BF_BITS), (int) o.get(LOCAL_WRITE_BF_HASHES), (int) o.get(LOCAL_WRITE_BF_INDEX_BITS),
                (int) o.get(REMOTE_BF_BITS), (int) o.get(REMOTE_BF_HASHES), (int) o.get(NIC_HANDLER_NS),
                (int) o.get(FILTER_OP_NS), (int) o.get(FIND_TAGS_NS), (int) o.get(LOCKING_BUFFERS), (int) o.get(STALL_NS),
                (int) o.get(LIVELOCK_SQUASHES), ((Number) o.get(EVICTION_SQUASH_RATE)).doubleValue(), o);
    }
}
