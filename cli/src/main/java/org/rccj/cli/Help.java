package org.rccj.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.run.Config;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.Registry;
import org.rccj.results.Environment;
import org.rccj.experiments.Progress;
import org.rccj.experiments.Runs;

/** Help texts of {@code rcc} and of each command, available and planned. */
final class Help {
    /** Commands of docs/architecture.md that are not written yet, with what they will do. */
    static final Map<String, String> PLANNED = plannedCommands();

    private Help() {}

    private static Map<String, String> plannedCommands() {
        Map<String, String> m = new LinkedHashMap<>();
        return m;
    }

    static String general() {
        StringBuilder sb = new StringBuilder();
        sb.append("rcc ").append(Environment.version())
          .append(" - compare distributed concurrency-control protocols over RDMA-style primitives (RCC-J)\n\n");
        sb.append("usage: rcc COMMAND [ARGS...]\n");
        sb.append("       rcc help COMMAND | rcc COMMAND --help | rcc --version\n\n");
        sb.append("commands:\n");
        sb.append("  run CONFIG [--set key=value]... [--out DIR] [--force]\n");
        sb.append("                 run one experiment; prints a report and writes DIR/summary.json,\n");
        sb.append("                 stages.csv and timeline.csv (default DIR: out/<name>)\n");
        sb.append("  sweep CONFIG --vary key=v1,v2,... [--vary ...] [--repeat N] [--jobs J] [--set key=value]... [--out DIR]\n");
        sb.append("                 run every combination of the varied values (one result directory per point);\n");
        sb.append("                 writes sweep.csv (mean and 95% CI over seeds with --repeat)\n");
        sb.append("  enumerate CONFIG [--strategy exhaustive|guided] [--budget K] [--repeat N] [--jobs J] [--shard i/n] [--out DIR]\n");
        sb.append("                 run every hybrid code of the config's protocol (or the promising ones), rank them,\n");
        sb.append("                 write hybrid.csv; resumable; --shard splits the codes for a cluster array job\n");
        sb.append("  robust CONFIG [--profiles a,b,...] [--perturb 25%] [--budget N] [--repeat K] [--jobs J] [--out DIR]\n");
        sb.append("                 how robust the best hybrid code is: re-rank the top codes on other profiles and with\n");
        sb.append("                 each primitive parameter changed; tipping points; robust.csv, robust.png\n");
        sb.append("  merge DIR... --out DIR [--allow-partial]\n");
        sb.append("                 combine the shards of an enumeration into one (hybrid.csv as one full run)\n");
        sb.append("  plot DIR... [--out DIR]\n");
        sb.append("                 PNG and SVG charts: stage breakdowns, hybrid scatter, sweep lines\n");
        sb.append("  compare DIR DIR [DIR...]\n");
        sb.append("                 runs, sweeps or enumerations side by side: metrics, stage latencies, differences\n");
        sb.append("  list [examples|schema]\n");
        sb.append("                 protocols (stages, hybrid bits, options), workloads (settings), fabrics and\n");
        sb.append("                 cost profiles; the example configs; the JSON Schema of a config\n");
        sb.append("  verify HISTORY.jsonl\n");
        sb.append("                 check an exported history (history: FILE in a config) for serializability\n");
        sb.append("  bench [--profile NAME|FILE] [--csv FILE]\n");
        sb.append("                 calibration report: primitive micro-benchmarks on sim next to published figures\n");
        sb.append("  calibrate --fabric tcp|ucx|local --out PROFILE\n");
        sb.append("                 measure the primitives on a real fabric and write a sim profile fitted to them\n");
        sb.append("  validate CONFIG... --fabric F --profile PROFILE [--repeat N] [--out DIR]\n");
        sb.append("                 run configs on F and on sim with PROFILE, side by side: how far the simulator is\n");
        sb.append("  node CONFIG... --id I --hosts h0:port,... --secret-file FILE [--out DIR]\n");
        sb.append("                 one node of a fabric tcp or ucx cluster started by hand or by srun (rcc run spawns\n");
        sb.append("                 them itself on this host)\n");
        sb.append("  doctor         what this machine offers fabric ucx: UCX version and transports, RDMA devices,\n");
        sb.append("                 locked-memory limit, huge pages, and what to install or change\n");
        sb.append("  help [COMMAND] this text, or a command's options and examples\n\n");
        sb.append("A run, sweep or enumeration refuses (exit 2) to write into a directory holding results of something\n");
        sb.append("else (provenance.json records what made it) unless --force.\n");
        if (!PLANNED.isEmpty()) sb.append("\nplanned (not yet available; running them exits with code 2):\n");
        for (Map.Entry<String, String> e : PLANNED.entrySet()) {
            sb.append(String.format(Locale.ROOT, "  %-14s %s\n", e.getKey(), e.getValue()));
        }
        sb.append("\nexamples:\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set hybrid=READ+COMMIT --set nodes=2 --set replication=2 --out out/occ-2nodes\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set workload.hot_probability=0.5 --out out/hot50\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set verify=true --set history=history.jsonl --out out/occ-history\n");
        sb.append("  ./rcc verify history.jsonl\n");
        sb.append("  ./rcc sweep examples/smallbank-occ.yaml --vary coroutines=1,3,5,7,9,11 --out out/coro\n");
        sb.append("  ./rcc enumerate examples/smallbank-occ.yaml --set duration_ms=10 --jobs 2 --out out/occ-hybrid\n");
        sb.append("  ./rcc plot out/occ-hybrid\n");
        sb.append("  ./rcc list\n");
        sb.append("  ./rcc list examples\n\n");
        sb.append(exitCodes());
        return sb.toString();
    }

