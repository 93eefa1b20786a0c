package org.rccj.framework.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks a committed history for conflict serializability (docs/architecture.md) by building Adya's direct
 * serialization graph and looking for cycles, plus the structural anomalies that make a history
 * impossible (lost updates, reads of uninstalled versions, duplicate version ids).
 *
 * <p>Nodes are the history's records (by position). Per (table, key): a version maps to the record that
 * installed it (0 is the initially loaded value). Edges:
 * <ul>
 *   <li>ww: installer(prev_version) → writer;</li>
 *   <li>wr: installer(version read) → reader;</li>
 *   <li>rw: reader of v → installer of the version whose prev_version is v.</li>
 * </ul>
 * Self edges are ignored. Everything is kept in primitive arrays (hash maps over (int, long) pairs,
 * the graph in CSR form) and the cycle search is an iterative Tarjan, so millions of transactions fit.
 */
public final class SerializabilityChecker {
    /** At most this many anomalies are listed; a final "... and N more" line counts the rest. */
    static final int MAX_LISTED = 20;
    /** A reported cycle longer than this is shortened in the middle. */
    private static final int MAX_CYCLE_EDGES_SHOWN = 6;

    private static final int WW = 0, WR = 1, RW = 2;
    private static final String[] KIND = {"ww", "wr", "rw"};
    private static final int KIND_SHIFT = 30;
    private static final int ENTRY_MASK = (1 << KIND_SHIFT) - 1;

    // Anomaly categories, listed in this order.
    private static final int CYCLE = 0, LOST_UPDATE = 1, UNKNOWN_VERSION = 2, DUPLICATE_VERSION = 3,
            MALFORMED = 4, CATEGORIES = 5;

    private final List<HistoryRecord> history;
    private final List<String> tableNames;
    private final int n;

    @SuppressWarnings("unchecked")
    private final List<String>[] listed = new List[CATEGORIES];
    private final long[] counts = new long[CATEGORIES];

    // Interned (table, key) pairs: key id -> table, key.
    private int[] keyTable;
    private long[] keyKey;
    private int keyCount;

    // Read entries: key id, reading record, version read.
    private int[] rKey, rTxn;
    private long[] rVer;
    // Write entries: key id, writing record, version installed, version replaced.
    private int[] wKey, wTxn;
    private long[] wVer, wPrev;

    // Graph in CSR form: out-edges of node u are off[u] .. off[u+1]-1; info = kind << 30 | entry.
    private int[] off, tgt, info;

    private SerializabilityChecker(List<HistoryRecord> history, List<String> tableNames) {
        this.history = history;
        this.tableNames = tableNames;
        this.n = history.size();
        for (int c = 0; c < CATEGORIES; c++) listed[c] = new ArrayList<>();
    }

    /** Checks the history; {@code tableNames} names the table ids used in the records. */
    public static CheckResult check(List<HistoryRecord> history, List<String> tableNames) {
        SerializabilityChecker c = new SerializabilityChecker(history, tableNames);
        c.flatten();
        c.checkTxnIds();
        PairIndex[] versionMaps = c.indexVersions();
        c.buildGraph(versionMaps[0], versionMaps[1], c.successorChain);
        c.findCycles();
        return new CheckResult(c.total() == 0, history.size(), c.anomalies());
    }

    // ---------------------------------------------------------------- anomalies

    /** Counts one anomaly; true if it is to be listed, in which case the caller adds its description. */
    private boolean note(int category) {
        counts[category]++;
        return listed[category].size() < MAX_LISTED;
    }

    private void list(int category, String description) {
        listed[category].add(description);
    }

    private long total() {
        long t = 0;
        for (long c : counts) t += c;
        return t;
    }

    private List<String> anomalies() {
        List<String> out = new ArrayList<>();
        for (int c = 0; c < CATEGORIES && out.size() < MAX_LISTED; c++) {
            for (String s : listed[c]) {
                if (out.size() == MAX_LISTED) break;
                out.add(s);
            }
        }
        long more = total() - out.size();
        if (more > 0) out.add("... and " + more + " more");
        return List.copyOf(out);
    }

    private String txn(int node) {
        return "T" + history.get(node).txn();
    }

    private String table(int t) {
        return t >= 0 && t < tableNames.size() ? tableNames.get(t) : "table" + t;
    }

