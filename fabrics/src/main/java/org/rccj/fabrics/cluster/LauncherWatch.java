package org.rccj.fabrics.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How an {@code rcc node} started by {@code rcc run}'s {@link LocalLauncher} knows its launcher is gone, even when
 * the launcher was killed with SIGKILL (no shutdown hook ran) and the node was re-parented to PID 1 (whose "parent
 * is alive" check is always true): the launcher holds the write end of the node's stdin, which the kernel closes
 * when the launcher dies however it dies, so the node reads end-of-file at once; and the node remembers the
 * launcher's process at start and checks that very process (pid and start time), not whatever its parent is now.
 * The launcher sends the run's secret as the first line of that pipe, so the secret is never on disk.
 *
 * <p>Once the launcher is gone the cluster stops the run (ClusterNode checks {@link #gone} with its heartbeats),
 * the node exits, and its shutdown hook removes the launcher's run directory; a node that has not stopped by
 * itself within {@link #GRACE_MS} (still joining, or stuck) removes the directory and halts.
 */
public final class LauncherWatch {
    /** How long a node whose launcher vanished may take to stop by itself before it halts. */
    static final long GRACE_MS = 1000;
    /** The files the launcher puts in its run directory (nothing else is removed from it). */
    static final List<String> RUN_FILES = List.of("config.json", "result.bin", "result.bin.part");

    private static volatile ProcessHandle launcher;
    private static volatile boolean eof;

    private LauncherWatch() {}

    /** True when this process was started by a launcher that is gone (never true when {@link #start} was not called). */
    public static boolean gone() {
        ProcessHandle l = launcher;
        return l != null && (eof || !l.isAlive());
    }

    /**
     * Starts watching: remembers the parent (the launcher) now, reads the secret (the first line of {@code stdin})
     * when {@code readSecret}, then watches {@code stdin} for end-of-file on a daemon thread. {@code runDir}, if
     * not null, is the launcher's run directory, removed when the launcher is gone. Returns the secret read, or null.
     */
    public static byte[] start(InputStream stdin, boolean readSecret, Path runDir) throws IOException {
        launcher = ProcessHandle.current().parent().orElse(null);
        byte[] secret = readSecret ? firstLine(stdin) : null;
        if (launcher == null || !launcher.isAlive()) eof = true;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (gone()) removeRunDir(runDir);
        }, "rcc-node-run-dir"));
        Thread t = new Thread(() -> {
            try {
                byte[] buf = new byte[64];
                while (stdin.read(buf) >= 0) {
                    // the launcher writes nothing after the secret: wait for the end of the pipe
                }
            } catch (IOException closed) {
                // as good as end-of-file
            }
            eof = true;
            try {
                Thread.sleep(GRACE_MS);
            } catch (InterruptedException ignored) {
                // halting anyway
            }
            removeRunDir(runDir);
            System.err.println("rcc: the launcher is gone; this node stopped");
            System.err.flush();
            Runtime.getRuntime().halt(LocalLauncher.CLUSTER_EXIT);
        }, "rcc-launcher-watch");
        t.setDaemon(true);
        t.start();
        return secret;
    }

    private static byte[] firstLine(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (b.size() > 4096) break;
            b.write(c);
        }
        if (c < 0) eof = true;
        return b.toByteArray();
    }

    /** Removes the launcher's files from {@code dir}, then {@code dir} if that left it empty (anything else stays). */
    static void removeRunDir(Path dir) {
        if (dir == null) return;
        for (String f : RUN_FILES) {
            try {
                Files.deleteIfExists(dir.resolve(f));
            } catch (IOException ignored) {
                // another node removed it, or it cannot be: the directory stays
            }
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // not empty (someone else's file) or removed already
        }
    }
}
