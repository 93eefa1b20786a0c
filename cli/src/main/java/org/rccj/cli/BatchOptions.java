package org.rccj.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.Option;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.experiments.ConfigTrees;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.Context;
import org.rccj.experiments.Runs;

/** Options and config handling shared by the commands that run many experiments (sweep, enumerate). */
final class BatchOptions {
    /** {@code own} with the options every batch command takes after its own: --repeat, --jobs, --set, --out, --force. */
    static Options common(Options own) {
        return own.addOption(REPEAT).addOption(JOBS).addOption(SET).addOption(OUT).addOption(FORCE);
    }

    static final Option SET = Option.builder("s").longOpt("set").hasArg().argName("key=value").desc("override a config key").build();
    static final Option OUT = Option.builder("o").longOpt("out").hasArg().argName("DIR").desc("output directory").build();
    static final Option REPEAT = Option.builder().longOpt("repeat").hasArg().argName("N").desc("runs per point (seeds seed..seed+N-1)").build();
    static final Option FORCE = Option.builder().longOpt("force").desc("write into a directory made by something else").build();
    static final Option JOBS = Option.builder("j").longOpt("jobs").hasArg().argName("J").desc("runs in parallel").build();

    private BatchOptions() {}

    /** An integer option in [min, max], or {@code def} when absent. */
    static int integer(String command, CommandLine cl, String option, int def, int min, int max) {
        if (!cl.hasOption(option)) return def;
        String v = cl.getOptionValue(option).strip();
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new ConfigException(command + ": --" + option + " " + v + ": expected an integer in [" + min + ", " + max + "]");
        }
        if (n < min || n > max) throw new ConfigException(command + ": --" + option + " " + v + ": expected an integer in [" + min + ", " + max + "]");
        return n;
    }

    /** The real fabric of --fabric tcp|ucx|local (calibrate, validate: what sim is compared with); required. */
    static String realFabric(String command, CommandLine cl, String usage) {
        if (!cl.hasOption("fabric")) throw new ConfigException(command + ": missing --fabric (tcp, ucx or local); usage: " + usage);
        String fabric = cl.getOptionValue("fabric").strip();
        if (!List.of("tcp", "ucx", "local").contains(fabric)) {
            throw new ConfigException(command + ": --fabric '" + fabric + "'; accepted: tcp, ucx, local (the real fabric sim is compared with)");
        }
        if (!fabric.equals("ucx") && cl.hasOption("tls")) throw new ConfigException(command + ": --tls is a ucx setting (UCX_TLS); add --fabric ucx or drop it");
        return fabric;
    }

    /** --tls UCX_TLS of a ucx fabric ("" when absent: UCX's own choice). */
    static final Option TLS = Option.builder().longOpt("tls").hasArg().argName("UCX_TLS").desc("(ucx) the transports UCX may use, e.g. posix,self").build();
    /** --threads N and --connections pair|thread of the commands that start a 2-node cluster themselves (bench, calibrate). */
    static final Option THREADS = Option.builder().longOpt("threads").hasArg().argName("N").desc("worker threads per node of a real fabric").build();
    static final Option CONNECTIONS = Option.builder().longOpt("connections").hasArg().argName("pair|thread").desc("(tcp) connection layout").build();

    static String tls(CommandLine cl) { return cl.hasOption("tls") ? cl.getOptionValue("tls").strip() : ""; }

    /** The tcp fabric's key for its connection layout (its {@code Param}, found through the fabric SPI). */
    static final String TCP_CONNECTIONS = "tcp.connections";

    /**
     * The tcp connection layout of --connections (default: the fabric's), checked against the choices the tcp fabric
     * declares for {@link #TCP_CONNECTIONS} ({@code spi.Registry}: cli names no fabric class).
     */
    static String connections(String command, CommandLine cl) {
        org.rccj.framework.config.Param p = org.rccj.framework.spi.Registry.fabrics().stream().filter(f -> f.name().equals("tcp"))
                .flatMap(f -> f.parameters().stream()).filter(x -> x.key().equals(TCP_CONNECTIONS)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the tcp fabric declares no " + TCP_CONNECTIONS));
        if (!cl.hasOption("connections")) return String.valueOf(p.defaultValue());
        String v = cl.getOptionValue("connections").strip();
        if (!p.choices().contains(v)) throw new ConfigException(command + ": --connections '" + v + "'; accepted: " + String.join(", ", p.choices()));
        return v;
    }

    static int jobs(String command, CommandLine cl) {
        return integer(command, cl, "jobs", Runtime.getRuntime().availableProcessors(), 1, 1024);
    }

    static int repeat(String command, CommandLine cl) {
        return integer(command, cl, "repeat", 1, 1, 1000);
    }

    /** The single CONFIG argument. */
    static Path configFile(String command, CommandLine cl, Context ctx, String usage) {
        var positional = cl.getArgList();
        if (positional.isEmpty()) throw new ConfigException(command + ": missing CONFIG file; usage: " + usage);
        if (positional.size() > 1) {
            throw new ConfigException(command + ": expected one CONFIG file, got " + positional.size() + ": " + String.join(" ", positional)
                    + "; usage: " + usage);
        }
        return ctx.resolve(positional.get(0));
    }

    /** CONFIG with the --set overrides applied (a tree; the name defaults to the file's stem); notes go to {@code notes}. */
    static Map<String, Object> tree(Path file, String[] sets, java.util.function.Consumer<String> notes) {
        Map<String, Object> tree = ConfigLoader.load(file);
        // only a file that names its protocol or workload has a name (or file name) that may describe them
        String before = tree.containsKey(Config.PROTOCOL.key()) || tree.containsKey(Config.WORKLOAD) ? identity(tree) : null;
        boolean named = false;
        if (sets != null) {
            for (String s : sets) {
                String note = ConfigLoader.applySet(tree, s);
                if (note != null) notes.accept(note);
                named |= s.strip().startsWith("name=");
            }
        }
        if (!named && before != null && !identity(tree).equals(before)) {
            // the file's name (or its file name) describes the protocol and workload the overrides replaced
            String name = identity(tree);
            if (tree.containsKey("name") || !Runs.stem(file).equals(name)) notes.accept("named '" + name
                    + "' after the protocol and workload the overrides chose (set name=... to choose another)");
            tree.put("name", name);
        }
        if (!tree.containsKey("name")) tree.put("name", Runs.stem(file));
        return tree;
    }

    /** "WORKLOAD-PROTOCOL" of a config tree (defaults where unset), the name a run gets when overrides change either. */
    private static String identity(Map<String, Object> tree) {
        Object wl = tree.get("workload");
        String workload = wl instanceof Map<?, ?> m && m.get("name") != null ? String.valueOf(m.get("name"))
                : wl instanceof String w ? w : "smallbank"; // the default workload
        Object p = tree.getOrDefault(Config.PROTOCOL.key(), org.rccj.framework.run.Config.PROTOCOL.defaultValue());
        return workload + "-" + p;
    }

    /** Resolves a point's tree, rejecting what a batch cannot do (every run writing one history file). */
    static Config resolve(String command, Map<String, Object> tree) { return ConfigTrees.resolve(command, tree); }

    /** A deep copy of a config tree (maps copied, leaves shared). */
    static Map<String, Object> copy(Map<String, Object> tree) { return ConfigTrees.copy(tree); }

    /** The output directory: --out, else out/NAME under the working directory. */
    static Path out(CommandLine cl, Context ctx, String defaultName) {
        if (cl.hasOption("out")) {
            String v = cl.getOptionValue("out");
            if (v == null || v.isBlank()) throw new ConfigException("--out: empty directory name");
            return ctx.resolve(v);
        }
        return ctx.resolve("out").resolve(Runs.safeDirName(defaultName));
    }

    /** A directory name made of letters, digits and . _ + = , - only. */
    static String safeName(String s) { return ConfigTrees.safeName(s); }

    /** {@code dir} relative to the working directory when inside it, for messages. */
    static String display(Context ctx, Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        Path base = ctx.cwd().toAbsolutePath().normalize();
        return abs.startsWith(base) && !abs.equals(base) ? base.relativize(abs).toString() : abs.toString();
    }
}
