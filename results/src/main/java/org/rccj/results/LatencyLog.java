package org.rccj.results;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;

/**
 * latency.hlog: a run's latency histograms in HdrHistogram's log format (v1.3), so that standard tools
 * (HistogramLogProcessor, HdrHistogram's plotters, the Python/Go/Rust ports) read them. Values are ns. One
 * interval covering the measured window: the untagged histogram is the committed transactions' latency
 * (summary.json's {@code latency_us}); {@code Tag=<STAGE>} histograms hold the stage durations ({@code Tag=EXECUTE}
 * the execution phase). Deterministic: no wall-clock start time is written; the interval is [0, measured_s].
 */
public final class LatencyLog {
    public static final String FILE_NAME = "latency.hlog";

    private LatencyLog() {}

    public static String text(RunResult r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(ps);
            w.outputComment("RCC-J " + r.config.name() + ": " + r.config.protocol() + " on " + r.config.workload().get("name")
                    + ", values in ns; untagged: committed transaction latency; Tag=STAGE: stage durations");
            w.outputLogFormatVersion();
            w.outputLegend();
            double end = Math.max(0, r.measuredS);
            write(w, r.total.latency.toHdr(), null, end);
            for (Map.Entry<Stage, org.rccj.framework.stats.Histogram> e : r.stages.entrySet()) {
                if (e.getValue().count() > 0) write(w, e.getValue().toHdr(), e.getKey().name(), end);
            }
            if (r.execute.count() > 0) write(w, r.execute.toHdr(), StageBreakdown.EXECUTE, end);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static void write(HistogramLogWriter w, Histogram h, String tag, double endS) {
        h.setTag(tag);
        h.setStartTimeStamp(0);
        h.setEndTimeStamp(Math.round(endS * 1000));
        w.outputIntervalHistogram(0, endS, h, 1e6); // max column in ms
    }

    public static void write(RunResult r, Path file) throws IOException {
        Files.writeString(file, text(r), StandardCharsets.UTF_8);
    }

    /** A histogram of a latency.hlog: its tag (null for the transaction latency) and the histogram. */
    public record Entry(String tag, Histogram histogram) {}

    /** Reads every histogram of {@code file}, in file order. */
    public static List<Entry> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) throw new IOException(file + ": no such file");
        List<Entry> out = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                if (h instanceof Histogram hh) out.add(new Entry(hh.getTag(), hh));
            }
        } catch (RuntimeException e) {
            throw new IOException(file + ": not an HdrHistogram log: " + e.getMessage(), e);
        }
        return out;
    }

    /** The transaction latency histogram of a run directory's latency.hlog, or null if it has none. */
    public static Histogram transactions(Path runDir) throws IOException {
        Path f = runDir.resolve(FILE_NAME);
        if (!Files.isRegularFile(f)) return null;
        for (Entry e : read(f)) if (e.tag() == null) return e.histogram();
        return null;
    }
}
