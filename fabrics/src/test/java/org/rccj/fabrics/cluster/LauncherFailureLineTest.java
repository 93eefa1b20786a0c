package org.rccj.fabrics.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38 finding 6, with real processes standing in for the nodes (sh scripts that print what a node prints and
 * then die as the did): the launcher names the signal or exit code of a node that failed, its last line
 * only as context; a node that dies after its part of the results was with node 0 (it printed "done") does not
 * throw node 0's result away, nor does node 0 dying after it left its result file.
 */
class LauncherFailureLineTest {
    @TempDir Path dir;
    private final List<Process> procs = new ArrayList<>();

    @AfterEach
    void killAll() throws InterruptedException {
        for (Process p : procs) p.destroyForcibly();
        for (Process p : procs) p.waitFor(10, TimeUnit.SECONDS);
    }

    private int await(String[] last, Path result, String... scripts) throws IOException, InterruptedException {
        killAll();                      // the processes of an earlier call are over (or killed)
        procs.clear();
        boolean[] done = new boolean[scripts.length];
        List<Thread> pumps = new ArrayList<>();
        for (int i = 0; i < scripts.length; i++) {
            Process p = new ProcessBuilder("sh", "-c", scripts[i]).redirectErrorStream(true).start();
            procs.add(p);
            pumps.add(LocalLauncher.pump(p, i, null, last, done));
        }
        int failed = LocalLauncher.waitAll(procs, pumps, done, result);
        for (Thread t : pumps) t.join(2000);
        return failed;
    }

    @Test
    void aKilledNodeIsNamedBySignalWithItsLastLineAsContext() throws Exception {
        String[] last = new String[2];
        int failed = await(last, dir.resolve("result.bin"), "exec sleep 30",
                "echo \"rcc: node 1 of 2 joined; running 'long'\"; kill -9 $$");
        assertEquals(1, failed);
        assertEquals("killed by signal 9 (SIGKILL); its last line: node 1 of 2 joined; running 'long'",
                LocalLauncher.why(procs.get(1).exitValue(), last[1]));
        // a node that stopped by itself names the cause in its own last line: that line is the reason
        assertEquals("node 1 (127.0.0.1:7401) sent nothing for 2.0 s: it hung or the network failed",
                LocalLauncher.why(LocalLauncher.CLUSTER_EXIT, "rcc: node 1 (127.0.0.1:7401) sent nothing for 2.0 s: it hung or the network failed"));
        assertEquals("exited with code 5", LocalLauncher.why(5, null));
    }

    @Test
    void aNodeKilledAfterItSaidDoneDoesNotFailTheRun() throws Exception {
        Path result = dir.resolve("result.bin");
        int failed = await(new String[2], result, "sleep 0.5; echo result > " + result,
                "echo 'rcc: node 1" + LocalLauncher.DONE + "'; kill -9 $$");
        assertEquals(-1, failed, "node 1 had handed its report to node 0 when it was killed");
        assertEquals(137, procs.get(1).exitValue());
    }

    @Test
    void nodeZeroKilledAfterItLeftItsResultDoesNotFailTheRun() throws Exception {
        Path result = dir.resolve("result.bin");
        assertEquals(-1, await(new String[2], result, "echo result > " + result + "; kill -9 $$", "sleep 0.3"));
        Files.delete(result);
        assertEquals(0, await(new String[2], result, "kill -9 $$", "sleep 0.3"), "no result: node 0 failed");
    }
}
