package org.rccj.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.rccj.framework.run.RunResult;

/**
 * stages.csv: {@code stage,count,mean_us,us_per_txn,p50_us,p99_us,share}, one row per {@link StageBreakdown} row:
 * {@code mean_us} per call, {@code us_per_txn} what the stage adds to a committed transaction (mean x count /
 * commits), share a fraction in [0, 1], as in summary.json. Then one row {@code outside:<part>} per part of the
 * time outside the protocol stages ({@link OutsideStages}: count = commits, mean_us = us_per_txn = the part per
 * committed transaction, the other columns empty); the protocol stages' us_per_txn plus those rows' is the mean
 * latency: the column {@code us_per_txn} sums to it, as the EXECUTE row (per call over every attempt) leaves it empty
 * when outside:execute (the committed attempt's) is there: EXECUTE counted once.
 * Then the critical-path columns {@code cp_*} ({@link CriticalPathReport}: calls, mean latency and mean of each term
 * per call, ns) on a stage's row, empty where the stage waited for no op and on every fabric but sim.
 * Header row, comma separated, "\n" line ends.
 */
public final class StagesCsv {
    public static final String FILE_NAME = "stages.csv";
    public static final String HEADER = "stage,count,mean_us,us_per_txn,p50_us,p99_us,share," + CriticalPathReport.csvHeader();

    private StagesCsv() {}

    public static String toCsv(RunResult r) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        Map<String, Double> parts = OutsideStages.partsNs(r);
        for (StageBreakdown.Row row : StageBreakdown.of(r)) {
            // EXECUTE once: with the outside parts its committed attempt's time is outside:execute; its row keeps the
            // per-call figures and leaves us_per_txn empty, so that the column sums to the mean latency
            boolean inSum = OutsideStages.inLatencySum(row.stage(), !parts.isEmpty());
            sb.append(row.stage()).append(',')
              .append(row.count()).append(',')
              .append(Decimals.text(Decimals.us(row.meanNs()))).append(',')
              .append(inSum ? Decimals.text(Decimals.us(row.perTxnNs(r.commits()))) : "").append(',')
              .append(Decimals.text(Decimals.us(row.p50Ns()))).append(',')
              .append(Decimals.text(Decimals.us(row.p99Ns()))).append(',')
              .append(Decimals.text(Decimals.round(row.share(), Decimals.SHARE))).append(',')
              .append(CriticalPathReport.csvCells(r, row.stage())).append('\n');
        }
        for (Map.Entry<String, Double> e : parts.entrySet()) {
            String us = Decimals.text(Decimals.us(e.getValue()));
            sb.append("outside:").append(e.getKey()).append(',').append(r.commits()).append(',').append(us).append(',').append(us)
              .append(",,,,").append(CriticalPathReport.csvCells(r, "")).append('\n');
        }
        return sb.toString();
    }

    public static void write(RunResult r, Path file) throws IOException {
        Files.writeString(file, toCsv(r), StandardCharsets.UTF_8);
    }
}
