package org.rccj.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rccj.framework.run.RunResult;

/**
 * stages.csv: {@code stage,count,mean_us,us_per_txn,p50_us,p99_us,share}, one row per {@link StageBreakdown} row:
 * {@code mean_us} per call, {@code us_per_txn} what the stage adds to a committed transaction (mean x count /
 * commits), share a fraction in [0, 1], as in summary.json. Header row, comma separated, "\n" line ends.
 */
public final class StagesCsv {
    public static final String FILE_NAME = "stages.csv";
    public static final String HEADER = "stage,count,mean_us,us_per_txn,p50_us,p99_us,share";

    private StagesCsv() {}

    public static String toCsv(RunResult r) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (StageBreakdown.Row row : StageBreakdown.of(r)) {
            sb.append(row.stage()).append(',')
              .append(row.count()).append(',')
              .append(Decimals.text(Decimals.us(row.meanNs()))).append(',')
              .append(Decimals.text(Decimals.us(row.perTxnNs(r.commits())))).append(',')
              .append(Decimals.text(Decimals.us(row.p50Ns()))).append(',')
              .append(Decimals.text(Decimals.us(row.p99Ns()))).append(',')
              .append(Decimals.text(Decimals.round(row.share(), Decimals.SHARE))).append('\n');
        }
        return sb.toString();
    }

    public static void write(RunResult r, Path file) throws IOException {
        Files.writeString(file, toCsv(r), StandardCharsets.UTF_8);
    }
}
