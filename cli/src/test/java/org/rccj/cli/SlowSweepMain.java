package org.rccj.cli;

import java.nio.file.Path;

/** {@code rcc ARGS} with {@link FakeRuns} taking 300 ms a run, in its own process: for interrupting a sweep. */
public final class SlowSweepMain {
    private SlowSweepMain() {}

    public static void main(String[] args) {
        System.exit(Main.run(args, System.out, System.err, new FakeRuns(300), Path.of("")));
    }
}