    static String exitCodes() {
        return "exit codes: 0 success, 1 verification failed, 2 bad input (unknown command, option, key or value;\n"
                + "            an output path that cannot be written; a run too large for memory; failed sweep points),\n"
                + "            3 internal error (one line naming a log file with the details), or a multi-process run\n"
                + "              stopped by a node that failed, hung or was stopped (one line naming the node)\n";
    }

    /** Help of a command, or null if there is no such command. */
    static String of(String command) {
        return switch (command) {
            case "run" -> run();
            case "list" -> list();
            case "verify" -> verify();
            case "sweep" -> sweep();
            case "enumerate" -> enumerate();
            case "robust" -> RobustCommand.help();
            case "merge" -> merge();
            case "plot" -> plot();
            case "bench" -> bench();
            case "calibrate" -> calibrate();
            case "validate" -> validate();
            case "node" -> node();
            case "compare" -> compare();
            case "doctor" -> "usage: rcc doctor [CONFIG [--set key=value]...]\n\n"
                    + "Reports what this machine offers a run on fabric ucx (the first thing to run on a cluster node): the\n"
                    + "JDK, the UCX library (version, where it was found: RCC_UCX_LIB_DIR or the dynamic linker's path), the\n"
                    + "transports UCX sees, RDMA devices (/sys/class/infiniband), the locked-memory limit RDMA registration\n"
                    + "needs, huge pages, and 'todo:' lines for what to install or change. With CONFIG, also the registered\n"
                    + "memory one node of that run needs (tables, indexes, logs), set against the locked-memory limit: an\n"
                    + "RDMA NIC pins all of it. Nothing is run or allocated.\n\n"
                    + "examples:\n  ./rcc doctor\n  ./rcc doctor examples/tpcc-drtmh.yaml --set fabric=ucx\n  srun -N2 ./rcc doctor\n";
            case "help" -> "usage: rcc help [COMMAND]\n\nShows the general help, or the options and examples of COMMAND.\n\n"
                    + "examples:\n  ./rcc help\n  ./rcc help sweep\n";
            default -> {
                String planned = PLANNED.get(command);
                yield planned == null ? null
                        : "rcc " + command + ": " + planned + ".\n\nPlanned, not yet available in this version (docs/architecture.md).\n";
            }
        };
    }

