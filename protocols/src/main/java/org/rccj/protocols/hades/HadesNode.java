package org.rccj.protocols.hades;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * One node's HADES hardware: the WrTX_ID tags of its directory (module 2, exact), its pool of local filter
 * pairs (3), its NIC's table of remote filter pairs (4a), its Locking Buffers and its statistics. Every
 * decision the hardware takes lives here and is called from whichever transport carries the request (a NIC
 * action of a one-sided op, or an RPC handler on a worker), so the two cannot drift apart. It is read and
 * written only by its own node (its simulation thread): a request from another node reaches it as a message
 * and names the attempt by its id; what it learns of another node's transaction is what the messages carry.
 * Lists are iterated in insertion order; the maps are only looked up, never iterated (determinism).
 */
final class HadesNode {
    enum Lock { OK, CONFLICT, FULL }
    enum Access { OK, STALL, SELF_SQUASH }

    final int node;
    final HadesProtocol protocol;
    final HadesStats stats;
    private final HashMap<Long, HadesTxn> writeOwner = new HashMap<>();
    /** The local filter pool: one pair per transaction coroutine of this node. */
    final ArrayList<HadesTxn> locals = new ArrayList<>();
    /** The NIC's remote filter table, in the order the entries were registered, and by attempt id. */
    final ArrayList<RemoteEntry> nic = new ArrayList<>();
    private final HashMap<Long, RemoteEntry> entries = new HashMap<>();
    private final ArrayDeque<RemoteEntry> spare = new ArrayDeque<>();
    private final ArrayList<Holder> lockingBuffers = new ArrayList<>();
    private final LineSet message = new LineSet();
    private long[] lines = new long[64];

    HadesNode(HadesProtocol p, int node) {
        this.protocol = p;
        this.node = node;
        this.stats = new HadesStats();
    }

    /**
     * The NIC entry of attempt {@code txnId} (of the coroutine with global id {@code gid}), registered when its
     * first request reaches this NIC: a READ, an Intend-to-commit, or a fallback's lock.
     */
    RemoteEntry entry(long txnId, int gid) {
        RemoteEntry e = entries.get(txnId);
        if (e != null) return e;
        e = spare.poll();
        if (e == null) e = new RemoteEntry(protocol.options);
        e.reset(protocol.transaction(gid), txnId);
        nic.add(e);
        entries.put(txnId, e);
        return e;
    }

    /** Partial lock: an access by attempt {@code txnId} to {@code line} hits a Locking Buffer another attempt holds. */
    boolean stalls(long line, boolean write, long txnId) {
        for (int i = 0; i < lockingBuffers.size(); i++) {
            Holder h = lockingBuffers.get(i);
            // its own attempt only: an entry of the coroutine's previous, committed attempt whose Validation
            // has not landed yet still locks (the next attempt must not read around it)
            if (h.txnId == txnId) continue;
            if (stats.probe(h.write, line) || (write && stats.probe(h.read, line))) {
                stats.stalls++;
                if (!h.write.exact.contains(line) && !(write && h.read.exact.contains(line))) stats.falseStalls++;
                return true;
            }
        }
        return false;
    }

    /**
     * A livelock-fallback attempt that locked here accesses its lines without the partial-lock check: every
     * exact conflict with another holder was excluded when either side locked, so a hit could only be a
     * false positive (and two fallbacks stalling on each other's false positives would deadlock).
     */
    static boolean heldByFallback(Holder h) { return h.locked && h.fallback; }

