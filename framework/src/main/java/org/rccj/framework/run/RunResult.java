package org.rccj.framework.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rccj.framework.api.Stage;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.primitives.Counters;

/**
 * Everything one run measured, before it is written out (the results module turns it into
 * summary.json, stages.csv and timeline.csv, docs/architecture.md). Times are ns unless a name says otherwise.
 */
public final class RunResult implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Not sent along when a result travels between processes (tcp): the receiver has its own. */
    public transient Config config;
    /** Length of the measured interval, seconds (virtual on sim). */
    public double measuredS;
    /** All committed transactions in the measured interval; latency = first attempt to commit. */
    public final TxnTypeStats total = new TxnTypeStats();
    /** Per transaction type, in the workload's declared order. */
    public final Map<String, TxnTypeStats> perType = new LinkedHashMap<>();
    /** Concurrency-control abort counts by reason (sorted by name for stable output). */
    public final Map<String, Long> abortReasons = new TreeMap<>();
    /** Per stage: duration of the stage in each transaction attempt that ran it; protocol stage order. */
    public final Map<Stage, Histogram> stages = new LinkedHashMap<>();
    /**
     * The parts of a committed transaction's latency outside its protocol stages (summary.json's
     * {@code outside_stages.parts}, stages.csv's {@code outside:<part>} rows): {@code execute} (the committed
     * attempt's workload logic, fetches excluded), {@code between_stages} (the rest of the committed attempt that
     * no stage timer covers: CPU between stages, building items and parsing replies, waits for the core or the
     * poller outside a stage), {@code aborted_attempts} (the transaction's aborted attempts outside their stages),
     * {@code backoff} (between an aborted attempt and the next). Two more parts reconcile the stages' totals, which
     * count the stage time of every transaction by when each stage started, with the latency of the measured
     * commits, so that stages + outside = mean latency exactly: {@code rolled_back_transactions} (minus the stage
     * time of the transactions the workload's logic rolled back, which no latency includes: zero or negative) and
     * {@code window_edges} (the rest: stage time of commits started in the warm-up, minus that of transactions
     * that end after the window or abort finally at its end; small, either sign)
     */
    public static final List<String> OUTSIDE_PARTS = org.rccj.framework.runtime.WorkerStats.OUTSIDE_PARTS;
    public static final String ROLLED_BACK = "rolled_back_transactions", WINDOW_EDGES = "window_edges";
    /** Of the measured commits: stage time (every attempt), and time outside the stages by OUTSIDE_PARTS, ns (summed). */
    public long committedStageNs;
    /** Stage time (every attempt) of the transactions rolled back by the workload's logic in the measured interval, ns. */
    public long rolledBackStageNs;
    public long[] outsideNs = new long[OUTSIDE_PARTS.size()];

    /** Critical paths of the ops waited for, per stage (sim only: empty on the other fabrics). */
    public final org.rccj.framework.stats.PathTotals paths = new org.rccj.framework.stats.PathTotals();

    /** Execution (workload logic between fetches), reported beside the stages as "EXECUTE". */
    public final Histogram execute = new Histogram();
    /** Operations posted during the measured interval. */
    public final Counters network = new Counters();
    /** Share of worker CPU time busy per node during the measured interval (-1 unknown). */
    public double[] busyShare = new double[0];
    /** Committed transactions per timeline interval over the measured interval. */
    public long[] timeline = new long[0];
    public double timelineIntervalMs;
    /** Protocol- or workload-specific figures (e.g. DrTM fallback rate), flat name -> number. */
    public final Map<String, Double> extra = new LinkedHashMap<>();
    /** sim: the threads that simulated the run (sim.threads as used), and why it ran on one if it was forced to. */
    public int simThreads;
    public String simThreadsNote;
    /** Filled when verification ran. */
    public Verification verification = Verification.notChecked();
    /** Transaction types whose logic the run's profile gives no CPU cost for ({@code logic_ns.*}; sim only). */
    public List<String> freeLogic = List.of();
    /** How busy the host was around a wall-clock run (null on sim: virtual time does not see the host). */
    public HostLoad hostLoad;
    /** A multi-process run's nodes: each one's host and host load (summary.json's environment.host_load.nodes); empty otherwise. */
    public List<NodeHost> nodeHosts = List.of();

    /** One node of a multi-process run: its index, host name and the load on its host during the run (null: unknown). */
    public record NodeHost(int node, String host, HostLoad load) implements java.io.Serializable {
        /** This machine's host name ("?" when it cannot be found). */
        public static String hostName() {
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException | RuntimeException e) {
                return "?";
            }
        }
    }
    /** What a {@code warmup_ms: auto} warm-up did (summary.json's {@code warmup}); null with a fixed warm-up. */
    public Warmup warmup;

    /**
     * A {@code warmup_ms: auto} warm-up (decision 0210).
     * @param boundMs the longest it was allowed to take
     * @param tookMs from the run's start to the measured window's start (node 0's decision plus {@code AutoWarmup.LEAD_MS})
     * @param steady whether the rule held ({@code AutoWarmup.RULE}); false: the bound ended it
     * @param bucketMs the length of the intervals the rule looked at (as planned; each one's end is in {@code bucketEndMs})
     * @param bucketEndMs each interval's end, ms after the run's start
     * @param bucketCommits the commits in each (the process's: node 0's on tcp and ucx)
     * @param bucketTps the throughput of each
     * @param nodeStartMs per node, when its workers' window started, ms after the run's start (NaN: it never did)
     */
    public record Warmup(double boundMs, double tookMs, boolean steady, long bucketMs, double[] bucketEndMs, long[] bucketCommits,
                         double[] bucketTps, double[] nodeStartMs)
            implements java.io.Serializable {
        /** True when every node's window started at the same instant. */
        public boolean nodesAgree() {
            for (double s : nodeStartMs) if (Double.compare(s, nodeStartMs[0]) != 0) return false;
            return true;
        }
    }

    /** Simulator statistics (sim only): wall-clock seconds of the run, events processed. */
    public double wallS;
    public long simEvents;
    /** CPU seconds of the thread that ran the simulation (sim: the whole cluster runs on it). */
    public double cpuS;
    /** Transactions committed in the whole simulated run, warm-up included (for simulator speed). */
    public long simCommitsTotal;

    public long commits() { return total.commits; }
    /** Concurrency-control aborts (retried). */
    public long aborts() { return total.aborts; }
    /** Workload-logic rollbacks (final; neither commits nor aborts). */
    public long rolledBack() { return total.rolledBack; }
    public double abortRate() {
        long attempts = total.commits + total.aborts;
        return attempts == 0 ? 0 : (double) total.aborts / attempts;
    }
    public double throughputTps() { return measuredS <= 0 ? 0 : total.commits / measuredS; }

    /** Result of the serializability check and the workload invariants. */
    public record Verification(boolean checked, boolean serializable, long txnsChecked, List<String> anomalies,
                               Map<String, Boolean> invariants) implements java.io.Serializable {
        public static Verification notChecked() { return new Verification(false, false, 0, List.of(), Map.of()); }

        /**
         * True when verification ran and found no committed transaction to check: nothing was verified, so this is
         * not a pass (issue 38, decision 0161).
         */
        public boolean nothingCommitted() { return checked && txnsChecked == 0; }

        /** True when verification ran, checked at least one committed transaction, and everything held. */
        public boolean passed() { return checked && txnsChecked > 0 && serializable && !invariants.containsValue(false); }

        /** Why a verified run did not pass, for the line before exit code 1; null when it passed or was not checked. */
        public String failure() {
            if (!checked || passed()) return null;
            if (nothingCommitted()) return "verification not done: no transaction committed, so there was nothing to check; "
                    + "raise " + Config.DURATION_MS.key() + " (or " + Config.WARMUP_MS.key() + ") or check the config (exit code 1)";
            return "verification failed: " + (serializable ? "a workload invariant does not hold" : "the history is not serializable")
                    + " (exit code 1)";
        }
    }
}
