package org.rccj.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.fabrics.cluster.ClusterFabricFactory;
import org.rccj.fabrics.cluster.ClusterFailure;
import org.rccj.fabrics.cluster.ClusterSecret;
import org.rccj.fabrics.cluster.ClusterSettings;
import org.rccj.fabrics.cluster.ConfigDigest;
import org.rccj.fabrics.cluster.LauncherWatch;
import org.rccj.fabrics.cluster.LocalLauncher;
import org.rccj.fabrics.cluster.Membership;
import org.rccj.framework.run.Config;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.NodeReports;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.Registry;
import org.rccj.primitives.Fabric;
import org.rccj.results.ConsoleReport;
import org.rccj.results.ResultWriter;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;
import org.rccj.experiments.Runs;

/**
 * {@code rcc node CONFIG... --id I --hosts h0:port,h1:port,... --secret-file F [--out DIR]}: one node of a
 * multi-process cluster ({@code tcp}, unless the config or {@code --set fabric=} names another {@link ClusterFabricFactory}), started
 * by hand (ssh, pdsh), by {@code srun} (id and hosts from the Slurm environment) or by the launcher behind
 * {@code rcc run --set fabric=tcp}. The cluster's control plane ({@code org.rccj.fabrics.cluster}) does membership,
 * handshake, heartbeats and gathering; node 0 collects every node's report and writes the results. Several CONFIGs
 * run one after the other, each with its own start-up (node 0 writes DIR/&lt;name&gt; for each).
 */
final class NodeCommand implements Command {
    static final int DEFAULT_PORT = Membership.DEFAULT_PORT;

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
            .addOption(Option.builder().longOpt("watch-parent").desc("(launcher) stop when the launcher is gone (its process, and the end of stdin)").build())
            .addOption(Option.builder().longOpt("run-dir").hasArg().argName("DIR").desc("(launcher) the launcher's run directory, removed when it is gone").build());

    @Override
    public int run(List<String> args, Context ctx) throws IOException {
        CommandLine cl = Args.parse("node", OPTIONS, args);
        List<String> files = cl.getArgList();
        if (files.isEmpty()) throw new ConfigException("node: missing CONFIG file; usage: rcc node CONFIG --id I --hosts h0:port,... --secret-file FILE");
        Membership place = placement(cl, System.getenv());
        if (!cl.hasOption("secret-file")) throw new ConfigException("node: --secret-file FILE is required (the run's secret, readable only by you)");
        boolean fromLauncher = "-".equals(cl.getOptionValue("secret-file"));
        if ((fromLauncher || cl.hasOption("run-dir")) && !cl.hasOption("watch-parent")) {
            throw new ConfigException("node: --secret-file - and --run-dir are for nodes that rcc run starts (with --watch-parent)");
        }
        byte[] secret = null;
        if (cl.hasOption("watch-parent")) {
            // from here on the node stops by itself when its launcher is gone (LauncherWatch); the launcher's secret comes
            // on stdin, so it is never on disk
            secret = LauncherWatch.start(System.in, fromLauncher, cl.hasOption("run-dir") ? ctx.resolve(cl.getOptionValue("run-dir")) : null);
            if (fromLauncher && secret.length < 16) throw new ConfigException("node: --secret-file -: the launcher sent no secret on stdin");
        }
        if (!fromLauncher) secret = ClusterSecret.read(ctx.resolve(cl.getOptionValue("secret-file")));
        if (cl.hasOption("result-file") && files.size() > 1) throw new ConfigException("node: --result-file takes one CONFIG");
        int exit = Exit.OK;
        for (String f : files) {
            Path file = ctx.resolve(f);
            String[] sets = cl.getOptionValues("set");
            List<String> all = new ArrayList<>();
            // a config that names a multi-process fabric (ucx) keeps it; any other (sim, local) runs on tcp
            if (!clusterFabric(ConfigLoader.load(file).get(Config.FABRIC.key()))) all.add(Config.FABRIC.key() + "=tcp");
            if (sets != null) all.addAll(List.of(sets));
            Config config = RunCommand.resolve(file, all.toArray(String[]::new));
            if (!(config.fabricFactory() instanceof ClusterFabricFactory factory)) {
                throw new ConfigException("node: fabric " + config.fabric() + " runs in one process; rcc node runs a node of a multi-process fabric (tcp)");
            }
            if (config.nodes() != place.hosts().size()) {
                throw new ConfigException("node: the cluster has " + place.hosts().size() + " nodes (--hosts or Slurm) but the config says " + Config.NODES.key() + ": "
                        + config.nodes() + "; make them agree");
            }
            Path out = null;
            if (place.self() == 0 && !cl.hasOption("result-file")) {
                Path base = cl.hasOption("out") ? ctx.resolve(cl.getOptionValue("out")) : ctx.resolve("out");
                out = files.size() > 1 || !cl.hasOption("out") ? base.resolve(Runs.safeDirName(config.name())) : base;
                String problem = ResultWriter.problemWith(out);
                if (problem != null) throw new ConfigException("--out: " + problem);
            }
            long join = Math.round(seconds(cl, "join-timeout", factory.joinTimeoutS(config)) * 1000);
            long peer = Math.round(seconds(cl, "peer-timeout", factory.peerTimeoutS(config)) * 1000);
            ClusterSettings s = new ClusterSettings(place.self(), place.hosts(), secret, ConfigDigest.of(config), join, peer,
                    cl.hasOption("watch-parent"), ctx.err());
            int e = runOne(config, factory, s, out,
                    cl.hasOption("result-file") ? ctx.resolve(cl.getOptionValue("result-file")) : null, ctx);
            exit = Math.max(exit, e);
        }
        return exit;
    }