    static String node() {
        return "usage: rcc node CONFIG... [--id I --hosts h0:port,h1:port,...] --secret-file FILE [--set key=value]... [--out DIR]\n\n"
                + "Runs one node of a fabric tcp cluster (one process per node). rcc run --set fabric=tcp starts every node on\n"
                + "this host by itself; rcc node is for nodes started by hand (ssh, pdsh) or by srun. Node 0 collects every\n"
                + "node's statistics and history, verifies and writes the results (DIR, default out/<name>). With several\n"
                + "CONFIGs the nodes run them one after the other, each into DIR/<name>.\n\n"
                + "options:\n"
                + "  --id I               this node's id (0..nodes-1); under srun: SLURM_PROCID\n"
                + "  --hosts LIST         every node's host:port, node 0 first; a node listens on its own entry only.\n"
                + "                       Under srun: the step's node list (SLURM_STEP_NODELIST), ports from --port\n"
                + "  --port PORT          base port under Slurm (default " + NodeCommand.DEFAULT_PORT + "; +1 per further task on a host)\n"
                + "  --secret-file FILE   the run's shared secret, readable only by you (chmod 600); every node the same\n"
                + "  --join-timeout S     seconds to wait for the other nodes at start-up (default: the config's tcp.join_timeout_s, 60)\n"
                + "  --peer-timeout S     seconds a node may stay silent before the run stops (default: tcp.peer_timeout_s, 5)\n"
                + "  -s, --set key=value  override a config key (as rcc run); the resolved configs must agree on all nodes\n"
                + "  -o, --out DIR        result directory (node 0)\n\n"
                + "example (two hosts):\n"
                + "  host-a$ ./rcc node exp.yaml --id 0 --hosts host-a:7400,host-b:7400 --secret-file ~/.rcc-secret\n"
                + "  host-b$ ./rcc node exp.yaml --id 1 --hosts host-a:7400,host-b:7400 --secret-file ~/.rcc-secret\n\n"
                + "A node that dies, hangs or disconnects stops the run on every node (exit 3, no result).\n"
                + exitCodes();
    }

    static String run() {
        StringBuilder sb = new StringBuilder();
        sb.append("usage: rcc run CONFIG [--set key=value]... [--out DIR] [--force] [--explain STAGE]\n\n");
        sb.append("Runs one experiment described by CONFIG (.json as JSON; .yaml, .yml or anything else as YAML),\n");
        sb.append("prints a report and writes the result directory DIR (summary.json, stages.csv, timeline.csv).\n");
        sb.append("A previous result of the same config in DIR is replaced; a result of another config (DIR/provenance.json)\n");
        sb.append("is refused unless --force; a non-empty directory that is not a result is never touched. DIR and the\n");
        sb.append("history file are checked before the run. summary.json lists warnings (too few commits, a window\n");
        sb.append("shorter than the latency, an oversubscribed local run); the report prints them. On a terminal the run\n");
        sb.append("shows its progress (time done, commits so far).\n\n");
        sb.append("options:\n");
        sb.append("  -s, --set key=value  override a config key after reading CONFIG; repeatable, applied in order.\n");
        sb.append("                       Dotted keys reach into sections (workload.hot_probability=0.5,\n");
        sb.append("                       faults.torn_reads=true). The value is a YAML scalar: 12 and 0.5 are numbers,\n");
        sb.append("                       true/false booleans, null or nothing after '=' is null, 'quoted' a string.\n");
        sb.append("  -o, --out DIR        result directory (default: out/<name> under the current directory;\n");
        sb.append("                       <name> is the config's name, else the CONFIG file name without extension)\n");
        sb.append("      --force          replace a result of another config in DIR\n");
        sb.append("      --explain STAGE  after the run, print one op's critical path in STAGE term by term (sim only): the\n");
        sb.append("                       stage's mean call and one sampled call, each term in ns with the profile parameter\n");
        sb.append("                       it comes from (wire.one_way_ns = 850) or, for a wait, what it waits for; the terms\n");
        sb.append("                       add up to the op's latency (post until the coroutine runs again). STAGE: a stage of\n");
        sb.append("                       the protocol (rcc list) or outside_stages; summary.json's critical_path and\n");
        sb.append("                       stages.csv's cp_* columns hold every stage's means\n");
        sb.append("  -h, --help           this text\n\n");
        sb.append("config keys (rcc list shows each protocol's options and each workload's settings):\n");
        for (Param p : Config.TOP_LEVEL) sb.append(paramLine(p, "  "));
        sb.append("  workload             mapping: name (rcc list) plus the workload's settings; default smallbank\n");
        sb.append("  protocol_options     mapping: the protocol's options (rcc list)\n");
        for (FabricFactory f : Registry.fabrics()) {
            sb.append("  keys of fabric ").append(f.name()).append(f.parameters().isEmpty() ? ": none" : ":").append('\n');
            for (Param p : f.parameters()) sb.append(paramLine(p, "    "));
        }
        sb.append("\nexamples:\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set hybrid=READ+COMMIT --set nodes=2 --set replication=2 --out out/occ-2nodes\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set hybrid=18 --out out/occ-18\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set hybrid=all-onesided --explain LOCK\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set fabric=local --set verify=true --out out/occ-local\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set workload.name=ycsb --out out/ycsb-occ\n\n");
        sb.append("Switching workloads (--set workload.name=ycsb or --set workload=ycsb) drops the settings the new workload\n");
        sb.append("does not accept and says which.\n");
        sb.append("The run exits 1 when verify is true and the history is not serializable or an invariant fails.\n");
        sb.append(exitCodes());
        return sb.toString();
    }