    /** Takes a Locking Buffer for {@code h}, probing {@code writes} (and {@code reads}, if given) against every holder. */
    Lock lock(Holder h, LineSet writes, LineSet reads) {
        int slots = protocol.options.lockingBuffers();   // 0: a Locking Buffer is the lock state of a pool pair (decision 0185)
        if (slots > 0 && lockingBuffers.size() >= slots) return Lock.FULL;
        for (int i = 0; i < lockingBuffers.size(); i++) {
            Holder g = lockingBuffers.get(i);
            for (int k = 0; k < writes.size(); k++) {
                long l = writes.get(k);
                if (stats.probe(g.read, l) || stats.probe(g.write, l)) return Lock.CONFLICT;
            }
            if (reads == null) continue;
            for (int k = 0; k < reads.size(); k++) if (stats.probe(g.write, reads.get(k))) return Lock.CONFLICT;
        }
        h.locked = true;
        lockingBuffers.add(h);
        return Lock.OK;
    }

    /** Whether {@code writes}/{@code reads} conflict with a Locking Buffer held by another than {@code h}. */
    boolean conflicts(Holder h, LineSet writes, LineSet reads) {
        for (int i = 0; i < lockingBuffers.size(); i++) {
            Holder g = lockingBuffers.get(i);
            if (g == h) continue;
            for (int k = 0; k < writes.size(); k++) {
                long l = writes.get(k);
                if (stats.probe(g.read, l) || stats.probe(g.write, l)) return true;
            }
            for (int k = 0; k < reads.size(); k++) if (stats.probe(g.write, reads.get(k))) return true;
        }
        return false;
    }

    void unlock(Holder h) {
        if (!h.locked) return;
        lockingBuffers.remove(h);
        h.locked = false;
    }

    /**
     * The NIC squashes every remote transaction whose filters here hold one of {@code lines}: it marks the
     * entry (its Intend-to-commit will be refused, gap b) and sends a squash message at {@code at} through the
     * fabric to the transaction's home NIC, where it takes effect on arrival (or is dropped there if the
     * transaction got all its Acks meanwhile: this NIC cannot know that).
     */
    void squashRemote(LineSet lines, HadesTxn except, long at) {
        for (int i = 0; i < nic.size(); i++) {
            RemoteEntry e = nic.get(i);
            if (e.owner == except || e.squashedHere) continue;
            for (int k = 0; k < lines.size(); k++) {
                long l = lines.get(k);
                if (stats.probe(e.read, l) || stats.probe(e.write, l)) {
                    e.squashedHere = true;
                    protocol.sendSquash(node, e.owner, e.txnId, at);
                    break;
                }
            }
        }
    }

    /** L-R at a target: squash every local transaction whose local filters hold one of {@code lines}. */
    void squashLocals(LineSet lines, long at) {
        for (int i = 0; i < locals.size(); i++) {
            HadesTxn t = locals.get(i);
            if (!t.active || t.unsquashable) continue;
            for (int k = 0; k < lines.size(); k++) {
                long l = lines.get(k);
                if (stats.probe(t.local.read, l) || stats.probe(t.local.write, l)) {
                    stats.squashesLocal++;
                    t.squash(t.id, at);
                    break;
                }
            }
        }
    }

    /**
     * A local access under HADES, as the directory sees it: stall on a Locking Buffer; squash itself on a
     * line another local transaction wrote (WrTX_ID) or, for a write, on a line in another's LocalReadBF;
     * otherwise record the lines in its filters and tag written lines.
     */
    Access localAccess(HadesTxn t, Table tb, long off, boolean read, boolean write) {
        long first = HadesTuple.firstLine(tb, off), last = HadesTuple.lastLine(tb, off);
        if (!heldByFallback(t.local)) for (long l = first; l <= last; l++) if (stalls(l, write, t.id)) return Access.STALL;
        for (long l = first; l <= last; l++) {
            HadesTxn w = writeOwner.get(l);
            if (w != null && w != t) return Access.SELF_SQUASH;
        }
        if (write) {
            for (int i = 0; i < locals.size(); i++) {
                HadesTxn o = locals.get(i);
                if (o == t || !o.active) continue;
                for (long l = first; l <= last; l++) if (stats.probe(o.local.read, l)) return Access.SELF_SQUASH;
            }
        }
        for (long l = first; l <= last; l++) {
            if (read) t.local.read.add(l);
            if (write) {
                t.local.write.add(l);
                writeOwner.put(l, t);
            }
        }
        return Access.OK;
    }

