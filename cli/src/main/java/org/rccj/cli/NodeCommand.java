package org.rccj.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.fabrics.TcpFabricFactory;
import org.rccj.framework.run.Config;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.NodeReports;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.tcp.TcpFabric;
import org.rccj.primitives.tcp.TcpFailure;
import org.rccj.primitives.tcp.TcpSettings;
import org.rccj.results.ConsoleReport;
import org.rccj.results.ResultWriter;

/**
 * {@code rcc node CONFIG... --id I --hosts h0:port,h1:port,... --secret-file F [--out DIR]}: one node of a
 * {@code tcp} cluster, started by hand (ssh, pdsh), by {@code srun} (id and hosts from the Slurm environment) or by
 * the launcher behind {@code rcc run --set fabric=tcp}. Node 0 collects every node's report and writes the results.
 * Several CONFIGs run one after the other, each with its own start-up (node 0 writes DIR/&lt;name&gt; for each).
 */
final class NodeCommand implements Command {
    static final int DEFAULT_PORT = 7400;

    static final Options OPTIONS = new Options()
            .addOption(Option.builder("s").longOpt("set").hasArg().argName("key=value").desc("override a config key").build())
            .addOption(Option.builder().longOpt("id").hasArg().argName("I").desc("this node's id").build())
            .addOption(Option.builder().longOpt("hosts").hasArg().argName("h0:port,...").desc("every node's address").build())
            .addOption(Option.builder().longOpt("port").hasArg().argName("PORT").desc("base port under Slurm").build())
            .addOption(Option.builder().longOpt("secret-file").hasArg().argName("FILE").desc("the run's secret").build())
            .addOption(Option.builder("o").longOpt("out").hasArg().argName("DIR").desc("result directory (node 0)").build())
            .addOption(Option.builder().longOpt("join-timeout").hasArg().argName("S").desc("seconds to wait for every node").build())
            .addOption(Option.builder().longOpt("peer-timeout").hasArg().argName("S").desc("seconds a silent peer is tolerated").build())
            .addOption(Option.builder().longOpt("result-file").hasArg().argName("FILE").desc("(launcher) where node 0 leaves the result").build())
            .addOption(Option.builder().longOpt("watch-parent").desc("(launcher) stop when the parent process is gone").build());

    /** Where a node is and who the others are. */
    record Placement(int id, List<InetSocketAddress> hosts) {}

    @Override
    public int run(List<String> args, Context ctx) throws IOException {
        CommandLine cl = Args.parse("node", OPTIONS, args);
        List<String> files = cl.getArgList();
        if (files.isEmpty()) throw new ConfigException("node: missing CONFIG file; usage: rcc node CONFIG --id I --hosts h0:port,... --secret-file FILE");
        Placement place = placement(cl, System.getenv());
        if (!cl.hasOption("secret-file")) throw new ConfigException("node: --secret-file FILE is required (the run's secret, readable only by you)");
        byte[] secret = readSecret(ctx.resolve(cl.getOptionValue("secret-file")));
        if (cl.hasOption("result-file") && files.size() > 1) throw new ConfigException("node: --result-file takes one CONFIG");
        int exit = Exit.OK;
        for (String f : files) {
            Path file = ctx.resolve(f);
            String[] sets = cl.getOptionValues("set");
            List<String> all = new ArrayList<>();
            all.add("fabric=tcp");
            if (sets != null) all.addAll(List.of(sets));
            Config config = RunCommand.resolve(file, all.toArray(String[]::new));
            if (config.nodes() != place.hosts().size()) {
                throw new ConfigException("node: the cluster has " + place.hosts().size() + " nodes (--hosts or Slurm) but the config says nodes: "
                        + config.nodes() + "; make them agree");
            }
            Path out = null;
            if (place.id() == 0 && !cl.hasOption("result-file")) {
                Path base = cl.hasOption("out") ? ctx.resolve(cl.getOptionValue("out")) : ctx.resolve("out");
                out = files.size() > 1 || !cl.hasOption("out") ? base.resolve(RunCommand.safeDirName(config.name())) : base;
                String problem = ResultWriter.problemWith(out);
                if (problem != null) throw new ConfigException("--out: " + problem);
            }
            long join = Math.round(seconds(cl, "join-timeout", ((Number) config.fabricSetting(TcpFabricFactory.JOIN_TIMEOUT_S)).doubleValue()) * 1000);
            long peer = Math.round(seconds(cl, "peer-timeout", ((Number) config.fabricSetting(TcpFabricFactory.PEER_TIMEOUT_S)).doubleValue()) * 1000);
            int e = runOne(config, place, secret, join, peer, cl.hasOption("watch-parent"), out,
                    cl.hasOption("result-file") ? ctx.resolve(cl.getOptionValue("result-file")) : null, ctx);
            exit = Math.max(exit, e);
        }
        return exit;
    }

