package org.rccj.fabrics.cluster;

import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.NodeReports;
import org.rccj.framework.run.RunResult;

/**
 * {@code rcc run} on a multi-process fabric ({@link ClusterFabricFactory}): spawns one {@code rcc node} process per
 * node on loopback, with a fresh random secret sent down each node's stdin (never on disk), waits for them and returns
 * node 0's merged result (which {@code rcc run} writes like any other). A node that fails stops the others at once;
 * Ctrl-C (the JVM's shutdown) stops every node, and a node whose launcher vanished, even by SIGKILL, stops by itself
 * within a second and removes the run directory ({@link LauncherWatch}), so none is left behind.
 */
public final class LocalLauncher {
    private static final long POLL_MS = 20, GRACE_MS = 3000;
    /** The exit code of an {@code rcc node} that stopped because the cluster failed (another node's fault, usually). */
    public static final int CLUSTER_EXIT = 3;
    /** The exit code of an {@code rcc node} that stopped on bad input (the CLI's exit code 2). */
    public static final int BAD_INPUT_EXIT = 2;
    /**
     * How a node other than node 0 ends its last line once its part of the results is with node 0 ("rcc: node I" +
     * this): a node that dies after it is not a failure of the run (issue 38 finding 6).
     */
    public static final String DONE = ": done; node 0 writes the results";

    private LocalLauncher() {}

    /** Whether {@code config} runs one process per node (through this launcher or {@code rcc node}). */
    public static boolean multiProcess(Config config) { return config.fabricFactory() instanceof ClusterFabricFactory; }

