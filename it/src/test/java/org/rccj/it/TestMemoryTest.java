package org.rccj.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rccj.fabrics.cluster.LocalLauncher;

/**
 * The test suite's memory stays bounded (issue 33; docs/measurements/test-suite.md): a test JVM's heap and direct
 * memory are capped (and so are the node processes a test starts, which copy its JVM flags), and an in-process ucx
 * run gives its shared-memory segments back when it ends instead of keeping them for the rest of the JVM's life.
 */
class TestMemoryTest {
    private static final long GIB = 1L << 30;

    @Test
    void testJvmsAndTheirNodeProcessesHaveAHeapLimit() {
        assertTrue(Runtime.getRuntime().maxMemory() <= GIB + GIB / 8, "test JVM heap limit " + Runtime.getRuntime().maxMemory());
        String node = String.join(" ", LocalLauncher.javaCommand("Main"));
        assertTrue(node.contains(" -Xmx") && node.contains(" -XX:MaxDirectMemorySize="), "a node process a test starts: " + node);
    }

    @Test
    void anInProcessUcxRunReleasesItsSharedMemory() throws IOException {
        long before = kib("RssShmem");
        Map<String, Object> m = ItRuns.config("occ", "smallbank", "hybrid", "all-onesided", "fabric", "ucx", "ucx.tls", "posix,self",
                "nodes", 3, "threads", 1, "coroutines", 2, "warmup_ms", 10, "duration_ms", 30, "verify", false,
                "workload.accounts_per_thread", 200_000);          // ~3 x 30 MiB of registered memory: well above the noise
        ItRuns.run(m);
        long after = kib("RssShmem");
        assertTrue(after - before < 16 * 1024, "shared memory still mapped after the run: " + (after - before) + " KiB more than before");
    }

    /** A field of this process's /proc/self/status, in KiB. */
    private static long kib(String field) throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith(field + ":")) return Long.parseLong(l.substring(field.length() + 1).trim().split("\\s+")[0]);
        }
        throw new AssertionError("no " + field + " in /proc/self/status");
    }
}