    static String sweep() {
        return "usage: " + SweepCommand.USAGE + "\n\n"
                + "Runs CONFIG once per combination of the --vary values (the cartesian product; the first --vary varies\n"
                + "slowest). Every point's config is checked before anything runs. Each point gets a result directory\n"
                + "DIR/<key=value,...> (with ,seed=S per seed when repeated) and DIR/sweep.csv has one row per point:\n"
                + "point, the varied keys, protocol, hybrid, runs, throughput_tps, latency_mean/p50/p90/p95/p99_us, abort_rate\n"
                + "and <STAGE>_mean_us then <STAGE>_p99_us per stage; with --repeat N > 1 every metric is the mean over\n"
                + "seeds seed..seed+N-1, followed by <metric>_ci95, the half-width of its 95% confidence interval (Student t).\n"
                + "Points whose directory already holds a finished result of the same config are not run again. A point that\n"
                + "fails becomes a row with its reason in the failed column; the others go on and the sweep exits 2 (3 for an\n"
                + "internal error) naming the failed points. The warnings column lists the runs' summary.json warnings.\n"
                + "DIR/provenance.json records the command, base config and varied keys: a sweep of another base config or\n"
                + "other keys into DIR is refused unless --force (adding values to the same keys resumes and grows it).\n"
                + "Ctrl-C prints how many points are done; the same command resumes.\n\n"
                + "options:\n"
                + "  -v, --vary key=v1,v2,...  a config key (dotted, as for --set) and its values; repeatable\n"
                + "      --repeat N            runs per point with seeds seed, seed+1, ... (default 1)\n"
                + "  -j, --jobs J              runs in parallel (default: the number of cores); local-fabric runs\n"
                + "                            measure wall-clock time and always run one at a time\n"
                + "  -s, --set key=value       override a config key for every point (as for rcc run)\n"
                + "  -o, --out DIR             output directory (default out/<name>-sweep)\n"
                + "      --force               write into a directory made by another sweep, enumeration or run\n\n"
                + "Progress (runs done/total, elapsed, ETA) goes to stderr, in place on a terminal.\n\n"
                + "examples:\n"
                + "  ./rcc sweep examples/smallbank-occ.yaml --vary coroutines=1,3,5,7,9,11 --out out/coro\n"
                + "  ./rcc sweep examples/smallbank-occ.yaml --vary hybrid=all-rpc,all-onesided --vary workload.hot_probability=0.1,0.5,0.9 --repeat 3 --set duration_ms=10 --out out/hot\n"
                + "  ./rcc sweep examples/smallbank-occ.yaml --vary workload.name=smallbank,ycsb --set duration_ms=5 --out out/workloads\n"
                + "  ./rcc plot out/coro\n\n"
                + exitCodes();
    }

