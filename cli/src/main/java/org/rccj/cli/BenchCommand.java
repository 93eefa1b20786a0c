package org.rccj.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.fabrics.PrimitiveBench;
import org.rccj.fabrics.PrimitiveBench.Pattern;
import org.rccj.fabrics.PrimitiveBench.Result;
import org.rccj.fabrics.PrimitiveBench.Scenario;
import org.rccj.framework.config.ConfigException;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Verb;

/**
 * {@code rcc bench [--profile NAME] [--csv FILE]}: the primitive micro-benchmarks of calibration.md on the
 * sim fabric, each next to the figure measured on the hardware (DrTM+H, OSDI'18) or the profile's
 * stated assumption. These check the cost model; they never tune it toward a protocol result.
 */
final class BenchCommand implements Command {
    static final String USAGE = "rcc bench [--profile NAME] [--csv FILE]";
    static final Options OPTIONS = new Options()
            .addOption(Option.builder().longOpt("profile").hasArg().argName("NAME").desc("cost profile").build())
            .addOption(Option.builder().longOpt("csv").hasArg().argName("FILE").desc("also write the table as CSV").build());

    private record Row(String what, String measured, String reference) {}

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("bench", OPTIONS, args);
        if (!cl.getArgList().isEmpty()) {
            throw new ConfigException("bench: unexpected argument '" + cl.getArgList().get(0) + "'; usage: " + USAGE);
        }
        String profileName = cl.hasOption("profile") ? cl.getOptionValue("profile") : CostProfile.DEFAULT;
        Path csv = cl.hasOption("csv") ? ctx.resolve(cl.getOptionValue("csv")) : null;
        if (csv != null) OutputPaths.checkFile("bench: --csv", csv);
        CostProfile p;
        try {
            p = CostProfile.load(profileName);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("bench: --profile: " + e.getMessage());
        }
        PrintStream out = ctx.out();
        out.println("primitive micro-benchmarks on sim, profile " + p.name + " (" + p.description + ")");
        List<Row> rows = new ArrayList<>();

        Result readRtt = run(p, "READ 64 B round trip", Verb.READ, 64, 2, 1, 1, 1, false, false, Pattern.ALL_TO_ALL);
        Result rpcRtt = run(p, "RPC 64 B round trip", Verb.RPC, 64, 2, 1, 1, 1, false, false, Pattern.ALL_TO_ALL);
        rows.add(new Row("one-sided READ 64 B round trip, p50", us(readRtt.p50Us()), "~2 us (assumption, calibration.md)"));
        rows.add(new Row("RPC 64 B round trip incl. handler, p50", us(rpcRtt.p50Us()), "~2.5-3 us (assumption, calibration.md)"));

        int servers = 24, clientsNodes = 8, cor = 8;
        rows.add(peak(p, "one-sided READ 64 B peak per machine", Verb.READ, 64, servers, clientsNodes, cor, "86.9 M req/s (DrTM+H)"));
        rows.add(peak(p, "one-sided WRITE 64 B peak per machine", Verb.WRITE, 64, servers, clientsNodes, cor, "~130 M req/s (DrTM+H)"));
        rows.add(peak(p, "one-sided CAS peak per machine", Verb.CAS, 8, servers, clientsNodes, cor, "~48 M req/s (DrTM+H)"));
        rows.add(peak(p, "RPC (8 B) peak per machine", Verb.RPC, 8, servers, clientsNodes, cor, "~76-79 M req/s (DrTM+H)"));

