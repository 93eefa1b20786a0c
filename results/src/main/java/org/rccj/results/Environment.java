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
 * Where a result was produced: RCC-J version, RCC-J's own git commit, JVM, OS and cores.
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
     * RCC-J's own commit, wherever the command runs: the git checkout its classes or jar were loaded from (found by
     * walking up from their location, not from the working directory: a run from another repository must not record
     * that repository's commit), short, with "-dirty" when tracked files are modified (untracked files such as result
     * directories do not count); when the classes are not in a checkout, the commit the build embedded
     * ({@value #BUILD_RESOURCE}, written by ./rcc's build), else "unknown". Computed once per JVM.
     */
    public static String git() {
        String g = gitCache;
        if (g == null) {
            g = gitOf(checkout(codeLocation()));
            if (g == null) g = embedded();
            gitCache = g;
        }
        return g;
    }

    /** The resource ./rcc's build writes with the commit it built (for a jar copied out of its checkout). */
    public static final String BUILD_RESOURCE = "rcc-build.properties";

    /** Where this class was loaded from (a classes directory or a jar), or null. */
    static Path codeLocation() {
        try {
            var src = Environment.class.getProtectionDomain().getCodeSource();
            return src == null ? null : Path.of(src.getLocation().toURI());
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** The nearest directory at or above {@code p} holding {@code .git} (a directory, or a worktree's file), or null. */
    static Path checkout(Path p) {
        for (Path d = p == null ? null : p.toAbsolutePath(); d != null; d = d.getParent()) {
            if (java.nio.file.Files.exists(d.resolve(".git"))) return d;
        }
        return null;
    }

    /** The short commit of the checkout at {@code dir} with "-dirty" when tracked files changed, or null. */
    static String gitOf(Path dir) {
        if (dir == null) return null;
        String head = runGit(dir, "rev-parse", "--short", "HEAD");
        if (head == null || head.isBlank()) return null;
        String status = runGit(dir, "status", "--porcelain", "--untracked-files=no");
        return head.strip() + (status != null && !status.isBlank() ? "-dirty" : "");
    }

    /** The commit the build embedded ("unknown" when it did not). */
    static String embedded() {
        try (InputStream in = Environment.class.getResourceAsStream("/" + BUILD_RESOURCE)) {
            if (in == null) return "unknown";
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            String c = p.getProperty("git", "").strip();
            return c.isEmpty() || c.startsWith("${") ? "unknown" : c + " (built)";
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** A file's SHA-256, hex. */
    public static String sha256(Path file) throws IOException {
        try {
            java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
            return java.util.HexFormat.of().formatHex(md.digest(java.nio.file.Files.readAllBytes(file)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
