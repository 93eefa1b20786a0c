package org.rccj.framework.run;

import java.io.PrintStream;
import org.rccj.framework.config.Config;

/**
 * Runs one experiment: builds the fabric, loads the workload into the store, runs every worker's
 * coroutines for warm-up plus the measured interval, and (with {@code verify}) checks the history and
 * the workload invariants. With {@code history} set, writes the history file (design.md §8).
 */
public final class ExperimentRunner {
    private ExperimentRunner() {}

    /**
     * @param progress where to print progress lines (loading, warm-up, percent done); may be null
     * @return the measurements; never writes result files (the results module does)
     */
    public static RunResult run(Config config, PrintStream progress) {
        throw new UnsupportedOperationException("being written");
    }
}