        for (int payload : new int[] {64, 512}) {
            Result r = run(p, "READ " + payload, Verb.READ, payload, 8, 24, 8, 1, false, false, Pattern.ALL_TO_ALL);
            Result q = run(p, "RPC " + payload, Verb.RPC, payload, 8, 24, 8, 1, false, false, Pattern.ALL_TO_ALL);
            rows.add(new Row("READ vs RPC throughput, " + payload + " B, all-to-all", ratio(r.mopsPerMachine() / q.mopsPerMachine())
                    + " (" + mops(r.mopsPerMachine()) + " vs " + mops(q.mopsPerMachine()) + ")",
                    payload == 64 ? "up to 1.6x (DrTM+H, small payload)" : "up to 1.37x (DrTM+H, larger payload)"));
        }
        for (Verb v : new Verb[] {Verb.READ, Verb.RPC}) {
            Result one = run(p, v + " 1 coroutine", v, 64, 8, 24, 1, 1, false, false, Pattern.ALL_TO_ALL);
            Result many = run(p, v + " 10 coroutines", v, 64, 8, 24, 10, 1, false, false, Pattern.ALL_TO_ALL);
            rows.add(new Row("coroutines 10 vs 1, " + (v == Verb.READ ? "one-sided READ" : "RPC") + " 64 B",
                    ratio(many.mopsPerMachine() / one.mopsPerMachine()), v == Verb.READ ? "7x (DrTM+H)" : "6.46x (DrTM+H)"));
        }
        Result sep = run(p, "READ x4 separate doorbells", Verb.READ, 64, 8, 24, 8, 4, true, false, Pattern.ALL_TO_ALL);
        Result bat = run(p, "READ x4 one doorbell", Verb.READ, 64, 8, 24, 8, 4, false, false, Pattern.ALL_TO_ALL);
        rows.add(new Row("doorbell batching, 4 READs to one node", ratio(bat.mopsPerMachine() / sep.mopsPerMachine()), "(no figure in the seeds)"));
        Result sig = run(p, "WRITE x4 all signaled", Verb.WRITE, 64, 8, 24, 8, 4, false, false, Pattern.ALL_TO_ALL);
        Result pas = run(p, "WRITE x4 last signaled", Verb.WRITE, 64, 8, 24, 8, 4, false, true, Pattern.ALL_TO_ALL);
        rows.add(new Row("passive ACK, one-sided WRITE (4 per batch)", ratio(pas.mopsPerMachine() / sig.mopsPerMachine()), "1.13x (DrTM+H)"));
        rows.add(new Row("passive ACK, two-sided", "not modelled (RPCs always reply)", "1.96x (DrTM+H)"));

        int w1 = 8, w2 = 8;
        for (Row r : rows) { w1 = Math.max(w1, r.what.length()); w2 = Math.max(w2, r.measured.length()); }
        String fmt = "%-" + w1 + "s  %-" + w2 + "s  %s%n";
        out.printf(fmt, "figure", "sim", "hardware / assumption");
        for (Row r : rows) out.printf(fmt, r.what, r.measured, r.reference);
        if (csv != null) {
            StringBuilder sb = new StringBuilder("figure,sim,reference\n");
            for (Row r : rows) sb.append(q(r.what)).append(',').append(q(r.measured)).append(',').append(q(r.reference)).append('\n');
            try {
                Files.writeString(csv, sb.toString());
            } catch (java.io.IOException e) {
                throw new ConfigException("bench: --csv " + csv + ": cannot write: " + OutputPaths.reason(e));
            }
            out.println("csv: " + csv);
        }
        return Exit.OK;
    }

    private static Row peak(CostProfile p, String what, Verb v, int payload, int threads, int nodes, int cor, String ref) {
        Result r = run(p, what, v, payload, nodes, threads, cor, 1, false, false, Pattern.TO_NODE0);
        return new Row(what, mops(r.mopsPerMachine()), ref);
    }

    private static Result run(CostProfile p, String name, Verb v, int payload, int nodes, int threads, int cor, int batch,
                              boolean separate, boolean passive, Pattern pattern) {
        return PrimitiveBench.run(p, new Scenario(name, v, payload, nodes, threads, cor, batch, separate, passive, pattern));
    }

    private static String us(double v) { return String.format(Locale.ROOT, "%.2f us", v); }
    private static String mops(double v) { return String.format(Locale.ROOT, "%.1f M/s", v); }
    private static String ratio(double v) { return String.format(Locale.ROOT, "%.2fx", v); }
    private static String q(String s) { return "\"" + s.replace("\"", "\"\"") + "\""; }
}