    /** Runs {@code config}'s nodes as processes of {@code mainClass} (the CLI's, which has the {@code node} command). */
    public static RunResult run(Config config, PrintStream progress, String mainClass) {
        // every node process on this host together, before any starts (decision 0156)
        org.rccj.framework.run.MemoryEstimate.checkLocalProcesses(config, config.nodes());
        String what = config.fabric() + " run";
        Path dir = null;
        List<Process> procs = new ArrayList<>();
        Path[] made = new Path[1];
        // Ctrl-C (or SIGTERM) ends the JVM without the finally below: the hook stops the nodes and removes the secret
        PrintStream say = progress != null ? progress : System.err;
        Thread hook = new Thread(() -> {
            say.println(); // ends a progress line left open
            say.println("rcc: interrupted: stopping the " + what + "'s node processes");
            say.flush();
            stopAll(procs);
            if (made[0] != null) deleteTree(made[0]);
        }, "rcc-launcher-stop");
        try {
            // the run directory is created only once every node process runs (issue 38 finding 5): a node whose launcher
            // is gone, however it died, removes it (LauncherWatch), so a launcher killed at any moment leaves none. Its
            // name is chosen now (random, created with createDirectory, which refuses an existing path) so that the
            // nodes' command lines can name it.
            dir = Path.of(System.getProperty("java.io.tmpdir")).resolve("rcc-tcp-" + ClusterSecret.fresh().substring(0, 20));
            byte[] secret = (ClusterSecret.fresh() + "\n").getBytes(StandardCharsets.US_ASCII);
            String configJson = JsonMapper.builder().build().writeValueAsString(config.toMap());
            Path cfg = dir.resolve("config.json");
            Path result = dir.resolve("result.bin");
            List<String> hosts = new ArrayList<>();
            for (int port : freePorts(config.nodes())) hosts.add("127.0.0.1:" + port);
            Runtime.getRuntime().addShutdownHook(hook);
            String[] last = new String[config.nodes()];
            boolean[] done = new boolean[config.nodes()];
            List<Thread> pumps = new ArrayList<>();
            for (int i = 0; i < config.nodes(); i++) {
                List<String> cmd = new ArrayList<>(javaCommand(mainClass));
                cmd.addAll(List.of("node", cfg.toString(), "--id", Integer.toString(i), "--hosts", String.join(",", hosts),
                        "--secret-file", "-", "--watch-parent", "--run-dir", dir.toString(),
                        // rcc node takes tcp unless told otherwise: name this run's fabric
                        "--set", Config.FABRIC.key() + "=" + config.fabric()));
                if (i == 0) cmd.addAll(List.of("--result-file", result.toString()));
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                procs.add(p);
                pumps.add(pump(p, i, progress, last, done));
            }
            // every node now waits for its secret (the first line of its stdin) before it reads the config
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            made[0] = dir;                          // ours: removed on every exit path of this process that runs code
            Files.writeString(cfg, configJson);
            for (Process p : procs) {
                // the secret, then nothing: the node reads end-of-file when this process is gone, however it ends
                try {
                    p.getOutputStream().write(secret);
                    p.getOutputStream().flush();
                } catch (IOException gone) {
                    // the node ended already: waitAll reports why
                }
            }
            if (progress != null) progress.println("rcc: " + config.fabric() + ": " + config.nodes() + " node processes on " + String.join(", ", hosts));
            int failed = waitAll(procs, pumps, done, result);
            if (failed >= 0) {
                stopAll(procs);
                for (Thread t : pumps) t.join(1000);
                Process p = procs.get(failed);
                String why = why(p.exitValue(), last[failed]);
                // a node that stopped for bad input (a refused secret or config): the user's to fix, exit 2 as well
                if (p.exitValue() == BAD_INPUT_EXIT) throw new ConfigException(what + " stopped: node " + failed + ": " + why);
                throw new ClusterFailure(what + " stopped: node " + failed + " failed: " + why);
            }
            for (int i = 0; i < procs.size(); i++) {
                if (procs.get(i).exitValue() != 0 && progress != null) {
                    progress.println("rcc: note: node " + i + " " + how(procs.get(i).exitValue()) + " after the results were complete;"
                            + " they are kept");
                }
            }
            for (Thread t : pumps) t.join(1000);
            if (!Files.exists(result)) throw new ClusterFailure(what + " stopped: node 0 ended without a result");
            RunResult r = (RunResult) NodeReports.deserialize(Files.readAllBytes(result), "node 0's result");
            r.config = config;
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterFailure(what + " interrupted");
        } finally {
            stopAll(procs);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down: the hook runs anyway
            }
            if (made[0] != null) deleteTree(made[0]);
        }
    }

    /**
     * Waits until every node finished (returns -1) or one failed (returns it; a node that failed by itself first). A
     * node finished when it exited 0, or when it ended otherwise (killed, say) after its part of the results was
     * complete: a node other than node 0 after it said so ({@link #DONE}, which its pump sets in {@code done}; the
     * pump is awaited up to 1 s so that its last lines are read), node 0 after it left {@code result} (issue 38).
     */
    static int waitAll(List<Process> procs, List<Thread> pumps, boolean[] done, Path result) throws InterruptedException {
        while (true) {
            boolean all = true;
            int failed = -1;
            for (int i = 0; i < procs.size(); i++) {
                Process p = procs.get(i);
                if (p.isAlive()) {
                    all = false;
                    continue;
                }
                if (finished(i, p, pumps, done, result)) continue;
                int code = p.exitValue();
                // prefer the node that failed on its own (killed, crashed) over those it took down with it (exit 3)
                if (failed < 0 || (procs.get(failed).exitValue() == CLUSTER_EXIT && code != CLUSTER_EXIT)) failed = i;
            }
            if (failed >= 0) {
                Thread.sleep(POLL_MS * 5);     // let the node that caused it be seen too
                for (int i = 0; i < procs.size(); i++) {
                    Process p = procs.get(i);
                    if (!p.isAlive() && p.exitValue() != CLUSTER_EXIT && !finished(i, p, pumps, done, result)
                            && procs.get(failed).exitValue() == CLUSTER_EXIT) failed = i;
                }
                return failed;
            }
            if (all) return -1;
            Thread.sleep(POLL_MS);
        }
    }

    /** Whether node {@code i}, which has ended, ended with its part of the results complete. */
    private static boolean finished(int i, Process p, List<Thread> pumps, boolean[] done, Path result) throws InterruptedException {
        if (p.exitValue() == 0) return true;
        if (i == 0) return result != null && Files.exists(result);
        pumps.get(i).join(1000);
        synchronized (done) {
            return done[i];
        }
    }

    /**
     * Why a node with exit code {@code code} failed, for the launcher's last line: the node's own last line when it
     * stopped by itself (bad input, exit 2; the cluster failed, exit 3: it names the cause), else the signal or the exit
     * code first, its last line after as context (issue 38 finding 6: a killed node's last line is its progress).
     */
    static String why(int code, String lastLine) {
        String line = lastLine == null ? null : lastLine.replaceFirst("^rcc: ", "");
        if (line != null && (code == BAD_INPUT_EXIT || code == CLUSTER_EXIT)) return line;
        return how(code) + (line == null ? "" : "; its last line: " + line);
    }

    /** "killed by signal 9 (SIGKILL)" or "exited with code 5". */
    static String how(int code) {
        if (code <= 128 || code >= 160) return "exited with code " + code;
        int sig = code - 128;
        String name = switch (sig) {
            case 1 -> "SIGHUP"; case 2 -> "SIGINT"; case 3 -> "SIGQUIT"; case 4 -> "SIGILL"; case 6 -> "SIGABRT"; case 7 -> "SIGBUS";
            case 8 -> "SIGFPE"; case 9 -> "SIGKILL"; case 11 -> "SIGSEGV"; case 13 -> "SIGPIPE"; case 15 -> "SIGTERM";
            default -> null;
        };
        return "killed by signal " + sig + (name == null ? "" : " (" + name + ")");
    }

    /** Stops every node still running: politely, then by force after a grace period. */
    static void stopAll(List<Process> procs) {
        for (Process p : procs) if (p.isAlive()) p.destroy();
        long deadline = System.nanoTime() + GRACE_MS * 1_000_000L;
        for (Process p : procs) {
            try {
                long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
                if (!p.waitFor(left, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(GRACE_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Copies a node's output, each line prefixed with its node, remembers its last "rcc: " line and whether it said it
     * was done ({@link #DONE}).
     */
    static Thread pump(Process p, int node, PrintStream progress, String[] last, boolean[] done) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("rcc: ")) last[node] = line;
                    if (line.equals("rcc: node " + node + DONE)) {
                        synchronized (done) {
                            done[node] = true;
                        }
                    }
                    if (progress != null) progress.println("[node " + node + "] " + line);
                }
            } catch (IOException ignored) {
                // the node is gone
            }
        }, "rcc-node-" + node + "-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The command that starts this program again: same java, JVM flags and class path. */
    public static List<String> javaCommand(String mainClass) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-agentlib:jdwp") || a.startsWith("-javaagent")) continue;
            cmd.add(a);
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        return cmd;
    }

    /**
     * Ports free on loopback right now (each bound and released; the nodes bind them a moment later), taken below the
     * kernel's ephemeral range where it is known: a port from that range can be handed to any socket that binds port
     * 0 meanwhile, and UCX over TCP binds such sockets in every node, so node 0 re-listening on its port for the next
     * config of a multi-config `rcc node` found it taken.
     */
    public static int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        List<ServerSocket> held = new ArrayList<>();
        int low = ephemeralLow();
        java.util.SplittableRandom rng = new java.util.SplittableRandom();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket s = null;
                for (int tries = 0; s == null && low > 20_000 && tries < 200; tries++) {
                    try {
                        s = new ServerSocket(rng.nextInt(20_000, low), 1, InetAddress.getLoopbackAddress());
                    } catch (IOException taken) {
                        // in use: try another
                    }
                }
                if (s == null) s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports[i] = s.getLocalPort();
            }
        } finally {
            for (ServerSocket s : held) s.close();
        }
        return ports;
    }

    /** The first port of the kernel's ephemeral range (Linux), or 0 when unknown. */
    private static int ephemeralLow() {
        try {
            String[] r = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
            return Integer.parseInt(r[0]);
        } catch (IOException | RuntimeException unknown) {
            return 0;
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }
}