    private static int runOne(Config config, Placement place, byte[] secret, long joinMs, long peerMs, boolean watchParent,
                              Path out, Path resultFile, Context ctx) throws IOException {
        TcpSettings s = new TcpSettings(place.id(), place.hosts(), secret, digest(config), joinMs, peerMs, watchParent, ctx.err(),
                TcpSettings.Connections.of(String.valueOf(config.fabricSetting(TcpFabricFactory.CONNECTIONS))));
        if (place.id() == 0 && !watchParent) RunCommand.warnShortWarmup(config, ctx.err()); // rcc run warned already
        if (watchParent) return runNode(config, place, s, out, resultFile, ctx); // rcc run says it when interrupted
        // Ctrl-C on a node started by hand: one line saying so (the hook is removed when the node ends by itself)
        Thread interrupted = new Thread(() -> {
            ctx.err().println();
            ctx.err().println("rcc: node " + place.id() + ": interrupted");
        }, "rcc-node-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        ctx.err().println("rcc: node " + place.id() + " of " + config.nodes() + ": waiting for the other nodes (join timeout "
                + Math.round(joinMs / 1000.0) + " s)");
        try {
            return runNode(config, place, s, out, resultFile, ctx);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException ignored) {
                // shutting down: the hook runs
            }
        }
    }

    private static int runNode(Config config, Placement place, TcpSettings s, Path out, Path resultFile, Context ctx) throws IOException {
        TcpFabric fabric;
        try {
            fabric = TcpFabric.join(config.threads(), CostProfile.load(String.valueOf(config.fabricSetting("profile"))), s);
        } catch (TcpFailure f) {
            // the cluster never formed: a wrong secret, a node that did not come, a busy port: the user's to fix (exit 2)
            throw new ConfigException(f.getMessage());
        }
        if (place.id() != 0) ctx.err().println("rcc: node " + place.id() + " of " + config.nodes() + " joined; running '" + config.name() + "'");
        RunResult r;
        try {
            r = ExperimentRunner.run(config, place.id() == 0 ? ctx.err() : null, RunHooks.NONE, fabric);
        } catch (TcpFailure f) {
            throw new ClusterFailure(f.getMessage());
        } finally {
            fabric.close();
        }
        if (r == null) {                     // not node 0: node 0 has our report
            ctx.err().println("rcc: node " + place.id() + ": done; node 0 writes the results");
            return Exit.OK;
        }
        r.config = config;
        if (resultFile != null) {
            Path tmp = resultFile.resolveSibling(resultFile.getFileName() + ".part");
            Files.write(tmp, NodeReports.serialize(r));
            Files.move(tmp, resultFile, StandardCopyOption.ATOMIC_MOVE);
            return Exit.OK;
        }
        ResultWriter.write(r, out);
        ConsoleReport.print(r, ctx.out());
        ctx.out().println("results: " + out);
        if (config.verify() && !r.verification.passed()) {
            ctx.err().println("rcc: verification failed: " + (r.verification.serializable()
                    ? "a workload invariant does not hold" : "the history is not serializable") + " (exit code 1)");
            return Exit.VERIFICATION_FAILED;
        }
        return Exit.OK;
    }