    static String enumerate() {
        return "usage: " + EnumerateCommand.USAGE + "\n\n"
                + "Runs the hybrid codes of CONFIG's protocol (all 2^stages of them: HybridCode.all), one result directory\n"
                + "DIR/hybrid=NN per code (,seed=S per seed when repeated), and writes DIR/hybrid.csv: one row per code with a\n"
                + "finished result in DIR, sorted by code: code, onesided (stage names joined by '+'), protocol, workload,\n"
                + "runs, then the metrics of sweep.csv. Prints the codes ranked by throughput, the best code and its gain\n"
                + "over the better of all-rpc and all-onesided. Resumable: codes whose directory holds a finished result of\n"
                + "the same config are not run again.\n\n"
                + "options:\n"
                + "      --strategy S          exhaustive (default): every code; guided: measure the probes, predict every\n"
                + "                            code's latency from their per-stage breakdowns, run only the best predicted\n"
                + "      --probes P            guided: pure (default; all-rpc and all-onesided, 2 runs) or flips (also every\n"
                + "                            single-stage flip of both, 2 + 2 x stages runs)\n"
                + "      --budget K            guided: codes to run after the probes (default " + EnumerateCommand.DEFAULT_BUDGET + ")\n"
                + "      --shard i/n           run only the codes whose position (ascending) modulo n is i-1; combine the\n"
                + "                            shards' directories with rcc merge (or point all shards at one shared DIR)\n"
                + "      --repeat N            runs per code with seeds seed, seed+1, ... (mean and 95% CI in hybrid.csv)\n"
                + "  -j, --jobs J              runs in parallel (default: the number of cores; local fabric: 1)\n"
                + "  -s, --set key=value       override a config key (as for rcc run; hybrid is set per code)\n"
                + "  -o, --out DIR             output directory (default out/<name>-hybrid)\n"
                + "      --force               write into a directory made by something else (see rcc help sweep)\n\n"
                + "On a complete exhaustive enumeration it also reports how many runs guided search would have needed to\n"
                + "find the winner (replayed on the results); guided search writes DIR/guided.csv (every code's prediction).\n\n"
                + "examples:\n"
                + "  ./rcc enumerate examples/smallbank-occ.yaml --set duration_ms=10 --set verify=false --jobs 2 --out out/occ\n"
                + "  ./rcc enumerate examples/smallbank-occ.yaml --strategy guided --budget 4 --out out/occ-guided\n"
                + "  ./rcc enumerate examples/smallbank-occ.yaml --shard 2/3 --out out/occ-shard2\n\n"
                + exitCodes();
    }

    static String merge() {
        return "usage: " + MergeCommand.USAGE + "\n\n"
                + "Combines the shards of one enumeration (rcc enumerate --shard i/n): copies their run directories into\n"
                + "the --out directory and writes its hybrid.csv, byte for byte what one unsharded run writes. All runs\n"
                + "must be of the same experiment (configs equal but for hybrid and seed; a difference is named). Codes\n"
                + "missing from the shards make it exit 2 without writing (so a Slurm afterok chain stops) unless\n"
                + "--allow-partial.\n\n"
                + "options:\n"
                + "  -o, --out DIR      the combined directory (required)\n"
                + "      --allow-partial  merge even when some codes have no result\n"
                + "      --force        write into a directory made by something else\n\n"
                + "examples:\n"
                + "  ./rcc enumerate examples/smallbank-occ.yaml --set duration_ms=1 --shard 1/2 --out out/occ-1\n"
                + "  ./rcc enumerate examples/smallbank-occ.yaml --set duration_ms=1 --shard 2/2 --out out/occ-2\n"
                + "  ./rcc merge out/occ-1 out/occ-2 --out out/occ\n\n"
                + exitCodes();
    }

