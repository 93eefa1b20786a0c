package org.rccj.framework.run;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.rccj.framework.runtime.WorkerStats;
import org.rccj.framework.spi.Workload;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.ProcessGroup;
import org.rccj.primitives.RegisteredMemory;

/**
 * What each node of a multi-process run sends to node 0 after the run (its workers' sealed stats and history
 * shard, the protocol's figures, the workload's invariant tallies and, with {@code verify}, its final registered memory), and the merge there:
 * node 0 then collects, checks and writes results exactly as a single-process run does.
 */
public final class NodeReports {
    private NodeReports() {}

    /** Only these classes may arrive in a report or a result file; anything else is refused. */
    static final ObjectInputFilter FILTER = ObjectInputFilter.Config.createFilter(
            "maxdepth=20;maxrefs=100000000;"
            + "org.rccj.framework.run.NodeReports$Report;org.HdrHistogram.*;org.rccj.framework.runtime.WorkerStats;org.rccj.framework.stats.Histogram;org.rccj.framework.stats.PathTotals;"
            + "org.rccj.framework.stats.TxnTypeStats;org.rccj.framework.history.HistoryRecord;org.rccj.primitives.Counters;"
            + "org.rccj.framework.run.RunResult;org.rccj.framework.run.RunResult$Verification;org.rccj.framework.run.RunResult$NodeHost;"
            + "org.rccj.framework.run.RunResult$Warmup;"
            + "org.rccj.framework.run.HostLoad;org.rccj.framework.api.Stage;"
            + "java.util.ArrayList;java.util.LinkedHashMap;java.util.HashMap;java.util.TreeMap;java.util.ImmutableCollections$*;"
            + "java.util.CollSer;java.util.Map$Entry;java.lang.Enum;java.lang.Object;java.lang.String;java.lang.Number;java.lang.Long;java.lang.Double;java.lang.Boolean;!*");

    /** One node's report. */
    record Report(int node, WorkerStats[] workers, LinkedHashMap<String, Double> metrics, long[] tallies, byte[][] regions, String host,
                  HostLoad hostLoad) implements Serializable {}

    /** Every stats row and the merged protocol figures (node 0 only). */
    /** Every node's stats, the merged figures, and each node's host and host load (wall-clock fabrics; null entries where unknown). */
    public record Merged(WorkerStats[][] stats, Map<String, Double> metrics, List<RunResult.NodeHost> hosts) {}

    /** The memory layout every process must agree on: per node, each region's name and size. */
    public static byte[] descriptor(Fabric f) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(b)) {
            for (int n = 0; n < f.nodes(); n++) {
                RegisteredMemory m = f.memory(n);
                out.writeInt(m.regionCount());
                for (int r = 0; r < m.regionCount(); r++) {
                    out.writeUTF(m.regionName(r));
                    out.writeLong(m.regionSize(r));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return b.toByteArray();
    }

    /**
     * Sends this node's report to node 0. On node 0 returns every node's stats and the merged figures, with the
     * other nodes' final memory installed into their shadow copies here (when {@code memory}); elsewhere null.
     */
    public static Merged exchange(ProcessGroup group, Fabric fabric, Workload workload, WorkerStats[][] stats, Map<String, Double> metrics,
                                  boolean memory, HostLoad hostLoad) {
        int self = group.self();
        byte[][] regions = null;
        if (memory) {
            RegisteredMemory m = fabric.memory(self);
            regions = new byte[m.regionCount()][];
            for (int r = 0; r < regions.length; r++) {
                regions[r] = new byte[(int) m.regionSize(r)];
                m.read(r, 0, regions[r], 0, regions[r].length);
            }
        }
        String host = RunResult.NodeHost.hostName();
        byte[][] all = group.gather(serialize(new Report(self, stats[self], new LinkedHashMap<>(metrics), workload.tallies(), regions, host,
                hostLoad)));
        if (all == null) return null;
        List<Map<String, Double>> figures = new ArrayList<>();
        List<RunResult.NodeHost> hosts = new ArrayList<>();
        for (int n = 0; n < all.length; n++) {
            if (n == self) {
                figures.add(metrics);
                hosts.add(new RunResult.NodeHost(n, host, hostLoad));
                continue;
            }
            Report r = (Report) deserialize(all[n], "node " + n + "'s report");
            if (r.node() != n) throw new IllegalStateException("node " + n + " sent the report of node " + r.node());
            stats[n] = r.workers();
            figures.add(r.metrics());
            hosts.add(new RunResult.NodeHost(n, r.host(), r.hostLoad()));
            workload.addTallies(r.tallies());
            if (r.regions() != null) {
                RegisteredMemory m = fabric.memory(n);
                if (r.regions().length != m.regionCount()) throw new IllegalStateException("node " + n + " sent " + r.regions().length + " regions, expected " + m.regionCount());
                for (int k = 0; k < r.regions().length; k++) m.write(k, 0, r.regions()[k], 0, r.regions()[k].length);
            }
        }
        return new Merged(stats, mergeFigures(figures), hosts);
    }

    private static final Pattern AVERAGED = Pattern.compile(".*(_rate|_share|_per_node|_per_batch|_spread_us|_slots)$");

    /**
     * Protocol figures over the nodes: counts add up; a figure named max_... takes the largest; rates, shares,
     * per-node/per-batch means, the clock spread and slot counts are averaged over the nodes (unweighted).
     */
    static Map<String, Double> mergeFigures(List<Map<String, Double>> figures) {
        Map<String, Double> out = new LinkedHashMap<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (Map<String, Double> f : figures) {
            for (Map.Entry<String, Double> e : f.entrySet()) {
                String k = e.getKey();
                double v = e.getValue();
                seen.merge(k, 1, Integer::sum);
                if (k.startsWith("max_") || k.contains("_max_")) out.merge(k, v, Math::max);
                else out.merge(k, v, Double::sum);
            }
        }
        for (Map.Entry<String, Double> e : out.entrySet()) {
            if (AVERAGED.matcher(e.getKey()).matches()) e.setValue(e.getValue() / seen.get(e.getKey()));
        }
        return out;
    }

    public static byte[] serialize(Serializable o) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(b)) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize " + o.getClass().getSimpleName() + ": " + e, e);
        }
        return b.toByteArray();
    }

    /** Reads an object written by {@link #serialize}, accepting only the classes a report or a result holds. */
    public static Object deserialize(byte[] bytes, String what) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            in.setObjectInputFilter(FILTER);
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("cannot read " + what + ": " + e, e);
        }
    }
}