    /**
     * Livelock fallback: the local transactions that would make {@code t}'s access squash itself (the line's
     * WrTX_ID owner; for a write, the holders of the line in their LocalReadBF) are squashed instead: the
     * fallback attempt holds its lines, and one of them may be stalled on them.
     */
    void squashInTheWay(HadesTxn t, Table tb, long off, boolean write) {
        long first = HadesTuple.firstLine(tb, off), last = HadesTuple.lastLine(tb, off);
        for (long l = first; l <= last; l++) {
            HadesTxn w = writeOwner.get(l);
            if (w != null && w != t) {
                stats.squashesLocal++;
                w.squash(w.id, w.ctx.now());
            }
        }
        if (!write) return;
        for (int i = 0; i < locals.size(); i++) {
            HadesTxn o = locals.get(i);
            if (o == t || !o.active) continue;
            for (long l = first; l <= last; l++) {
                if (stats.probe(o.local.read, l)) {
                    stats.squashesLocal++;
                    o.squash(o.id, o.ctx.now());
                    break;
                }
            }
        }
    }

    /** HADES-H: a software local access still goes through the directory's partial lock. */
    boolean localStalls(HadesTxn t, Table tb, long off, boolean write) {
        if (heldByFallback(t.local)) return false;
        long first = HadesTuple.firstLine(tb, off), last = HadesTuple.lastLine(tb, off);
        for (long l = first; l <= last; l++) if (stalls(l, write, t.id)) return true;
        return false;
    }

    /** Commit step 4 or squash: the transaction's written lines lose their WrTX_ID tags. */
    void untag(HadesTxn t) {
        LineSet w = t.local.write.exact;
        for (int k = 0; k < w.size(); k++) writeOwner.remove(w.get(k), t);
    }

    /**
     * A remote READ reaching this node's NIC: stall on a Locking Buffer, else record the lines read in the
     * transaction's RemoteReadBF (and, for a write, the partly written boundary lines in its RemoteWriteBF).
     * The lines are recorded before any byte is transferred, so a writer that commits to one of them while
     * the transfer is under way (a multi-line READ is not atomic: {@code faults.torn_reads}) finds them in
     * this filter and squashes the reader (commit step 2, or Intend-to-commit here): a torn image is never
     * committed. The transfer returns committed data only (a speculative local write is never visible: gap c).
     * @return false if it stalled (nothing is to be read)
     */
    boolean admitRemoteRead(RemoteEntry e, Table tb, long off, boolean read, boolean write) {
        long first = HadesTuple.firstLine(tb, off), last = HadesTuple.lastLine(tb, off);
        boolean head = write && HadesTuple.partialHead(tb, off), tail = write && HadesTuple.partialTail(tb, off);
        for (long l = first; l <= last && !heldByFallback(e); l++) {
            boolean boundary = (l == first && head) || (l == last && tail);
            if (stalls(l, boundary, e.txnId)) return false;
        }
        if (read) for (long l = first; l <= last; l++) e.read.add(l);
        if (head) e.write.add(first);
        if (tail) e.write.add(last);
        return true;
    }

    /** A remote READ served by a core of this node (the RPC half): admitted as at the NIC, then copied at once. */
    boolean remoteRead(RemoteEntry e, Table tb, long off, boolean read, boolean write, RegisteredMemory m, byte[] dst, int dstOff) {
        if (!admitRemoteRead(e, tb, off, read, write)) return false;
        m.read(tb.region(), off, dst, dstOff, tb.tupleBytes);
        return true;
    }

    /** Reads the COUNT line ids of a request ({@link HadesRpc}) from {@code at} into {@link #lines}. */
    private int lines(byte[] d, int count, int at) {
        if (lines.length < count) lines = new long[Math.max(count, lines.length * 2)];
        for (int i = 0; i < count; i++) lines[i] = Bytes.getLong(d, at + 8 * i);
        return count;
    }