    static String plot() {
        return "usage: " + PlotCommand.USAGE + "\n\n"
                + "Draws PNG and SVG charts (titled, with units and legends; one colour per stage, hybrid mode and protocol\n"
                + "in every figure) from result directories:\n"
                + "  an enumeration (hybrid.csv)  hybrid-scatter: mean latency vs throughput of every code; the pure codes, the\n"
                + "                               three fastest and the Pareto front labelled (RCC Fig. 14); stage-breakdown:\n"
                + "                               stacked stage latencies per code; stage-p99 and latency-cdf of the pure and\n"
                + "                               fastest codes\n"
                + "  several enumerations         also protocols: every protocol's all-rpc, all-onesided and best hybrid code\n"
                + "  a sweep (sweep.csv)          sweep-throughput, sweep-latency, sweep-p99 against the first varied key: lines\n"
                + "                               for a number, grouped bars for a category (95% CI error bars with --repeat);\n"
                + "                               stage-breakdown and stage-p99: a bar per point\n"
                + "  run directories              stage-breakdown (RCC Fig. 13), stage-p99, throughput-over-time (timeline.csv)\n"
                + "                               and latency-cdf (latency.hlog); a directory of run directories counts as all;\n"
                + "                               sim runs also critical-path: a stacked bar per stage, one segment per term of\n"
                + "                               an op's path (summary.json critical_path; rcc run --explain STAGE prints one)\n"
                + "More than 6 series or 32 bars become panels (one per protocol, else per workload) sharing one y range and\n"
                + "legend. Points whose summary.json lists warnings are marked (red cross; ' (!)' after a bar's label).\n"
                + "With several directories the file names start with the directory's name. A sweep.csv or hybrid.csv that\n"
                + "does not match the result directories beside it is refused; failed sweep points are left out.\n\n"
                + "options:\n"
                + "  -o, --out DIR   where the charts go (default: the directory given, or out/plots for several)\n\n"
                + "examples:\n"
                + "  ./rcc enumerate examples/smallbank-occ.yaml --set duration_ms=1 --out out/occ-hybrid\n"
                + "  ./rcc plot out/occ-hybrid\n"
                + "  ./rcc plot out/occ-hybrid/hybrid=00 out/occ-hybrid/hybrid=63 --out out/fig13\n\n"
                + exitCodes();
    }

    static String compare() {
        return "usage: " + CompareCommand.USAGE + "\n\n"
                + "Puts results of one kind side by side: runs (summary.json), sweeps (sweep.csv) or enumerations\n"
                + "(hybrid.csv). Points are matched by their varied values (sweeps) or hybrid code (enumerations); for each\n"
                + "point the table lists each input's figures (named A, B, C, ...), with '±' the 95% confidence half-width\n"
                + "where --repeat made one, and each input's difference to A, absolute and relative; a difference is starred\n"
                + "when both intervals are known and do not overlap. First come every setting that differs between the\n"
                + "inputs (protocol, workload, any key; what each input varies itself left out) and the runs' warnings.\n"
                + "The table is short by default: throughput, mean and p99 latency, abort rate, and for runs each stage's\n"
                + "time per committed transaction and the time outside stages, which add up to the mean latency. It ends\n"
                + "with \"where the difference comes from\": those terms ranked by how much they differ, each stage's as\n"
                + "calls per transaction x time per call (sweeps and enumerations: each input's best point).\n"
                + "Inputs of different kinds, sharing no point, or whose points differ in config beyond what they vary\n"
                + "(a directory resumed with another config) exit 2.\n\n"
                + "options:\n"
                + "  --full            every metric: also latency p50/p90/p95, each stage's mean per call and p99\n"
                + "  --metrics M,M...  only these metrics (names as in the table, e.g. throughput_tps,LOCK_us_per_txn)\n"
                + "  --csv FILE        also write the table as CSV (every metric, or those of --metrics)\n\n"
                + "examples:\n"
                + "  ./rcc compare out/occ-rpc out/occ-onesided\n"
                + "  ./rcc compare out/coro out/coro-replication2\n"
                + "  ./rcc compare out/occ-hybrid out/occ-hybrid-tpcc\n\n"
                + exitCodes();
    }