    /** SHA-256 of the resolved config: nodes with different configs refuse each other. */
    static byte[] digest(Config c) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(c.toMap().toString().getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** --id and --hosts, else the Slurm environment (SLURM_PROCID, SLURM_NTASKS, SLURM_STEP_NODELIST or SLURM_JOB_NODELIST). */
    static Placement placement(CommandLine cl, Map<String, String> env) {
        int port = cl.hasOption("port") ? intOption(cl, "port", 1, 65535) : DEFAULT_PORT;
        if (cl.hasOption("hosts") || cl.hasOption("id")) {
            if (!cl.hasOption("hosts") || !cl.hasOption("id")) throw new ConfigException("node: --id and --hosts go together (or neither, under Slurm)");
            List<InetSocketAddress> hosts = new ArrayList<>();
            for (String h : cl.getOptionValue("hosts").split(",")) hosts.add(address(h.strip(), port));
            int id = intOption(cl, "id", 0, hosts.size() - 1);
            return new Placement(id, hosts);
        }
        String procid = env.get("SLURM_PROCID"), ntasks = env.get("SLURM_NTASKS");
        String list = env.getOrDefault("SLURM_STEP_NODELIST", env.get("SLURM_JOB_NODELIST"));
        if (procid == null || ntasks == null || list == null) {
            throw new ConfigException("node: give --id I and --hosts h0:port,h1:port,... (or run under srun, which sets SLURM_PROCID, SLURM_NTASKS and the node list)");
        }
        int id, n;
        try {
            id = Integer.parseInt(procid.strip());
            n = Integer.parseInt(ntasks.strip());
        } catch (NumberFormatException e) {
            throw new ConfigException("node: SLURM_PROCID '" + procid + "' / SLURM_NTASKS '" + ntasks + "' are not numbers");
        }
        List<String> names = expandHostList(list);
        if (names.isEmpty()) throw new ConfigException("node: empty Slurm node list '" + list + "'");
        int perHost = (n + names.size() - 1) / names.size();     // Slurm's default block distribution
        List<InetSocketAddress> hosts = new ArrayList<>();
        for (int i = 0; i < n; i++) hosts.add(InetSocketAddress.createUnresolved(names.get(Math.min(i / perHost, names.size() - 1)), port + i % perHost));
        List<InetSocketAddress> resolved = new ArrayList<>();
        for (InetSocketAddress a : hosts) resolved.add(new InetSocketAddress(a.getHostString(), a.getPort()));
        if (id < 0 || id >= n) throw new ConfigException("node: SLURM_PROCID " + id + " is not in 0.." + (n - 1));
        return new Placement(id, resolved);
    }

    /** Slurm's compressed host list: {@code a[01-03,07],b,c[1-2]} -> a01 a02 a03 a07 b c1 c2. */
    static List<String> expandHostList(String list) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = 0;
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (c == ',' && depth == 0) {
                parts.add(list.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(list.substring(start));
        for (String p : parts) {
            p = p.strip();
            if (p.isEmpty()) continue;
            int b = p.indexOf('[');
            if (b < 0) {
                out.add(p);
                continue;
            }
            String prefix = p.substring(0, b), ranges = p.substring(b + 1, p.indexOf(']'));
            for (String r : ranges.split(",")) {
                int dash = r.indexOf('-');
                if (dash < 0) {
                    out.add(prefix + r);
                    continue;
                }
                String lo = r.substring(0, dash), hi = r.substring(dash + 1);
                for (int v = Integer.parseInt(lo); v <= Integer.parseInt(hi); v++) {
                    String num = Integer.toString(v);
                    while (num.length() < lo.length()) num = "0" + num;
                    out.add(prefix + num);
                }
            }
        }
        return out;
    }

    private static InetSocketAddress address(String h, int defaultPort) {
        int colon = h.lastIndexOf(':');
        String host = colon < 0 ? h : h.substring(0, colon);
        int port = defaultPort;
        if (colon >= 0) {
            try {
                port = Integer.parseInt(h.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new ConfigException("node: --hosts: '" + h + "' has no port number after ':'");
            }
        }
        if (host.isEmpty() || port < 1 || port > 65535) throw new ConfigException("node: --hosts: '" + h + "' is not host:port");
        return new InetSocketAddress(host, port);
    }

    private static int intOption(CommandLine cl, String name, int lo, int hi) {
        String v = cl.getOptionValue(name);
        try {
            int i = Integer.parseInt(v.strip());
            if (i < lo || i > hi) throw new NumberFormatException();
            return i;
        } catch (NumberFormatException e) {
            throw new ConfigException("node: --" + name + " '" + v + "' must be a whole number in " + lo + ".." + hi);
        }
    }

    private static double seconds(CommandLine cl, String name, double dflt) {
        if (!cl.hasOption(name)) return dflt;
        try {
            double d = Double.parseDouble(cl.getOptionValue(name));
            if (!(d > 0) || d > 86400) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException e) {
            throw new ConfigException("node: --" + name + " '" + cl.getOptionValue(name) + "' must be seconds in (0, 86400]");
        }
    }

    /** The secret file must exist, be non-empty and be readable by its owner only. */
    static byte[] readSecret(Path f) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(f);
            for (PosixFilePermission p : perms) {
                if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
                    throw new ConfigException("node: --secret-file " + f + " is accessible to other users; chmod 600 it");
                }
            }
            byte[] b = Files.readAllBytes(f);
            if (b.length < 16) throw new ConfigException("node: --secret-file " + f + " holds fewer than 16 bytes; put a long random secret in it");
            return b;
        } catch (UnsupportedOperationException e) {
            throw new ConfigException("node: --secret-file " + f + ": the file system has no POSIX permissions to check");
        } catch (IOException e) {
            throw new ConfigException("node: --secret-file " + f + ": cannot read it (" + e.getMessage() + ")");
        }
    }

}
