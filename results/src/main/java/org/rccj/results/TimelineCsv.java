package org.rccj.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rccj.framework.run.RunResult;

/**
 * timeline.csv: {@code t_ms,commits,throughput_tps}, one row per interval of
 * {@link RunResult#timeline}. {@code t_ms} is the end of the interval, in ms since the measured
 * interval began (virtual ms on sim); throughput is that interval's commits per second. Under {@code warmup_ms: auto}
 * the warm-up's intervals come first, with {@code t_ms <= 0} (node 0's commits on tcp and ucx; {@link WarmupReport}).
 */
public final class TimelineCsv {
    public static final String FILE_NAME = "timeline.csv";
    public static final String HEADER = "t_ms,commits,throughput_tps";

    private TimelineCsv() {}

    public static String toCsv(RunResult r) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        WarmupReport.csvRows(r, sb);
        double iv = r.timelineIntervalMs;
        for (int i = 0; i < r.timeline.length; i++) {
            long commits = r.timeline[i];
            double tps = iv > 0 ? commits / (iv / 1000.0) : 0;
            sb.append(Decimals.text(Decimals.round((i + 1) * iv, Decimals.US))).append(',')
              .append(commits).append(',')
              .append(Decimals.text(Decimals.round(tps, Decimals.TPS))).append('\n');
        }
        return sb.toString();
    }

    public static void write(RunResult r, Path file) throws IOException {
        Files.writeString(file, toCsv(r), StandardCharsets.UTF_8);
    }
}