    private String keyName(int keyId) {
        return table(keyTable[keyId]) + "#" + keyKey[keyId];
    }

    // ---------------------------------------------------------------- flattening

    private void flatten() {
        long reads = 0, writes = 0;
        for (int i = 0; i < n; i++) {
            HistoryRecord h = history.get(i);
            long[] r = h.reads(), w = h.writes();
            if (r != null) {
                if (r.length % 3 != 0) throw new IllegalArgumentException(
                        "T" + h.txn() + ": reads length " + r.length + " is not a multiple of 3");
                reads += r.length / 3;
            }
            if (w != null) {
                if (w.length % 4 != 0) throw new IllegalArgumentException(
                        "T" + h.txn() + ": writes length " + w.length + " is not a multiple of 4");
                writes += w.length / 4;
            }
        }
        if (reads > ENTRY_MASK || writes > ENTRY_MASK)
            throw new IllegalArgumentException("history too large: " + reads + " reads, " + writes + " writes");
        int rc = (int) reads, wc = (int) writes;
        rKey = new int[rc];
        rTxn = new int[rc];
        rVer = new long[rc];
        wKey = new int[wc];
        wTxn = new int[wc];
        wVer = new long[wc];
        wPrev = new long[wc];
        int initialKeys = Math.max(1024, (rc + wc) / 4);
        keyTable = new int[initialKeys];
        keyKey = new long[initialKeys];
        PairIndex keys = new PairIndex(initialKeys);
        int ri = 0, wi = 0;
        for (int i = 0; i < n; i++) {
            HistoryRecord h = history.get(i);
            long[] r = h.reads(), w = h.writes();
            if (r != null) {
                for (int j = 0; j < r.length; j += 3) {
                    rKey[ri] = intern(keys, (int) r[j], r[j + 1]);
                    rTxn[ri] = i;
                    rVer[ri] = r[j + 2];
                    ri++;
                }
            }
            if (w != null) {
                for (int j = 0; j < w.length; j += 4) {
                    wKey[wi] = intern(keys, (int) w[j], w[j + 1]);
                    wTxn[wi] = i;
                    wVer[wi] = w[j + 2];
                    wPrev[wi] = w[j + 3];
                    wi++;
                }
            }
        }
    }

    private int intern(PairIndex keys, int table, long key) {
        int id = keys.putIfAbsent(table, key, keyCount);
        if (id != PairIndex.ABSENT) return id;
        if (keyCount == keyTable.length) {
            keyTable = Arrays.copyOf(keyTable, keyCount * 2);
            keyKey = Arrays.copyOf(keyKey, keyCount * 2);
        }
        keyTable[keyCount] = table;
        keyKey[keyCount] = key;
        return keyCount++;
    }

    private void checkTxnIds() {
        PairIndex ids = new PairIndex(n);
        for (int i = 0; i < n; i++) {
            int first = ids.putIfAbsent(0, history.get(i).txn(), i);
            if (first != PairIndex.ABSENT)
                if (note(MALFORMED))
                    list(MALFORMED, "duplicate txn id " + txn(i) + " (records " + first + " and " + i + ")");
        }
    }

    // ---------------------------------------------------------------- version maps

    /** For every write entry, the next write entry with the same (key, prev_version), or ABSENT. */
    private int[] successorChain;

    /** Returns {installed: (key, version) -> write entry, successors: (key, prev) -> first write entry}. */
    private PairIndex[] indexVersions() {
        int wc = wKey.length;
        PairIndex installed = new PairIndex(wc);
        PairIndex successors = new PairIndex(wc);
        successorChain = new int[wc];
        for (int w = 0; w < wc; w++) {
            int k = wKey[w], t = wTxn[w];
            if (wVer[w] == 0) {
                if (note(MALFORMED)) list(MALFORMED, txn(t) + " installs " + keyName(k)
                        + " as version 0 (reserved for the loaded value)");
            } else {
                int other = installed.putIfAbsent(k, wVer[w], w);
                if (other != PairIndex.ABSENT && wTxn[other] != t) {
                    if (note(DUPLICATE_VERSION)) list(DUPLICATE_VERSION, "duplicate version: " + txn(wTxn[other])
                            + " and " + txn(t) + " both installed " + keyName(k) + " v" + wVer[w]);
                }
            }
            int head = successors.put(k, wPrev[w], w);
            successorChain[w] = head;
            // A fork: another transaction already replaced the same version of this key.
            for (int s = head; s != PairIndex.ABSENT; s = successorChain[s]) {
                if (wTxn[s] != t) {
                    if (note(LOST_UPDATE)) list(LOST_UPDATE, "lost update: " + txn(wTxn[s]) + " (v" + wVer[s]
                            + ") and " + txn(t) + " (v" + wVer[w] + ") both overwrote " + keyName(k) + " v" + wPrev[w]);
                    break;
                }
            }
        }
        return new PairIndex[] {installed, successors};
    }

