package org.rccj.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rccj.framework.history.HistoryJson;
import org.rccj.framework.history.HistoryRecord;

/**
 * ms to write and to read back a history export of 100,000 SmallBank-like transactions (2 reads, 2 writes each,
 * about 13 MB): the cost {@code history: FILE} adds to a run and {@code rcc verify} pays before checking.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class HistoryJsonBench {
    private static final List<String> TABLES = List.of("savings", "checking", "accounts");
    private List<HistoryRecord> history;
    private Path dir, written, toRead;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        SplittableRandom r = new SplittableRandom(1);
        history = new ArrayList<>();
        String[] types = {"Amalgamate", "Balance", "DepositChecking", "SendPayment", "TransactSaving", "WriteCheck"};
        for (int i = 0; i < 100_000; i++) {
            long a = r.nextLong(1_000_000), b = r.nextLong(1_000_000);
            history.add(new HistoryRecord(i + 1, types[i % types.length],
                    new long[] {0, a, r.nextLong(100_000), 1, b, r.nextLong(100_000)},
                    new long[] {0, a, i + 1, r.nextLong(100_000), 1, b, i + 1, r.nextLong(100_000)}));
        }
        dir = Files.createTempDirectory("history-bench");
        written = dir.resolve("w.jsonl");
        toRead = dir.resolve("r.jsonl");
        HistoryJson.write(toRead, history, TABLES);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(written);
        Files.deleteIfExists(toRead);
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public long write() throws IOException {
        HistoryJson.write(written, history, TABLES);
        return Files.size(written);
    }

    @Benchmark
    public int read() {
        return HistoryJson.read(toRead).history().size();
    }
}
