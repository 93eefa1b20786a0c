package org.rccj.workloads.tatp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Partitioner;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;

/**
 * TATP (Telecom Application Transaction Processing): four tables, seven transactions in the standard mix.
 *
 * <p>Rows that may not exist (ACCESS_INFO and SPECIAL_FACILITY types a subscriber lacks, CALL_FORWARDING rows
 * inserted and deleted at run time) are pre-allocated slots whose record starts with a {@code valid} word
 * (docs/decisions/): every subscriber has 4 ACCESS_INFO, 4 SPECIAL_FACILITY and 12 CALL_FORWARDING slots.
 * A lookup that finds an invalid slot, an insert that finds a valid one and a delete that finds an invalid one
 * are logic rollbacks. Every row of a subscriber lives on the node its s_id hashes to (placement by s_id, as
 * FaSST intends), so each transaction talks to one node. Keys: s_id; s_id*4 + ai_type-1; s_id*4 + sf_type-1;
 * (s_id*4 + sf_type-1)*3 + start_time/8.
 *
 * <p>Invariants: {@code call_forwarding_needs_special_facility} - no valid CALL_FORWARDING row whose
 * SPECIAL_FACILITY row is invalid (InsertCallForwarding checks the foreign key); {@code call_forwarding_count} -
 * valid CALL_FORWARDING rows = loaded + committed inserts - committed deletes; {@code static_rows_as_loaded} -
 * the valid flags of ACCESS_INFO and SPECIAL_FACILITY are exactly as loaded (no transaction inserts or deletes
 * them); {@code sub_nbr_matches_s_id} - every SUBSCRIBER row's sub_nbr is the one derived from its s_id (what
 * the sub_nbr lookups rely on).
 */
public final class Tatp implements Workload {
    public static final String SUBSCRIBER = "subscriber", ACCESS_INFO = "access_info", SPECIAL_FACILITY = "special_facility",
            CALL_FORWARDING = "call_forwarding";
    public static final int AI_TYPES = 4, SF_TYPES = 4, START_TIMES = 3, START_TIME_STEP = 8, MAX_END_TIME = 24;
    static final long NUMBERX_RANGE = 1_000_000_000_000_000L;
    static final int SUB_BIT_COUNT = 10, SUB_HEX_COUNT = 10;

    /** SUBSCRIBER record: sub_nbr (packed BCD), bit_1..bit_10 (bit i-1), hex_1..hex_10 (nibble i-1), byte2_1..8, byte2_9..10, locations. */
    public static final int SUB_NBR = 0, SUB_BITS = 8, SUB_HEX = 16, SUB_BYTE2_LOW = 24, SUB_BYTE2_HIGH = 32, SUB_MSC_LOCATION = 40,
            SUB_VLR_LOCATION = 48, SUBSCRIBER_BYTES = 56;
    /** ACCESS_INFO record: valid, data1, data2, data3 (3 chars), data4 (5 chars). */
    public static final int AI_VALID = 0, AI_DATA1 = 8, AI_DATA2 = 16, AI_DATA3 = 24, AI_DATA4 = 32, ACCESS_INFO_BYTES = 40;
    /** SPECIAL_FACILITY record: valid, is_active, error_cntrl, data_a, data_b (5 chars). */
    public static final int SF_VALID = 0, SF_IS_ACTIVE = 8, SF_ERROR_CNTRL = 16, SF_DATA_A = 24, SF_DATA_B = 32, SPECIAL_FACILITY_BYTES = 40;
    /** CALL_FORWARDING record: valid, end_time, numberx (15 digits as a number). */
    public static final int CF_VALID = 0, CF_END_TIME = 8, CF_NUMBERX = 16, CALL_FORWARDING_BYTES = 24;

    public static final List<String> TYPES = List.of("GetSubscriberData", "GetNewDestination", "GetAccessData", "UpdateSubscriberData",
            "UpdateLocation", "InsertCallForwarding", "DeleteCallForwarding");
    static final int GET_SUBSCRIBER_DATA = 0, GET_NEW_DESTINATION = 1, GET_ACCESS_DATA = 2, UPDATE_SUBSCRIBER_DATA = 3,
            UPDATE_LOCATION = 4, INSERT_CALL_FORWARDING = 5, DELETE_CALL_FORWARDING = 6;
    /** Cumulative mix in percent, in TYPES order: 35, 10, 35, 2, 14, 2, 2. */
    static final int[] STANDARD_MIX = {35, 45, 80, 82, 96, 98, 100};