    // ---------------------------------------------------------------- graph

    private int[] eSrc, eDst, eInfo;
    private int edgeCount;

    private void addEdge(int src, int dst, int kind, int entry) {
        if (edgeCount == eSrc.length) {
            int cap = (int) Math.min(Integer.MAX_VALUE - 8, (long) edgeCount * 3 / 2 + 16);
            if (cap <= edgeCount) throw new IllegalStateException("too many edges");
            eSrc = Arrays.copyOf(eSrc, cap);
            eDst = Arrays.copyOf(eDst, cap);
            eInfo = Arrays.copyOf(eInfo, cap);
        }
        eSrc[edgeCount] = src;
        eDst[edgeCount] = dst;
        eInfo[edgeCount] = kind << KIND_SHIFT | entry;
        edgeCount++;
    }

    private void buildGraph(PairIndex installed, PairIndex successors, int[] chain) {
        int initial = Math.max(16, rKey.length + wKey.length);
        eSrc = new int[initial];
        eDst = new int[initial];
        eInfo = new int[initial];
        for (int w = 0; w < wKey.length; w++) {
            long prev = wPrev[w];
            if (prev == 0) continue;
            int t = wTxn[w];
            int before = installed.get(wKey[w], prev);
            if (before == PairIndex.ABSENT) {
                if (note(UNKNOWN_VERSION)) list(UNKNOWN_VERSION, txn(t) + " overwrote " + keyName(wKey[w])
                        + " v" + prev + ", which no committed txn installed");
            } else if (wTxn[before] != t) {
                addEdge(wTxn[before], t, WW, w);
            }
        }
        for (int r = 0; r < rKey.length; r++) {
            int k = rKey[r], t = rTxn[r];
            long v = rVer[r];
            if (v != 0) {
                int source = installed.get(k, v);
                if (source == PairIndex.ABSENT) {
                    if (note(UNKNOWN_VERSION)) list(UNKNOWN_VERSION, txn(t) + " read " + keyName(k) + " v" + v
                            + ", which no committed txn installed");
                } else if (wTxn[source] != t) {
                    addEdge(wTxn[source], t, WR, r);
                }
            }
            for (int s = successors.get(k, v); s != PairIndex.ABSENT; s = chain[s]) {
                if (wTxn[s] != t) addEdge(t, wTxn[s], RW, s);
            }
        }
        // Counting sort by source into CSR.
        off = new int[n + 1];
        for (int e = 0; e < edgeCount; e++) off[eSrc[e] + 1]++;
        for (int u = 0; u < n; u++) off[u + 1] += off[u];
        tgt = new int[edgeCount];
        info = new int[edgeCount];
        int[] fill = Arrays.copyOf(off, n);
        for (int e = 0; e < edgeCount; e++) {
            int p = fill[eSrc[e]]++;
            tgt[p] = eDst[e];
            info[p] = eInfo[e];
        }
        eSrc = eDst = eInfo = null;
        successorChain = null;
    }

    // ---------------------------------------------------------------- cycles

