package org.rccj.ucx;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Finding libucp, refusing one it does not know, and saying so in one line (each case in its own process). */
class UcxLoadTest {
    @Test
    void loadsTheInstalledLibrary() throws Exception {
        Result r = probe(null);
        assertEquals(0, r.rc, r.out);
        assertTrue(r.out.matches("loaded 1\\.\\d+\\.\\d+\\nUCX_ERROR_SIGNALS=\\[\\]\\n"), "libucs loaded with its error signal handlers: " + r.out);
    }

    @Test
    void aMissingLibraryNamesThePackage(@TempDir Path dir) throws Exception {
        Result r = probe(dir.resolve("nowhere").toString());
        assertEquals(2, r.rc);
        assertEquals(1, r.out.lines().count(), r.out);
        assertTrue(r.out.contains("not found") && r.out.contains("apt-get install libucx0"), r.out);
    }

    /** A stand-in libucp (compiled here) that reports UCX 1.99.0, beside the real libucs. */
    @Test
    void anUnknownVersionIsRefused(@TempDir Path dir) throws Exception {
        Path c = dir.resolve("fake.c");
        Files.writeString(c, "void ucp_get_version(unsigned *a, unsigned *b, unsigned *c){*a=1;*b=99;*c=0;}\n");
        StructsProbeTest.run(dir, "gcc", "-shared", "-fPIC", "-Wl,-soname,libucp.so.0", "-o",
                dir.resolve("libucp.so.0").toString(), c.toString());
        Result r = probe(dir.toString());
        assertEquals(2, r.rc, r.out);
        assertEquals("UCX 1.99.0 is not a version RCC-J's UCX binding knows (it knows 1.13 to 1.19): install one of"
                + " those (libucx0) or point RCC_UCX_LIB_DIR at one\n", r.out);
    }

    @Test
    void versionCheckBounds() {
        Ucx.checkVersion(1, 13, "1.13.1");
        Ucx.checkVersion(1, 19, "1.19.0");
        assertThrows(UcxException.class, () -> Ucx.checkVersion(1, 12, "1.12.1"));
        assertThrows(UcxException.class, () -> Ucx.checkVersion(1, 20, "1.20.0"));
        assertThrows(UcxException.class, () -> Ucx.checkVersion(2, 13, "2.13.0"));
    }

    @Test
    void aFailedCallSaysWhichAndWhyInUcxWords() {
        Ucx.load();
        UcxException e = assertThrows(UcxException.class,
                () -> Ucx.load().newContext(java.util.Map.of("TLS", "no-such-transport")).close());
        // UCX accepts unknown transport names in TLS and fails at init: the call and ucs_status_string
        assertTrue(e.getMessage().startsWith("ucp_init: ") || e.getMessage().startsWith("ucp_config_modify"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    record Result(int rc, String out) {}

    static Result probe(String libDir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), UcxLoadProbe.class.getName()));
        if (libDir != null) pb.environment().put(Ucx.LIB_DIR_ENV, libDir);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            return new Result(p.exitValue(), out);
        } finally {
            p.destroyForcibly();
        }
    }
}