    static String list() {
        return "usage: rcc list [examples|schema]\n\n"
                + "Lists the protocols (description, stages with their hybrid-code bits, protocol_options), the\n"
                + "workloads (description and every setting with its type, accepted values, default and help),\n"
                + "the fabrics and the cost profiles found on the class path.\n"
                + "  examples  the example configs (examples/*.yaml) with their one-line purpose\n"
                + "  schema    the JSON Schema of a config (draft 2020-12), from the same declarations the config\n"
                + "            check uses; for editors: ./rcc list schema > config.schema.json\n\n"
                + "examples:\n  ./rcc list\n  ./rcc list examples\n  ./rcc list schema\n";
    }

    static String bench() {
        return "usage: " + BenchCommand.USAGE + "\n\n"
                + "The calibration report: the primitive micro-benchmarks on the sim fabric (round trips, peak verb rates,\n"
                + "READ vs RPC, coroutines, doorbell batching, passive ACK), each next to the figure published for the\n"
                + "hardware (DrTM+H, FaSST, DrTM) or the profile's stated assumption, with the relative error and the\n"
                + "tolerance (docs/calibration.md).\n\n"
                + "options:\n"
                + "      --profile NAME|FILE  cost profile (default " + org.rccj.primitives.CostProfile.DEFAULT + "; rcc list shows them)\n"
                + "      --csv FILE           also write the table as CSV; checked before the benchmarks run\n"
                + "      --fabric sim|tcp|ucx tcp, ucx: measure that fabric's primitives on this host instead (2 nodes)\n"
                + "      --threads N          (tcp, ucx) worker threads per node, each with its coroutines (default 1)\n"
                + "      --connections pair|thread  (tcp) connection layout, as the config key tcp.connections (default pair)\n"
                + "      --tls UCX_TLS        (ucx) transports UCX may use, as the config key ucx.tls (e.g. posix,self; default UCX's choice)\n\n"
                + "example:\n  ./rcc bench --csv bench.csv\n\n"
                + exitCodes();
    }

    static String calibrate() {
        return "usage: " + CalibrateCommand.USAGE + "\n\n"
                + "Measures the primitives on a real fabric of this host (2 nodes, node 1 -> node 0, 64 B: round trip per verb,\n"
                + "peak rates with 32 coroutines, RPC handler dispatch and reply, a doorbell batch, the coroutine switch on this\n"
                + "core) and writes a cost profile for sim fitted to them: each fitted parameter is moved until sim's run of the\n"
                + "same micro-benchmark gives the measured figure. Primitive level only, never a protocol result. Every parameter\n"
                + "in the file says how it was obtained (host, fabric, transport, time); what cannot be measured on the fabric\n"
                + "keeps the base profile's value and is listed as kept (docs/calibration.md, \"Calibrating on your own fabric\").\n"
                + "It also times this framework's own CPU costs on this core with plain loops: a local 8-byte CAS and READ on the\n"
                + "fabric's memory (cpu.local_op_ns), the per-access work of a replayed transaction (cpu.tuple_op_ns) and each\n"
                + "workload's logic per transaction type (logic_ns.*); and checks the round trip with 8 coroutines outstanding.\n"
                + "Progress goes to stderr. Takes about 2.5 minutes with the default --measure-ms 1000 (15 benchmarks x 3 runs of\n"
                + "1.33 s, the simulator's fit, 20 transaction types x 17 windows of 100 ms CPU time; longer on a loaded host),\n"
                + "less with a smaller --measure-ms.\n\n"
                + "options:\n"
                + "      --fabric tcp|ucx|local  the fabric measured\n"
                + "      --threads N          worker threads per node (default 1)\n"
                + "      --connections pair|thread  (tcp) connection layout, as the config key tcp.connections (default pair)\n"
                + "      --tls UCX_TLS        (ucx) the transports UCX may use, as the config key ucx.tls (e.g. posix,self); recorded\n"
                + "                           in the profile with the UCX version\n"
                + "      --base NAME          built-in profile for what is not measured (default " + org.rccj.primitives.CostProfile.DEFAULT + ")\n"
                + "      --measure-ms MS      measured window of each real benchmark (default 1000; a third of it warms up)\n"
                + "  -o, --out PROFILE        the profile file to write (checked before measuring)\n\n"
                + "Then run sim with it: --set profile=FILE (see also rcc validate).\n\n"
                + "example (on your cluster: --fabric ucx, or tcp, the nodes' own fabric; on one host, shared memory:\n"
                + "--fabric ucx --tls posix,self):\n"
                + "  ./rcc calibrate --fabric local --measure-ms 100 --out local.properties\n\n"
                + exitCodes();
    }

