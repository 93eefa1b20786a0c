package org.rccj.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.primitives.CostProfile;
import org.rccj.experiments.config.ConfigSchema;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;

/** {@code rcc list}: what can be put in a config. */
final class ListCommand implements Command {
    @Override
    public int run(List<String> args, Context ctx) throws java.io.IOException {
        if (args.size() == 1 && args.get(0).equals("examples")) return examples(ctx);
        if (args.size() == 1 && args.get(0).equals("schema")) {
            ctx.out().print(ConfigSchema.json());
            return Exit.OK;
        }
        if (!args.isEmpty()) {
            throw new ConfigException("list: unknown argument '" + String.join(" ", args) + "'; accepted: nothing, examples, schema;"
                    + " see 'rcc help list'");
        }
        PrintStream out = ctx.out();
        out.println("protocols:");
        List<ProtocolFactory> protocols = Registry.protocols();
        if (protocols.isEmpty()) out.println("  (none on the class path)");
        for (ProtocolFactory p : protocols) {
            out.printf("  %-12s %s%n", p.name(), p.description());
            List<String> stages = new ArrayList<>();
            for (Stage s : p.stages()) stages.add(s.name() + "=" + s.bit);
            out.println("      stages:  " + String.join(" ", stages) + "   (" + HybridCode.all(p.stages()).size()
                    + " hybrid codes: the subsets of mask " + HybridCode.allOneSided(p.stages()).code()
                    + "; all-rpc = 0, all-onesided = " + HybridCode.allOneSided(p.stages()).code() + ")");
            List<Param> opts = p.parameters();
            if (opts.isEmpty()) {
                out.println("      protocol_options: none");
            } else {
                out.println("      protocol_options:");
                for (Param o : opts) out.print(Help.paramLine(o, "        "));
            }
        }
        out.println();
        out.println("workloads:");
        List<WorkloadFactory> workloads = Registry.workloads();
        if (workloads.isEmpty()) out.println("  (none on the class path)");
        for (WorkloadFactory w : workloads) {
            out.printf("  %-12s %s%n", w.name(), w.description());
            if (w.parameters().isEmpty()) out.println("      (no settings)");
            for (Param p : w.parameters()) out.print(Help.paramLine(p, "      "));
        }
        out.println();
        out.println("fabrics:");
        // only fabrics that exist (real RNICs are the ucx fabric's: UCX over verbs); nothing merely planned
        for (FabricFactory f : Registry.fabrics()) {
            out.printf("  %-12s %s%n", f.name(), f.description());
            for (Param p : f.parameters()) out.print(Help.paramLine(p, "      "));
        }
        out.println();
        out.println("transport (top-level keys; every fabric honours both values of local_access, sim, local and ucx both of passive_ack, tcp refuses passive_ack true; decisions 0118, 0119):");
        for (Param p : List.of(org.rccj.framework.run.Config.PASSIVE_ACK, org.rccj.framework.run.Config.LOCAL_ACCESS)) {
            out.print(Help.paramLine(p, "  "));
        }
        out.println();
        out.println("profiles (sim cost models, calibration.md):");
        for (String name : CostProfile.known()) {
            String desc;
            try {
                desc = CostProfile.load(name).description;
            } catch (RuntimeException e) {
                desc = "(cannot be loaded: " + e.getMessage() + ")";
            }
            out.printf("  %-12s %s%s%n", name, desc, name.equals(CostProfile.DEFAULT) ? " (default)" : "");
        }
        out.println("  or a profile file: key=value lines, base=NAME to start from a built-in one (calibration.md)");
        out.println("  codes that need loopback atomics on hardware whose NIC atomics are incoherent (cx4-edr, cx6-hdr):");
        out.println("  those that bind one-sided a stage posting NIC CAS/FAA on words a CPU path also updates (default protocol_options;");
        out.println("  NOWAIT adds RELEASE with read_locks: shared, whose RELEASE drops a read lock by FAA):");
        for (ProtocolFactory pf : Registry.protocols()) {
            List<Stage> s = pf.nicAtomicStages();
            long n = HybridCode.all(pf.stages()).stream().filter(h -> pf.needsLoopback(h.code())).count();
            out.printf("    %-12s %s%n", pf.name(), s.isEmpty() ? "none (no code needs it)"
                    : s.stream().map(Stage::name).collect(java.util.stream.Collectors.joining(" or ")) + " one-sided ("
                    + n + " of " + HybridCode.all(pf.stages()).size() + " codes)");
        }
        return Exit.OK;
    }

    /** The examples directory: ./examples if there is one, else the one beside the rcc launcher (-Drcc.home). */
    static Path examplesDir(Context ctx) {
        Path here = ctx.resolve("examples");
        if (Files.isDirectory(here)) return here;
        String home = System.getProperty("rcc.home");
        if (home != null && Files.isDirectory(Path.of(home, "examples"))) return Path.of(home, "examples");
        throw new ConfigException("list examples: no examples directory here (" + here + ") or beside the rcc launcher; run it from the"
                + " repository root");
    }

    /** Every example config (*.yaml, *.yml, *.json under examples/, by path) with its one-line purpose. */
    private static int examples(Context ctx) throws java.io.IOException {
        Path dir = examplesDir(ctx);
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches(".*\\.(yaml|yml|json)")).sorted().toList();
        }
        int w = 0;
        for (Path f : files) w = Math.max(w, display(ctx, dir, f).length());
        ctx.out().println("example configs (./rcc run FILE; first comment line = purpose):");
        for (Path f : files) ctx.out().printf("  %-" + w + "s  %s%n", display(ctx, dir, f), purpose(f));
        return Exit.OK;
    }

    /** examples/... when the examples are in the working directory, else the full path (runnable from here). */
    private static String display(Context ctx, Path dir, Path f) {
        return dir.equals(ctx.resolve("examples")) ? Path.of("examples").resolve(dir.relativize(f)).toString() : f.toString();
    }

    /** The first comment line of a config file, without '#', or "(no description)". */
    static String purpose(Path file) throws java.io.IOException {
        for (String line : Files.readAllLines(file)) {
            String s = line.strip();
            if (s.isEmpty()) continue;
            if (!s.startsWith("#")) break;
            String text = s.replaceFirst("^#+", "").strip();
            if (!text.isEmpty()) return text;
        }
        return "(no description)";
    }
}