    /**
     * Intend-to-commit at this (target) node, steps 1-3, from its request {@code d} ({@link HadesRpc}): refuse
     * an attempt squashed here (gap b); lock with its remote filters, the message's written lines added to its
     * write filter (gap a), probing them against the holders; squash other remote transactions (R-R) and,
     * under HADES, local ones (L-R) that hold them.
     * @return true = Ack
     */
    boolean intend(byte[] d, long now) {
        RemoteEntry e = entry(Bytes.getLong(d, HadesRpc.TXN), (int) Bytes.getLong(d, HadesRpc.GID));
        int n = lines(d, (int) Bytes.getLong(d, HadesRpc.COUNT), HadesRpc.ITEMS);
        stats.intends++;
        if (e.squashedHere) {
            stats.nacks++;
            return false;
        }
        message.clear();
        for (int k = 0; k < n; k++) message.add(lines[k]);
        // a fallback attempt locked here before accessing (it holds the entry's buffer already)
        if (!e.locked && lock(e, message, null) != Lock.OK) {
            stats.nacks++;
            return false;
        }
        for (int k = 0; k < n; k++) e.write.add(lines[k]);
        long handled = now + protocol.options.nicHandlerNs();
        squashRemote(message, e.owner, handled);
        if (!protocol.options.hybrid()) squashLocals(message, handled);
        return true;
    }

    /**
     * Livelock fallback: the lock request {@code d} of a fallback attempt ({@link HadesRpc#lockRequest}) adds its
     * lines to the attempt's filters here and takes a Locking Buffer with them, or (already held) checks the
     * filters against the other holders.
     * @return true if it holds the lock with every line
     */
    boolean lockRequest(byte[] d) {
        RemoteEntry e = entry(Bytes.getLong(d, HadesRpc.TXN), (int) Bytes.getLong(d, HadesRpc.GID));
        e.fallback = true;
        int reads = (int) Bytes.getLong(d, HadesRpc.COUNT), writes = (int) Bytes.getLong(d, HadesRpc.ITEMS);
        lines(d, reads + writes, HadesRpc.ITEMS + 8);
        for (int k = 0; k < reads; k++) e.read.add(lines[k]);
        for (int k = reads; k < reads + writes; k++) e.write.add(lines[k]);
        return e.locked ? !conflicts(e, e.write.exact, e.read.exact) : lock(e, e.write.exact, e.read.exact) == Lock.OK;
    }

    /**
     * Validation of attempt {@code txnId} (target steps 4 and 5): the records of its payload {@code d[from, to)}
     * reach memory, then its entry is unlocked and cleared.
     */
    void validate(long txnId, byte[] d, int from, int to, RegisteredMemory m) {
        if (!entries.containsKey(txnId)) throw new IllegalStateException("hades: Validation of attempt " + txnId + " at node " + node + ", which holds no entry of it");
        int p = from;
        while (p < to) {
            Table t = protocol.cluster.store.table((int) Bytes.getLong(d, p + RemoteEntry.V_TABLE));
            long off = Bytes.getLong(d, p + RemoteEntry.V_OFFSET);
            int span = t.tupleBytes - HadesTuple.WID;
            m.write(t.region(), off + HadesTuple.WID, d, p + RemoteEntry.V_TUPLE, span);
            p += RemoteEntry.V_TUPLE + HadesTuple.align8(span);
        }
        release(txnId);
    }

    /** Validation landed, or the attempt's release message (it was squashed): unlock and clear its entry, if any. */
    void release(long txnId) {
        RemoteEntry e = entries.remove(txnId);
        if (e == null) return;
        unlock(e);
        nic.remove(e);
        e.owner = null;
        e.clear();
        spare.add(e);
    }
}