    final long subscribers;
    /** The spec's A for NURand(A, 0, subscribers - 1), or -1 for uniform s_id. */
    final long nurandA;
    final boolean steadyEndTimes;
    long seed;
    Table subscriber, accessInfo, specialFacility, callForwarding;
    private long loadedCallForwarding;
    private final List<TatpGenerator> generators = new ArrayList<>();

    Tatp(WorkloadSetup s) {
        subscribers = (long) s.i(TatpFactory.SUBSCRIBERS_PER_NODE) * s.cluster().nodes();
        nurandA = s.s(TatpFactory.SUBSCRIBER_DISTRIBUTION).equals("uniform") ? -1 : nurandA(subscribers);
        steadyEndTimes = s.s(TatpFactory.CALL_FORWARDING_END_TIME).equals("steady");
    }

    /** TATP spec: A = 65535 up to 1M subscribers, 1048575 up to 10M, 2097151 beyond. */
    static long nurandA(long subscribers) {
        return subscribers <= 1_000_000 ? 65_535 : subscribers <= 10_000_000 ? 1_048_575 : 2_097_151;
    }

    public static long accessInfoKey(long sId, int aiType) { return sId * AI_TYPES + aiType - 1; }
    public static long specialFacilityKey(long sId, int sfType) { return sId * SF_TYPES + sfType - 1; }
    public static long callForwardingKey(long sId, int sfType, long startTime) {
        return specialFacilityKey(sId, sfType) * START_TIMES + startTime / START_TIME_STEP;
    }

    /** Places a table's rows by the s_id in their key ({@code rowsPerSubscriber} consecutive keys per s_id). */
    static Partitioner bySubscriber(int rowsPerSubscriber) {
        return (key, nodes) -> Partitioner.HASH.node(key / rowsPerSubscriber, nodes);
    }

    @Override
    public List<TableSpec> tables() {
        return List.of(new TableSpec(SUBSCRIBER, SUBSCRIBER_BYTES, subscribers, bySubscriber(1)),
                new TableSpec(ACCESS_INFO, ACCESS_INFO_BYTES, subscribers * AI_TYPES, bySubscriber(AI_TYPES)),
                new TableSpec(SPECIAL_FACILITY, SPECIAL_FACILITY_BYTES, subscribers * SF_TYPES, bySubscriber(SF_TYPES)),
                new TableSpec(CALL_FORWARDING, CALL_FORWARDING_BYTES, subscribers * SF_TYPES * START_TIMES,
                        bySubscriber(SF_TYPES * START_TIMES)));
    }

    @Override public List<String> txnTypes() { return TYPES; }

    /** The largest TATP transaction touches a subscriber and a handful of its 20 other row slots. */
    @Override public int maxAccessesPerTxn() { return 24; }

    private static boolean has(int mask, int index) { return (mask & (1 << index)) != 0; }

