package org.rccj.workloads.tatp;

import java.util.SplittableRandom;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;

import static org.rccj.workloads.tatp.Tatp.*;

/**
 * One coroutine's TATP transactions (spec profiles; parameters drawn in {@link #next()} so retries repeat them).
 * Fetch rounds: GetNewDestination reads SPECIAL_FACILITY, then (if it exists and is active) the CALL_FORWARDING
 * rows with start_time <= the asked one; InsertCallForwarding reads SUBSCRIBER (the sub_nbr lookup) and
 * SPECIAL_FACILITY, then (if the facility exists) reads-for-update the CALL_FORWARDING slot; every other
 * transaction is one round.
 */
final class TatpGenerator implements TxnGenerator {
    private final Tatp wl;
    private final SplittableRandom rng;
    private int type;
    private long sId, startTime, endTime, value, numberx;
    private int facilityType;
    /** This coroutine's committed InsertCallForwarding / DeleteCallForwarding transactions. */
    long committedInserts, committedDeletes;

    TatpGenerator(Tatp wl, SplittableRandom rng) {
        this.wl = wl;
        this.rng = rng;
    }

    /** s_id = NURand(A, 0, P-1) = (rand(0, A) | rand(0, P-1)) mod P (TATP spec, 0-based), or uniform. */
    private long subscriber() {
        long p = wl.subscribers;
        if (wl.nurandA < 0) return rng.nextLong(p);
        return (rng.nextLong(wl.nurandA + 1) | rng.nextLong(p)) % p;
    }

    @Override
    public int next() {
        int pct = rng.nextInt(100);
        int t = 0;
        while (pct >= STANDARD_MIX[t]) t++;
        type = t;
        sId = subscriber();
        facilityType = 1 + rng.nextInt(SF_TYPES);              // ai_type or sf_type, 1..4
        startTime = (long) START_TIME_STEP * rng.nextInt(START_TIMES);
        endTime = 1 + rng.nextInt(MAX_END_TIME);                // 1..24
        value = rng.nextLong();
        numberx = rng.nextLong(NUMBERX_RANGE);
        return type;
    }

    // replay: the drawn parameters
    static final int PICK_S_ID = 0, PICK_FACILITY = 8, PICK_START = 16, PICK_END = 24, PICK_VALUE = 32, PICK_NUMBERX = 40,
            PICK_BYTES = 48;

    @Override
    public int savePick(byte[] dst, int off) {
        Bytes.putLong(dst, off + PICK_S_ID, sId);
        Bytes.putLong(dst, off + PICK_FACILITY, facilityType);
        Bytes.putLong(dst, off + PICK_START, startTime);
        Bytes.putLong(dst, off + PICK_END, endTime);
        Bytes.putLong(dst, off + PICK_VALUE, value);
        Bytes.putLong(dst, off + PICK_NUMBERX, numberx);
        return PICK_BYTES;
    }

    @Override
    public void loadPick(int type, byte[] src, int off) {
        this.type = type;
        sId = Bytes.getLong(src, off + PICK_S_ID);
        facilityType = (int) Bytes.getLong(src, off + PICK_FACILITY);
        startTime = Bytes.getLong(src, off + PICK_START);
        endTime = Bytes.getLong(src, off + PICK_END);
        value = Bytes.getLong(src, off + PICK_VALUE);
        numberx = Bytes.getLong(src, off + PICK_NUMBERX);
    }

    /** The s_id of a subscriber number: derived, not looked up (see {@link SubNbr}). */
    private static long bySubNbr(long subNbr) { return SubNbr.toSubscriber(subNbr); }

    @Override
    public void execute(Tx tx) {
        switch (type) {
            case GET_SUBSCRIBER_DATA -> {
                tx.read(wl.subscriber, sId);
                tx.fetch();
            }
            case GET_NEW_DESTINATION -> {
                int sf = tx.read(wl.specialFacility, specialFacilityKey(sId, facilityType));
                tx.fetch();
                if (tx.get(sf, SF_VALID) != 1 || tx.get(sf, SF_IS_ACTIVE) != 1) tx.logicAbort();
                int first = -1;
                for (long st = 0; st <= startTime; st += START_TIME_STEP) {
                    int h = tx.read(wl.callForwarding, callForwardingKey(sId, facilityType, st));
                    if (first < 0) first = h;
                }
                tx.fetch();
                boolean found = false;
                for (int h = first; h < tx.size(); h++) {
                    if (tx.get(h, CF_VALID) == 1 && endTime < tx.get(h, CF_END_TIME)) found = true;
                }
                if (!found) tx.logicAbort();
            }
            case GET_ACCESS_DATA -> {
                int ai = tx.read(wl.accessInfo, accessInfoKey(sId, facilityType));
                tx.fetch();
                if (tx.get(ai, AI_VALID) != 1) tx.logicAbort();
            }
            case UPDATE_SUBSCRIBER_DATA -> {
                int sub = tx.readForUpdate(wl.subscriber, sId);
                int sf = tx.readForUpdate(wl.specialFacility, specialFacilityKey(sId, facilityType));
                tx.fetch();
                if (tx.get(sf, SF_VALID) != 1) tx.logicAbort();
                tx.put(sub, SUB_BITS, (tx.get(sub, SUB_BITS) & ~1L) | (value & 1));   // bit_1
                tx.put(sf, SF_DATA_A, (value >>> 8) & 0xFF);
            }
            case UPDATE_LOCATION -> {
                int sub = tx.readForUpdate(wl.subscriber, bySubNbr(SubNbr.fromSubscriber(sId)));
                tx.fetch();
                tx.put(sub, SUB_VLR_LOCATION, value & 0xFFFF_FFFFL);
            }
            case INSERT_CALL_FORWARDING -> {
                long s = bySubNbr(SubNbr.fromSubscriber(sId));
                tx.read(wl.subscriber, s);
                int sf = tx.read(wl.specialFacility, specialFacilityKey(s, facilityType));
                tx.fetch();
                if (tx.get(sf, SF_VALID) != 1) tx.logicAbort();              // foreign key
                int cf = tx.readForUpdate(wl.callForwarding, callForwardingKey(s, facilityType, startTime));
                tx.fetch();
                if (tx.get(cf, CF_VALID) == 1) tx.logicAbort();              // primary key taken
                tx.put(cf, CF_VALID, 1);
                tx.put(cf, CF_END_TIME, endTime);
                tx.put(cf, CF_NUMBERX, numberx);
            }
            case DELETE_CALL_FORWARDING -> {
                long s = bySubNbr(SubNbr.fromSubscriber(sId));
                tx.read(wl.subscriber, s);
                int cf = tx.readForUpdate(wl.callForwarding, callForwardingKey(s, facilityType, startTime));
                tx.fetch();
                if (tx.get(cf, CF_VALID) != 1) tx.logicAbort();              // no such row
                tx.put(cf, CF_VALID, 0);
                tx.put(cf, CF_END_TIME, 0);
                tx.put(cf, CF_NUMBERX, 0);
            }
            default -> throw new IllegalStateException("type " + type);
        }
    }

    @Override
    public void committed(Tx tx) {
        if (type == INSERT_CALL_FORWARDING) committedInserts++;
        else if (type == DELETE_CALL_FORWARDING) committedDeletes++;
    }
}
