package org.rccj.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.rccj.fabrics.bench.CalibrationReport;
import org.rccj.fabrics.bench.CalibrationReport.Row;
import org.rccj.framework.config.ConfigException;
import org.rccj.primitives.CostProfile;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;

/**
 * {@code rcc bench [--profile NAME|FILE] [--csv FILE]}: the calibration report. The primitive
 * micro-benchmarks of calibration.md on the sim fabric, each next to the figure published for the hardware
 * (DrTM+H, FaSST, DrTM) or the profile's stated assumption, with the relative error and the tolerance. These check the cost model; they never tune it toward a protocol result.
 */
final class BenchCommand implements Command {
    static final String USAGE = "rcc bench [--profile NAME|FILE] [--csv FILE] [--fabric sim|tcp|ucx [--threads N] [--connections pair|thread] [--tls UCX_TLS]]";
    static final Options OPTIONS = new Options()
            .addOption(Option.builder().longOpt("profile").hasArg().argName("NAME|FILE").desc("cost profile").build())
            .addOption(Option.builder().longOpt("csv").hasArg().argName("FILE").desc("also write the table as CSV").build())
            .addOption(Option.builder().longOpt("fabric").hasArg().argName("sim|tcp|ucx").desc("the fabric measured").build())
            .addOption(BatchOptions.THREADS)
            .addOption(BatchOptions.CONNECTIONS)
            .addOption(BatchOptions.TLS);

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("bench", OPTIONS, args);
        if (!cl.getArgList().isEmpty()) {
            throw new ConfigException("bench: unexpected argument '" + cl.getArgList().get(0) + "'; usage: " + USAGE);
        }
        String profileName = cl.hasOption("profile") ? cl.getOptionValue("profile") : CostProfile.DEFAULT;
        Path csv = cl.hasOption("csv") ? ctx.resolve(cl.getOptionValue("csv")) : null;
        if (csv != null) OutputPaths.checkFile("bench: --csv", csv);
        String fabric = cl.hasOption("fabric") ? cl.getOptionValue("fabric").strip() : "sim";
        if (!List.of("sim", "tcp", "ucx").contains(fabric)) throw new ConfigException("bench: --fabric '" + fabric + "'; accepted: sim, tcp, ucx");
        if (fabric.equals("sim") && cl.hasOption("threads")) throw new ConfigException("bench: --threads measures tcp or ucx; add --fabric tcp or --fabric ucx");
        if (!fabric.equals("tcp") && cl.hasOption("connections")) throw new ConfigException("bench: --connections measures the tcp fabric; add --fabric tcp");
        if (!fabric.equals("ucx") && cl.hasOption("tls")) throw new ConfigException("bench: --tls measures the ucx fabric; add --fabric ucx");
        if (fabric.equals("ucx")) {
            int threads = BatchOptions.integer("bench", cl, "threads", 1, 1, 64);
            String tls = cl.hasOption("tls") ? cl.getOptionValue("tls").strip() : "";
            return ClusterBench.run(ctx.out(), csv, "ucx", threads, Map.of("ucx.tls", tls),
                    "UCX_TLS " + (tls.isEmpty() ? "(UCX's choice)" : tls));
        }
        if (fabric.equals("tcp")) {
            int threads = BatchOptions.integer("bench", cl, "threads", 1, 1, 64);
            String layout = BatchOptions.connections("bench", cl);
            return ClusterBench.run(ctx.out(), csv, "tcp", threads, Map.of(BatchOptions.TCP_CONNECTIONS, layout), "connections per " + layout);
        }
        CostProfile p;
        try {
            p = CostProfile.load(profileName);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("bench: --profile: " + e.getMessage());
        }
        PrintStream out = ctx.out();
        out.println("calibration report: primitive micro-benchmarks on sim, profile " + p.name + " (" + p.description + ")");
        List<Row> rows = CalibrationReport.measure(p);
        String[] head = {"figure", "sim", "published", "error", "tolerance", "source"};
        List<String[]> cells = new ArrayList<>();
        for (Row r : rows) {
            cells.add(new String[] {r.figure(), r.simText(), r.publishedText(), r.errorText(),
                    r.toleranceText() + (r.ok() ? "" : "  OUT"), r.source()});
        }
        int[] w = new int[head.length];
        for (int i = 0; i < head.length; i++) w[i] = head[i].length();
        for (String[] c : cells) for (int i = 0; i < c.length; i++) w[i] = Math.max(w[i], c[i].length());
        StringBuilder fmt = new StringBuilder();
        for (int i = 0; i < head.length; i++) fmt.append("%-").append(w[i]).append("s").append(i + 1 < head.length ? "  " : "%n");
        out.printf(fmt.toString(), (Object[]) head);
        for (String[] c : cells) out.printf(fmt.toString(), (Object[]) c);
        long out_ = rows.stream().filter(r -> !r.ok()).count();
        out.println(out_ == 0 ? "every fitted figure is within its tolerance" : out_ + " fitted figure(s) out of tolerance");
        if (csv != null) {
            StringBuilder sb = new StringBuilder("figure,sim,published,rel_error,lo,hi,source\n");
            for (Row r : rows) {
                sb.append(q(r.figure())).append(',').append(r.sim()).append(',').append(nan(r.published())).append(',')
                        .append(nan(r.relError())).append(',').append(nan(r.lo())).append(',').append(nan(r.hi())).append(',')
                        .append(q(r.source())).append('\n');
            }
            try {
                Files.writeString(csv, sb.toString());
            } catch (java.io.IOException e) {
                throw new ConfigException("bench: --csv " + csv + ": cannot write: " + OutputPaths.reason(e));
            }
            out.println("csv: " + csv);
        }
        return Exit.OK;
    }

    private static String nan(double v) { return Double.isNaN(v) ? "" : Double.toString(v); }

    private static String q(String s) { return "\"" + s.replace("\"", "\"\"") + "\""; }
}
