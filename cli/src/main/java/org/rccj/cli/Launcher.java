package org.rccj.cli;

import java.util.List;
import org.rccj.fabrics.cluster.LocalLauncher;
import org.rccj.experiments.Runner;

/** {@code rcc run} on a multi-process fabric goes through the cluster's local launcher; every other run stays in this process. */
final class Launcher {
    private Launcher() {}

    static Runner around(Runner inProcess) {
        return (config, progress) -> LocalLauncher.multiProcess(config)
                ? LocalLauncher.run(config, progress, Main.class.getName()) : inProcess.run(config, progress);
    }

    /** The command that starts this program again (same java, JVM flags and class path). */
    static List<String> javaCommand() { return LocalLauncher.javaCommand(Main.class.getName()); }
}
