package org.rccj.experiments;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import org.rccj.framework.run.MemoryEstimate;
import org.rccj.results.Environment;

/**
 * What the CLI says when something goes wrong that is not bad input: one line on the terminal, never a
 * stack trace. Internal errors keep their trace in a log file whose path the line names.
 */
public final class Failures {
    /** Where internal-error logs go: {@code $RCC_LOG_DIR} if set, else the system's temporary directory. */
    public static Path logDir() {
        String env = System.getenv("RCC_LOG_DIR");
        return Path.of(env != null && !env.isBlank() ? env : System.getProperty("java.io.tmpdir"));
    }

    private Failures() {}

    /**
     * Writes the stack trace of an internal error (with the command line and version) to a new log file.
     * @return the file's path, or a note saying why no log could be written
     */
    public static String log(Throwable t, String[] args) {
        StringWriter sw = new StringWriter();
        PrintWriter pw = new PrintWriter(sw);
        pw.println("rcc " + Environment.version() + " internal error at " + Instant.now());
        pw.println("command: rcc " + String.join(" ", args));
        pw.println("java: " + System.getProperty("java.version") + " " + System.getProperty("java.vm.name"));
        t.printStackTrace(pw);
        pw.flush();
        try {
            Path dir = logDir();
            Files.createDirectories(dir);
            Path f = Files.createTempFile(dir, "rcc-internal-error-", ".log");
            Files.writeString(f, sw.toString());
            return f.toAbsolutePath().toString();
        } catch (IOException | RuntimeException e) {
            return "(no log: cannot write to " + logDir() + ": " + OutputPaths.reason(e) + ")";
        }
    }

    /** One line for an {@link OutOfMemoryError}: which memory ran out, how much the JVM may use, what to change. */
    public static String outOfMemory(OutOfMemoryError e) {
        String what = String.valueOf(e.getMessage());
        boolean direct = what.toLowerCase(Locale.ROOT).contains("direct");
        long heap = Runtime.getRuntime().maxMemory();
        long directMax = MemoryEstimate.maxDirectBytes();
        long directUsed = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) directUsed = b.getMemoryUsed();
        }
        return "out of memory (" + what + "): this JVM may use " + MemoryEstimate.gib(heap) + " of heap and "
                + MemoryEstimate.gib(directMax) + " of direct memory for registered regions (" + MemoryEstimate.gib(directUsed)
                + " in use); run a smaller experiment (a smaller workload scale, fewer nodes, threads or coroutines"
                + (direct ? "" : ", verify: false and no history") + ") or give the JVM more memory (RCC_JAVA_OPTS='-Xmx...' for ./rcc)";
    }
}
