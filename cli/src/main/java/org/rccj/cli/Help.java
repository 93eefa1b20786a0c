package org.rccj.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.rccj.framework.config.Config;
import org.rccj.framework.config.Param;
import org.rccj.results.Environment;

/** Help texts of {@code rcc} and of each command, available and planned. */
final class Help {
    /** Commands of design.md §6 that are not written yet, with what they will do. */
    static final Map<String, String> PLANNED = plannedCommands();

    private Help() {}

    private static Map<String, String> plannedCommands() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("sweep", "run a config over ranges of values (one result directory per point)");
        m.put("enumerate", "run every hybrid code of a protocol for a workload and rank them (hybrid.csv)");
        m.put("plot", "plot stage-latency breakdowns and sweeps from result directories (PNG, SVG)");
        m.put("node", "run one node of a multi-process cluster (tcp and rdma fabrics)");
        return m;
    }

    static String general() {
        StringBuilder sb = new StringBuilder();
        sb.append("rcc ").append(Environment.version())
          .append(" - compare distributed concurrency-control protocols over RDMA-style primitives (RCC-J)\n\n");
        sb.append("usage: rcc COMMAND [ARGS...]\n");
        sb.append("       rcc help COMMAND | rcc COMMAND --help | rcc --version\n\n");
        sb.append("commands:\n");
        sb.append("  run CONFIG [--set key=value]... [--out DIR]\n");
        sb.append("                 run one experiment; prints a report and writes DIR/summary.json,\n");
        sb.append("                 stages.csv and timeline.csv (default DIR: out/<name>)\n");
        sb.append("  list           protocols (stages, hybrid bits, options), workloads (settings),\n");
        sb.append("                 fabrics and cost profiles\n");
        sb.append("  verify HISTORY.jsonl\n");
        sb.append("                 check an exported history (history: FILE in a config) for serializability\n");
        sb.append("  help [COMMAND] this text, or a command's options and examples\n\n");
        sb.append("planned (not yet available; running them exits with code 2):\n");
        for (Map.Entry<String, String> e : PLANNED.entrySet()) {
            sb.append(String.format(Locale.ROOT, "  %-14s %s\n", e.getKey(), e.getValue()));
        }
        sb.append("\nexamples:\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set hybrid=READ+COMMIT --set nodes=2\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set workload.hot_probability=0.5 --out out/hot50\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set verify=true --set history=history.jsonl\n");
        sb.append("  ./rcc verify history.jsonl\n");
        sb.append("  ./rcc list\n\n");
        sb.append(exitCodes());
        return sb.toString();
    }

    static String exitCodes() {
        return "exit codes: 0 success, 1 verification failed, 2 bad input (unknown command, option, key or value),\n"
                + "            3 internal error\n";
    }

    /** Help of a command, or null if there is no such command. */
    static String of(String command) {
        return switch (command) {
            case "run" -> run();
            case "list" -> list();
            case "verify" -> verify();
            case "help" -> "usage: rcc help [COMMAND]\n\nShows the general help, or the options and examples of COMMAND.\n";
            default -> {
                String planned = PLANNED.get(command);
                yield planned == null ? null
                        : "rcc " + command + ": " + planned + ".\n\nPlanned, not yet available in this version (design.md §6).\n";
            }
        };
    }

    static String run() {
        StringBuilder sb = new StringBuilder();
        sb.append("usage: rcc run CONFIG [--set key=value]... [--out DIR]\n\n");
        sb.append("Runs one experiment described by CONFIG (.json as JSON; .yaml, .yml or anything else as YAML),\n");
        sb.append("prints a report and writes the result directory DIR (summary.json, stages.csv, timeline.csv).\n");
        sb.append("A previous result in DIR is replaced; a non-empty directory that is not a result is never touched.\n\n");
        sb.append("options:\n");
        sb.append("  -s, --set key=value  override a config key after reading CONFIG; repeatable, applied in order.\n");
        sb.append("                       Dotted keys reach into sections (workload.hot_probability=0.5,\n");
        sb.append("                       faults.torn_reads=true). The value is a YAML scalar: 12 and 0.5 are numbers,\n");
        sb.append("                       true/false booleans, null or nothing after '=' is null, 'quoted' a string.\n");
        sb.append("  -o, --out DIR        result directory (default: out/<name> under the current directory;\n");
        sb.append("                       <name> is the config's name, else the CONFIG file name without extension)\n");
        sb.append("  -h, --help           this text\n\n");
        sb.append("config keys (rcc list shows each protocol's options and each workload's settings):\n");
        for (Param p : Config.TOP_LEVEL) sb.append(paramLine(p, "  "));
        sb.append("  workload             mapping: name (rcc list) plus the workload's settings; default smallbank\n");
        sb.append("  protocol_options     mapping: the protocol's options (rcc list)\n");
        sb.append("  faults               mapping:\n");
        for (Param p : Config.FAULTS) sb.append(paramLine(p, "    "));
        sb.append("\nexamples:\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set hybrid=READ+COMMIT --set nodes=2\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set hybrid=18 --out out/occ-18\n");
        sb.append("  ./rcc run examples/smallbank-occ.yaml --set fabric=local --set verify=true\n\n");
        sb.append("The run exits 1 when verify is true and the history is not serializable or an invariant fails.\n");
        sb.append(exitCodes());
        return sb.toString();
    }

    static String list() {
        return "usage: rcc list\n\n"
                + "Lists the protocols (description, stages with their hybrid-code bits, protocol_options), the\n"
                + "workloads (description and every setting with its type, accepted values, default and help),\n"
                + "the fabrics and the cost profiles found on the class path.\n\n"
                + "example:\n  ./rcc list\n";
    }

    static String verify() {
        return "usage: rcc verify HISTORY.jsonl\n\n"
                + "Checks a history exported by a run (history: FILE, design.md §8: one JSON object per committed\n"
                + "transaction) for serializability: builds the direct serialization graph (ww, wr, rw edges) and\n"
                + "reports every cycle with the transactions involved.\n\n"
                + "exit codes: 0 serializable, 1 not serializable, 2 missing or malformed history\n\n"
                + "example:\n"
                + "  ./rcc run examples/smallbank-occ.yaml --set history=history.jsonl && ./rcc verify history.jsonl\n";
    }

    /** One line per setting: key, type, default, accepted values, help. */
    static String paramLine(Param p, String indent) {
        String def = p.defaultValue() == null ? "null" : String.valueOf(p.defaultValue());
        String accepted = p.type() == Param.Type.LONG && p.min() <= Long.MIN_VALUE && p.max() >= Long.MAX_VALUE
                ? "any 64-bit integer" : p.accepted();
        return String.format(Locale.ROOT, "%s%-20s %-7s default %-10s %s; %s\n", indent, p.key(),
                p.type().name().toLowerCase(Locale.ROOT), def, accepted, p.help());
    }
}
