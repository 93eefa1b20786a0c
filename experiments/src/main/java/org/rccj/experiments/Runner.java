package org.rccj.experiments;

import java.io.PrintStream;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;

/** Runs one experiment; {@link org.rccj.framework.run.ExperimentRunner#run} in production, a stand-in in tests. */
@FunctionalInterface
public interface Runner {
    public RunResult run(Config config, PrintStream progress);
}