    @Override
    public void load(Store store, long seed) {
        this.seed = seed;
        subscriber = store.table(SUBSCRIBER);
        accessInfo = store.table(ACCESS_INFO);
        specialFacility = store.table(SPECIAL_FACILITY);
        callForwarding = store.table(CALL_FORWARDING);
        byte[] sub = new byte[SUBSCRIBER_BYTES], ai = new byte[ACCESS_INFO_BYTES], sf = new byte[SPECIAL_FACILITY_BYTES],
                cf = new byte[CALL_FORWARDING_BYTES];
        Population p = new Population();
        long cfRows = 0;
        for (long sId = 0; sId < subscribers; sId++) {
            p.fill(seed, sId, steadyEndTimes);
            Bytes.putLong(sub, SUB_NBR, SubNbr.fromSubscriber(sId));
            Bytes.putLong(sub, SUB_BITS, p.bits);
            Bytes.putLong(sub, SUB_HEX, p.hex);
            Bytes.putLong(sub, SUB_BYTE2_LOW, p.byte2Low);
            Bytes.putLong(sub, SUB_BYTE2_HIGH, p.byte2High);
            Bytes.putLong(sub, SUB_MSC_LOCATION, p.mscLocation);
            Bytes.putLong(sub, SUB_VLR_LOCATION, p.vlrLocation);
            store.load(subscriber, sId, sub);
            for (int t = 0; t < AI_TYPES; t++) {
                boolean exists = has(p.accessInfoMask, t);
                Bytes.putLong(ai, AI_VALID, exists ? 1 : 0);
                Bytes.putLong(ai, AI_DATA1, exists ? p.aiData1[t] : 0);
                Bytes.putLong(ai, AI_DATA2, exists ? p.aiData2[t] : 0);
                Bytes.putLong(ai, AI_DATA3, exists ? p.aiData3[t] : 0);
                Bytes.putLong(ai, AI_DATA4, exists ? p.aiData4[t] : 0);
                store.load(accessInfo, accessInfoKey(sId, t + 1), ai);
            }
            for (int t = 0; t < SF_TYPES; t++) {
                boolean exists = has(p.specialFacilityMask, t);
                Bytes.putLong(sf, SF_VALID, exists ? 1 : 0);
                Bytes.putLong(sf, SF_IS_ACTIVE, exists ? p.sfActive[t] : 0);
                Bytes.putLong(sf, SF_ERROR_CNTRL, exists ? p.sfErrorCntrl[t] : 0);
                Bytes.putLong(sf, SF_DATA_A, exists ? p.sfDataA[t] : 0);
                Bytes.putLong(sf, SF_DATA_B, exists ? p.sfDataB[t] : 0);
                store.load(specialFacility, specialFacilityKey(sId, t + 1), sf);
                for (int s = 0; s < START_TIMES; s++) {
                    boolean row = has(p.callForwardingMask[t], s);
                    Bytes.putLong(cf, CF_VALID, row ? 1 : 0);
                    Bytes.putLong(cf, CF_END_TIME, row ? p.cfEndTime[t][s] : 0);
                    Bytes.putLong(cf, CF_NUMBERX, row ? p.cfNumberx[t][s] : 0);
                    store.load(callForwarding, callForwardingKey(sId, t + 1, (long) s * START_TIME_STEP), cf);
                }
            }
            cfRows += p.callForwardingRows();
        }
        loadedCallForwarding = cfRows;
    }

    @Override
    public TxnGenerator replayer(CoroutineContext ctx) { return new TatpGenerator(this, ctx.rng); }

    @Override public int maxPickBytes() { return TatpGenerator.PICK_BYTES; }

    @Override
    public TxnGenerator generator(CoroutineContext ctx) {
        TatpGenerator g = new TatpGenerator(this, ctx.rng);
        generators.add(g);
        return g;
    }

    /** Valid CALL_FORWARDING rows expected now: loaded + committed inserts - committed deletes. */
    /** Committed inserts minus deletes of generators in other processes (tcp). */
    private long remoteCallForwarding;

    @Override public long[] tallies() { return new long[] {expectedCallForwarding() - loadedCallForwarding - remoteCallForwarding}; }

    @Override public void addTallies(long[] other) { remoteCallForwarding += other[0]; }

    long expectedCallForwarding() {
        long n = loadedCallForwarding + remoteCallForwarding;
        for (TatpGenerator g : generators) n += g.committedInserts - g.committedDeletes;
        return n;
    }

    @Override
    public Map<String, Boolean> checkInvariants(Store store) {
        boolean foreignKey = true, staticRows = true, subNbr = true;
        long cfRows = 0;
        Population p = new Population();
        for (long sId = 0; sId < subscribers; sId++) {
            p.fill(seed, sId, steadyEndTimes);
            if (store.field(subscriber, sId, SUB_NBR) != SubNbr.fromSubscriber(sId)) subNbr = false;
            for (int t = 0; t < AI_TYPES; t++) {
                if ((store.field(accessInfo, accessInfoKey(sId, t + 1), AI_VALID) == 1) != has(p.accessInfoMask, t)) staticRows = false;
            }
            for (int t = 0; t < SF_TYPES; t++) {
                boolean sf = store.field(specialFacility, specialFacilityKey(sId, t + 1), SF_VALID) == 1;
                if (sf != has(p.specialFacilityMask, t)) staticRows = false;
                for (int s = 0; s < START_TIMES; s++) {
                    if (store.field(callForwarding, callForwardingKey(sId, t + 1, (long) s * START_TIME_STEP), CF_VALID) == 1) {
                        cfRows++;
                        if (!sf) foreignKey = false;
                    }
                }
            }
        }
        Map<String, Boolean> out = new LinkedHashMap<>();
        out.put("call_forwarding_needs_special_facility", foreignKey);
        out.put("call_forwarding_count", cfRows == expectedCallForwarding());
        out.put("static_rows_as_loaded", staticRows);
        out.put("sub_nbr_matches_s_id", subNbr);
        return out;
    }
}