    /** Iterative Tarjan; each strongly connected component of two or more nodes holds a cycle. */
    private void findCycles() {
        int[] index = new int[n];   // 0 = not yet visited; otherwise discovery order starting at 1
        int[] low = new int[n];
        int[] comp = new int[n];    // component id, -1 while on the Tarjan stack
        int[] stack = new int[n];   // Tarjan stack of nodes
        int[] call = new int[n];    // explicit DFS call stack
        int[] next = new int[n];    // next out-edge position to explore per node
        int sp = 0, counter = 0, comps = 0;
        int[] roots = new int[16];
        int[] sizes = new int[16];
        int nonTrivial = 0;
        for (int s = 0; s < n; s++) {
            if (index[s] != 0) continue;
            int csp = 0;
            index[s] = low[s] = ++counter;
            comp[s] = -1;
            stack[sp++] = s;
            call[csp++] = s;
            next[s] = off[s];
            while (csp > 0) {
                int v = call[csp - 1];
                if (next[v] < off[v + 1]) {
                    int w = tgt[next[v]++];
                    if (index[w] == 0) {
                        index[w] = low[w] = ++counter;
                        comp[w] = -1;
                        stack[sp++] = w;
                        call[csp++] = w;
                        next[w] = off[w];
                    } else if (comp[w] == -1 && index[w] < low[v]) {
                        low[v] = index[w];
                    }
                } else {
                    csp--;
                    if (low[v] == index[v]) {
                        int size = 0, x;
                        do {
                            x = stack[--sp];
                            comp[x] = comps;
                            size++;
                        } while (x != v);
                        if (size > 1) {
                            if (nonTrivial == roots.length) {
                                roots = Arrays.copyOf(roots, nonTrivial * 2);
                                sizes = Arrays.copyOf(sizes, nonTrivial * 2);
                            }
                            roots[nonTrivial] = v;
                            sizes[nonTrivial] = size;
                            nonTrivial++;
                        }
                        comps++;
                    }
                    if (csp > 0) {
                        int u = call[csp - 1];
                        if (low[v] < low[u]) low[u] = low[v];
                    }
                }
            }
        }
        index = low = stack = call = next = null;
        if (nonTrivial == 0) return;
        // Describe a shortest cycle through the root of each listed component (breadth-first search
        // restricted to the component; components are disjoint, so the marks need no resetting).
        int[] parentEdge = new int[n];
        Arrays.fill(parentEdge, -1);
        int[] parentNode = new int[n];
        int[] queue = new int[n];
        for (int c = 0; c < nonTrivial; c++) {
            if (note(CYCLE)) list(CYCLE, describeCycle(roots[c], sizes[c], comp, parentEdge, parentNode, queue));
        }
    }

    private String describeCycle(int root, int sccSize, int[] comp, int[] parentEdge, int[] parentNode, int[] queue) {
        int c = comp[root];
        int head = 0, tail = 0;
        queue[tail++] = root;
        int closingEdge = -1, last = -1;
        search:
        while (head < tail) {
            int u = queue[head++];
            for (int p = off[u]; p < off[u + 1]; p++) {
                int w = tgt[p];
                if (w == root) {
                    closingEdge = p;
                    last = u;
                    break search;
                }
                if (comp[w] == c && parentEdge[w] == -1) {
                    parentEdge[w] = p;
                    parentNode[w] = u;
                    queue[tail++] = w;
                }
            }
        }
        if (closingEdge < 0) throw new IllegalStateException("no cycle through SCC root " + txn(root));
        // Walk back from last to root collecting edge positions, then print forwards.
        int len = 1;
        for (int x = last; x != root; x = parentNode[x]) len++;
        int[] edges = new int[len];
        int[] from = new int[len];
        edges[len - 1] = closingEdge;
        from[len - 1] = last;
        int i = len - 2;
        for (int x = last; x != root; x = parentNode[x], i--) {
            edges[i] = parentEdge[x];
            from[i] = parentNode[x];
        }
        StringBuilder sb = new StringBuilder("cycle");
        if (sccSize > len) sb.append(" (component of ").append(sccSize).append(" txns)");
        sb.append(": ").append(txn(root));
        for (int e = 0; e < len; e++) {
            if (len > MAX_CYCLE_EDGES_SHOWN && e == MAX_CYCLE_EDGES_SHOWN - 2) {
                sb.append(" ... (").append(len - MAX_CYCLE_EDGES_SHOWN + 1).append(" more edges)");
                e = len - 1;
                sb.append(" ").append(txn(from[e]));
            }
            sb.append(" -").append(edgeLabel(info[edges[e]])).append("-> ").append(txn(tgt[edges[e]]));
        }
        return sb.toString();
    }

    private String edgeLabel(int edgeInfo) {
        int kind = edgeInfo >>> KIND_SHIFT;
        int entry = edgeInfo & ENTRY_MASK;
        if (kind == WR) return "wr(" + keyName(rKey[entry]) + " v" + rVer[entry] + ")";
        return KIND[kind] + "(" + keyName(wKey[entry]) + " v" + wPrev[entry] + "->v" + wVer[entry] + ")";
    }
}
