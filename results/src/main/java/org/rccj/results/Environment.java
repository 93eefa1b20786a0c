package org.rccj.results;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where a result was produced: RCC-J version, git commit of the working directory, JVM, OS and cores.
 * The only block of summary.json (with {@code sim.wall_s}) that may differ between identical runs.
 */
public final class Environment {
    /** Version used when no jar manifest says otherwise (running from target/classes). */
    public static final String FALLBACK_VERSION = "0.1.0-SNAPSHOT";
    private static final long GIT_TIMEOUT_MS = 2000;
    private static volatile String gitCache;

    private Environment() {}

    /** {@code {rcc_version, git, jvm, os, cores}}. */
    public static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rcc_version", version());
        m.put("git", git());
        m.put("jvm", System.getProperty("java.vm.name", "?") + " " + System.getProperty("java.runtime.version", System.getProperty("java.version", "?"))
                + " (" + System.getProperty("java.vm.vendor", "?") + ")");
        m.put("os", System.getProperty("os.name", "?") + " " + System.getProperty("os.version", "?") + " " + System.getProperty("os.arch", "?"));
        m.put("cores", Runtime.getRuntime().availableProcessors());
        return m;
    }

    /** Implementation-Version of the results jar's manifest, else {@value #FALLBACK_VERSION}. */
    public static String version() {
        String v = Environment.class.getPackage() == null ? null : Environment.class.getPackage().getImplementationVersion();
        return v == null || v.isBlank() ? FALLBACK_VERSION : v;
    }

    /**
     * Short commit of the current directory's git checkout, with "-dirty" when tracked files are modified
     * (untracked files such as result directories do not count); "unknown" without git or a checkout.
     * Computed once per JVM.
     */
    public static String git() {
        String g = gitCache;
        if (g == null) {
            Path dir = Path.of("").toAbsolutePath();
            String head = runGit(dir, "rev-parse", "--short", "HEAD");
            if (head == null || head.isBlank()) {
                g = "unknown";
            } else {
                String status = runGit(dir, "status", "--porcelain", "--untracked-files=no");
                g = head.strip() + (status != null && !status.isBlank() ? "-dirty" : "");
            }
            gitCache = g;
        }
        return g;
    }

    /** Output of a git command, or null when git is missing, fails or takes too long. */
    private static String runGit(Path dir, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        Process p = null;
        try {
            p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Process proc = p;
            Thread reader = new Thread(() -> {
                try (InputStream in = proc.getInputStream()) {
                    in.transferTo(out);
                } catch (IOException ignored) {
                    // the process was killed or closed its output
                }
            }, "rcc-git-reader");
            reader.setDaemon(true);
            reader.start();
            if (!p.waitFor(GIT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return null;
            }
            reader.join(GIT_TIMEOUT_MS);
            if (p.exitValue() != 0) return null;
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (p != null) p.destroyForcibly();
            return null;
        }
    }
}