    static String validate() {
        return "usage: " + ValidateCommand.USAGE + "\n\n"
                + "Runs each CONFIG on the fabric F and on sim with PROFILE (same config otherwise), and prints per run\n"
                + "throughput, mean and p99 latency and every stage's time per committed transaction, real and sim side by side\n"
                + "with the ratio sim/real; then, per point (the configs that differ only in hybrid), the one-sided/RPC winner\n"
                + "on each side, per point and per stage, how many agree, and the mean absolute throughput error. Writes\n"
                + "DIR/validation.csv, DIR/validation.png/.svg (real against predicted throughput, one point per run, the\n"
                + "diagonal drawn) and every run's results under DIR/runs/.\n\n"
                + "options:\n"
                + "      --fabric tcp|ucx|local  the real fabric\n"
                + "      --tls UCX_TLS        (ucx) ucx.tls of the real runs (e.g. posix,self)\n"
                + "      --profile NAME|FILE  the sim profile to check (e.g. one written by rcc calibrate)\n"
                + "      --repeat N           real runs per config, seeds seed..seed+N-1 (default 1); sim runs each seed too\n"
                + "  -s, --set key=value      override a key in every config (e.g. duration_ms=500)\n"
                + "  -o, --out DIR            output directory (default out/validate)\n"
                + "      --force              write into a directory made by something else\n\n"
                + "examples (the ready set examples/validate/*.yaml runs on tcp: --fabric tcp --profile tcp.properties,\n"
                + "the profile from rcc calibrate --fabric tcp):\n"
                + "  ./rcc validate examples/validate/occ-rpc-c1.yaml examples/validate/occ-onesided-c1.yaml --fabric local --profile cx4-edr --set duration_ms=50\n\n"
                + exitCodes();
    }

    static String verify() {
        return "usage: rcc verify HISTORY.jsonl\n\n"
                + "Checks a history exported by a run (history: FILE, docs/architecture.md: one JSON object per committed\n"
                + "transaction) for serializability: builds the direct serialization graph (ww, wr, rw edges) and\n"
                + "reports every cycle with the transactions involved.\n\n"
                + "exit codes: 0 serializable, 1 not serializable, 2 missing or malformed history\n\n"
                + "example:\n"
                + "  ./rcc run examples/smallbank-occ.yaml --set history=history.jsonl --out out/occ-history && ./rcc verify history.jsonl\n";
    }

    /** Width of the key column of {@link #paramLine}; a longer key goes on a line of its own. */
    static final int KEY_WIDTH = 20;

    /**
     * One line per setting: key, type, default, accepted values, help; a key longer than the key column gets a line
     * of its own so the columns stay aligned. Test-only settings (help "test-only: ...") are not shown: "".
     */
    static String paramLine(Param p, String indent) {
        if (p.help().startsWith("test-only")) return "";
        String def = p.defaultValue() == null ? "null" : String.valueOf(p.defaultValue());
        String accepted = p.type() == Param.Type.LONG && p.min() <= Long.MIN_VALUE && p.max() >= Long.MAX_VALUE
                ? "any 64-bit integer" : p.accepted();
        String key = p.key().length() <= KEY_WIDTH ? String.format(Locale.ROOT, "%-" + KEY_WIDTH + "s", p.key())
                : p.key() + "\n" + indent + " ".repeat(KEY_WIDTH);
        return String.format(Locale.ROOT, "%s%s %-7s default %-10s %s; %s\n", indent, key,
                p.type().name().toLowerCase(Locale.ROOT), def, accepted, p.help());
    }
}
