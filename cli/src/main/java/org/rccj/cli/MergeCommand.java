package org.rccj.cli;

import org.rccj.framework.run.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.hybrid.CodeResult;
import org.rccj.hybrid.HybridTable;
import org.rccj.results.ResultTable;
import org.rccj.results.ResultWriter;
import org.rccj.results.RunMetrics;
import org.rccj.results.SummaryJson;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.Batch;
import org.rccj.experiments.Merge;
import org.rccj.experiments.Provenance;
import org.rccj.experiments.OutputPaths;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;

/**
 * {@code rcc merge DIR... --out DIR}: combines the shards of an enumeration (rcc enumerate --shard i/n):
 * copies their run directories into the output directory and writes the hybrid.csv of all of them, which is
 * byte for byte the hybrid.csv one unsharded run would have written.
 */
final class MergeCommand implements Command {
    static final String USAGE = "rcc merge DIR... --out DIR [--allow-partial] [--force]";
    static final Options OPTIONS = new Options().addOption(BatchOptions.OUT).addOption(BatchOptions.FORCE)
            .addOption(org.apache.commons.cli.Option.builder().longOpt("allow-partial").desc("merge even when codes are missing").build());

    @Override
    public int run(List<String> args, Context ctx) throws Exception {
        CommandLine cl = Args.parse("merge", OPTIONS, args);
        List<String> inputs = cl.getArgList();
        if (inputs.isEmpty()) throw new ConfigException("merge: missing input directories; usage: " + USAGE);
        if (!cl.hasOption("out")) throw new ConfigException("merge: missing --out DIR (where the combined enumeration goes); usage: " + USAGE);
        Path out = BatchOptions.out(cl, ctx, "merged");
        Batch.checkOutDir("merge", out);

        List<Path> dirs = new ArrayList<>();
        for (String in : inputs) dirs.add(ctx.resolve(in));
        Merge.Runs found = Merge.collect(dirs, inputs, SweepCommand.CSV);
        // (code, seed) -> the first run found for it, inputs in the order given
        Map<String, RunMetrics> runs = found.runs();
        int duplicates = found.duplicates();

        RunMetrics any = runs.values().iterator().next();
        List<Stage> stages = ConfigResolver.protocol(any.protocol()).stages();
        int total = 1 << stages.size();
        List<CodeResult> table = HybridTable.byCode(new ArrayList<>(runs.values()));
        if (table.size() < total && !cl.hasOption("allow-partial")) {
            java.util.Set<Integer> have = new java.util.TreeSet<>();
            for (CodeResult c : table) have.add(c.code());
            List<String> missing = new ArrayList<>();
            for (var hc : org.rccj.framework.spi.HybridCode.all(stages)) if (!have.contains(hc.code())) missing.add(Integer.toString(hc.code()));
            throw new ConfigException("merge: partial: " + table.size() + " of " + total + " codes have results; missing "
                    + (missing.size() > 12 ? String.join(", ", missing.subList(0, 12)) + ", ... (" + missing.size() + " in all)" : String.join(", ", missing))
                    + "; wait for (or rerun) the missing shards, or pass --allow-partial to merge what is there");
        }
        com.fasterxml.jackson.databind.node.ObjectNode expConfig = found.experimentConfig();
        @SuppressWarnings("unchecked")
        Map<String, Object> expMap = new com.fasterxml.jackson.databind.ObjectMapper().convertValue(expConfig, LinkedHashMap.class);
        Provenance.Made made = new Provenance.Made("merge", expMap, List.of(Config.HYBRID.key(), Config.SEED.key()));
        Provenance.check(made, out, cl.hasOption("force"));
        OutputPaths.checkDir("merge: --out", out);

        Files.createDirectories(out);
        int copied = 0;
        for (RunMetrics m : runs.values()) if (Merge.copyInto(m.dir(), out)) copied++;
        Path csv = out.resolve(HybridTable.FILE_NAME);
        ResultTable.write(csv, HybridTable.csv(table));
        Provenance.write(out, made, args);
        ctx.err().println("merge: " + runs.size() + " runs of " + table.size() + " codes from " + inputs.size() + " director"
                + (inputs.size() == 1 ? "y" : "ies") + " (" + copied + " copied" + (duplicates > 0 ? ", " + duplicates + " duplicates skipped" : "") + ")");
        EnumerateCommand.printRanking(ctx, any.protocol() + " on " + any.workload(), table, stages, total, "rcc sweep CONFIG");
        if (table.size() == total) {
            Map<Integer, CodeResult> complete = new HashMap<>();
            for (CodeResult c : table) complete.put(c.code(), c);
            EnumerateCommand.printReplay(ctx, stages, complete);
        } else {
            ctx.out().println("partial: " + table.size() + " of " + total + " codes");
        }
        ctx.out().println("results: " + BatchOptions.display(ctx, csv) + " (" + table.size() + " codes)");
        return Exit.OK;
    }

    /** The result directories directly inside {@code dir}, by name. */
    static List<Path> resultDirs(Path dir) throws IOException { return Merge.resultDirs(dir); }
}
