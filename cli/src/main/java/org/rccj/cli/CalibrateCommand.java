package org.rccj.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.experiments.calibrate.Calibration;
import org.rccj.experiments.calibrate.LogicCosts;
import org.rccj.experiments.calibrate.Calibration;
import org.rccj.experiments.calibrate.Verdicts;
import org.rccj.experiments.calibrate.LogicCosts;
import org.rccj.fabrics.bench.PrimitiveBench;
import org.rccj.framework.config.ConfigException;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Fabric;
import org.rccj.framework.spi.Registry;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.fabrics.Profiles;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;

/**
 * {@code rcc calibrate --fabric tcp|ucx|local [--threads N] [--connections pair|thread] [--tls UCX_TLS] [--base NAME] [--measure-ms MS] --out PROFILE}:
 * measures the primitives on a real fabric of this host and writes a sim cost profile fitted to them ({@link Calibration}).
 */
final class CalibrateCommand implements Command {
    static final String USAGE = "rcc calibrate --fabric tcp|ucx|local [--threads N] [--connections pair|thread] [--tls UCX_TLS] [--base NAME] [--measure-ms MS] --out PROFILE";
    static final Options OPTIONS = new Options()
            .addOption(Option.builder().longOpt("fabric").hasArg().argName("tcp|ucx|local").desc("the fabric measured").build())
            .addOption(BatchOptions.THREADS)
            .addOption(BatchOptions.CONNECTIONS)
            .addOption(BatchOptions.TLS)
            .addOption(Option.builder().longOpt("base").hasArg().argName("NAME").desc("built-in profile for what is not measured").build())
            .addOption(Option.builder().longOpt("measure-ms").hasArg().argName("MS").desc("measured window per benchmark").build())
            .addOption(Option.builder("o").longOpt("out").hasArg().argName("PROFILE").desc("profile file written").build());

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("calibrate", OPTIONS, args);
        if (!cl.getArgList().isEmpty()) {
            throw new ConfigException("calibrate: unexpected argument '" + cl.getArgList().get(0) + "'; usage: " + USAGE);
        }
        String fabric = BatchOptions.realFabric("calibrate", cl, USAGE);
        if (!cl.hasOption("out") || cl.getOptionValue("out").isBlank()) throw new ConfigException("calibrate: missing --out PROFILE; usage: " + USAGE);
        Path out = ctx.resolve(cl.getOptionValue("out").strip());
        if (Files.isDirectory(out)) throw new ConfigException("calibrate: --out " + out + " is a directory; give the profile file to write");
        OutputPaths.checkFile("calibrate: --out", out);
        if (!fabric.equals("tcp") && cl.hasOption("connections")) throw new ConfigException("calibrate: --connections is a tcp setting; drop it with --fabric " + fabric);
        int threads = BatchOptions.integer("calibrate", cl, "threads", 1, 1, 64);
        int measureMs = BatchOptions.integer("calibrate", cl, "measure-ms", 1000, 10, 600_000);
        String base = cl.hasOption("base") ? cl.getOptionValue("base").strip() : CostProfile.DEFAULT;
        if (!CostProfile.isBuiltIn(base)) {
            throw new ConfigException("calibrate: --base '" + base + "'; accepted: " + String.join(", ", CostProfile.known()));
        }
        long measureNs = measureMs * 1_000_000L, warmNs = Math.max(measureNs / 3, 10_000_000L);
        Calibration.Fabric f;
        if (fabric.equals("tcp")) {
            String layout = BatchOptions.connections("calibrate", cl);
            f = new Calibration.Fabric("tcp", "TCP sockets on loopback, connections per " + layout
                    + ", a network thread per node serving one-sided ops (2 nodes in this JVM)", true, 1, false, s -> {
                        try {
                            return ClusterBench.measure(s, "tcp", java.util.Map.of(BatchOptions.TCP_CONNECTIONS, layout), warmNs, measureNs);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }, () -> localOps("tcp", threads, java.util.Map.of(BatchOptions.TCP_CONNECTIONS, layout)));
        } else if (fabric.equals("ucx")) {
            String tls = BatchOptions.tls(cl);
            // UCX over shared memory or TCP: the target's worker progresses what UCX cannot do by itself (no NIC thread)
            f = new Calibration.Fabric("ucx", "UCX " + ucxVersion() + ", UCX_TLS " + (tls.isEmpty() ? "(UCX's choice)" : tls)
                    + ", one UCX worker per thread, progressed by the node's workers (2 nodes in this JVM)", true, 0, true, s -> {
                        try {
                            return ClusterBench.measure(s, "ucx", java.util.Map.of("ucx.tls", tls), warmNs, measureNs);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }, () -> localOps("ucx", threads, java.util.Map.of("ucx.tls", tls)));
        } else {
            f = new Calibration.Fabric("local", "threads of one JVM, in-memory queues; the issuing worker does one-sided ops itself", true, 0, true,
                    s -> PrimitiveBench.run(fabric("local", s.nodes(), s.threads(), base), s, warmNs, measureNs),
                    () -> {
                        try (Fabric lf = fabric("local", 2, threads, base)) {
                            return LogicCosts.localOpNs(lf.memory(0));
                        }
                    });
        }
        PrintStream o = ctx.out();
        Calibration.Outcome r = new Calibration(f, base, threads, Math.max(10_000_000L, measureNs / 10), ctx.err()).run();
        o.println("calibration on " + fabric + ": each figure measured, and the simulator's with the fitted profile");
        o.printf(Locale.ROOT, "%-52s %12s %12s %8s %-9s %s%n", "figure", "measured", "sim", "sim/real", "unit", "fits");
        int outside = 0;
        for (Calibration.Figure g : r.figures()) {
            String flag = Verdicts.flag(g.measured(), g.sim());
            if (!flag.isEmpty()) outside++;
            String fits = g.note().isEmpty() ? g.parameter() : g.parameter() + " " + g.note();
            o.printf(Locale.ROOT, "%-52s %12.4g %12.4g %8.3f %-9s %s%n", g.name(), g.measured(), g.sim(), g.sim() / g.measured(), g.unit(),
                    flag.isEmpty() ? fits : fits + "  " + flag);
        }
        if (outside > 0) {
            o.println(outside + " figure" + (outside == 1 ? "" : "s") + " OUTSIDE the tolerance of +-" + Math.round(100 * Verdicts.TOLERANCE)
                    + "%: the simulator with this profile does not reproduce " + (outside == 1 ? "it" : "them"));
        }
        o.println("kept from " + base + " (not measurable here): " + String.join(", ", r.kept().keySet()));
        try {
            Files.writeString(out, r.profileText());
        } catch (IOException e) {
            throw new ConfigException("calibrate: --out " + out + ": cannot write: " + OutputPaths.reason(e));
        }
        CostProfile.load(out.toString());   // what was written loads as a profile
        o.println("profile: " + BatchOptions.display(ctx, out));
        o.println(Verdicts.calibrate(fabric, r.figures()));
        return Exit.OK;
    }

    /** A local 8-byte CAS and READ on node 0's registered memory of a fresh 2-node cluster of {@code fabric} ({@link LogicCosts#localOpNs}). */
    private static double[] localOps(String fabric, int threads, java.util.Map<String, Object> keys) {
        try {
            List<org.rccj.primitives.Fabric> fabrics = ClusterBench.join(fabric, 2, threads, keys);
            try {
                return LogicCosts.localOpNs(fabrics.get(0).memory(0));
            } finally {
                for (org.rccj.primitives.Fabric x : fabrics) x.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The UCX version and library (ucx is compiled for a later Java than cli, so it is reached by name, as rcc doctor does). */
    static String ucxVersion() {
        try {
            return (String) Class.forName("org.rccj.ucx.Doctor").getMethod("version").invoke(null);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new ConfigException("calibrate: --fabric ucx: " + e.getCause().getMessage());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fabric built as a run builds it: through its factory in the registry, with the profile as its setting. */
    private static Fabric fabric(String name, int nodes, int threads, String profile) {
        FabricFactory f = Registry.fabrics().stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no fabric '" + name + "' registered"));
        return f.create(new FabricSetup(nodes, threads, java.util.Map.of(Profiles.KEY, profile)));
    }
}