    private static int runOne(Config config, ClusterFabricFactory factory, ClusterSettings s, Path out, Path resultFile, Context ctx)
            throws IOException {
        if (s.self() == 0 && !s.watchParent()) Runs.warnShortWarmup(config, ctx.err()); // rcc run warned already
        if (s.watchParent()) return runNode(config, factory, s, out, resultFile, ctx); // rcc run says it when interrupted
        // Ctrl-C on a node started by hand: one line saying so (the hook is removed when the node ends by itself)
        Thread interrupted = new Thread(() -> {
            ctx.err().println();
            ctx.err().println("rcc: node " + s.self() + ": interrupted");
        }, "rcc-node-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        ctx.err().println("rcc: node " + s.self() + " of " + config.nodes() + ": waiting for the other nodes (join timeout "
                + Math.round(s.joinTimeoutMs() / 1000.0) + " s)");
        try {
            return runNode(config, factory, s, out, resultFile, ctx);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException ignored) {
                // shutting down: the hook runs
            }
        }
    }

    private static int runNode(Config config, ClusterFabricFactory factory, ClusterSettings s, Path out, Path resultFile, Context ctx)
            throws IOException {
        Fabric fabric;
        try {
            fabric = factory.join(config, s);
        } catch (ClusterFailure f) {
            // the cluster never formed: a wrong secret, a node that did not come, a busy port: the user's to fix (exit 2)
            throw new ConfigException(f.getMessage());
        }
        if (s.self() != 0) ctx.err().println("rcc: node " + s.self() + " of " + config.nodes() + " joined; running '" + config.name() + "'");
        RunResult r;
        try {
            r = ExperimentRunner.run(config, s.self() == 0 ? ctx.err() : null, RunHooks.NONE, fabric);
        } finally {
            fabric.close();
        }
        if (r == null) {                     // not node 0: node 0 has our report
            ctx.err().println("rcc: node " + s.self() + LocalLauncher.DONE);
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
            ctx.err().println("rcc: " + r.verification.failure());
            return Exit.VERIFICATION_FAILED;
        }
        return Exit.OK;
    }

    /** Whether {@code name} is a registered multi-process fabric. */
    private static boolean clusterFabric(Object name) {
        return Registry.fabrics().stream().anyMatch(f -> f.name().equals(name) && f instanceof ClusterFabricFactory);
    }

    /** --id and --hosts, else the Slurm environment (SLURM_PROCID, SLURM_NTASKS, SLURM_STEP_NODELIST or SLURM_JOB_NODELIST). */
    static Membership placement(CommandLine cl, Map<String, String> env) {
        int port = cl.hasOption("port") ? Membership.wholeNumber("--port", cl.getOptionValue("port"), 1, 65535) : DEFAULT_PORT;
        if (cl.hasOption("hosts") || cl.hasOption("id")) {
            if (!cl.hasOption("hosts") || !cl.hasOption("id")) throw new ConfigException("node: --id and --hosts go together (or neither, under Slurm)");
            return Membership.of(cl.getOptionValue("hosts"), cl.getOptionValue("id"), port);
        }
        return Membership.slurm(env, port);
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
}
