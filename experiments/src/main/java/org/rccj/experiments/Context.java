package org.rccj.experiments;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What a command runs with: its output streams, the directory relative paths are resolved against
 * and the experiment runner.
 */
public record Context(PrintStream out, PrintStream err, Path cwd, Runner runner) {
    public Path resolve(String path) { return cwd.resolve(path); }
}
