package org.rccj.ucx;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every field of every struct in {@link Structs} sits where the installed UCX headers (libucx-dev) put it, and
 * every struct has the header's size: a C probe printing offsetof/sizeof, compiled with gcc here.
 */
class StructsProbeTest {
    @Test
    void layoutsMatchTheInstalledHeaders(@TempDir Path dir) throws Exception {
        Map<String, Long> java = new TreeMap<>(), c = new TreeMap<>();
        StringBuilder src = new StringBuilder("#include <stdio.h>\n#include <stddef.h>\n#include <ucp/api/ucp.h>\nint main(void){\n");
        for (Map.Entry<String, StructLayout> e : Structs.ALL.entrySet()) {
            String t = e.getKey();
            StructLayout s = e.getValue();
            java.put(t + " sizeof", s.byteSize());
            src.append("printf(\"%s sizeof %zu\\n\", \"").append(t).append("\", sizeof(").append(t).append("));\n");
            for (MemoryLayout m : s.memberLayouts()) {
                if (m instanceof PaddingLayout) continue;
                String f = m.name().orElseThrow();
                java.put(t + " " + f + " offset", Structs.offset(s, f));
                java.put(t + " " + f + " size", m.byteSize());
                src.append("printf(\"%s %s offset %zu\\n\", \"").append(t).append("\", \"").append(f)
                        .append("\", offsetof(").append(t).append(", ").append(f).append("));\n");
                src.append("printf(\"%s %s size %zu\\n\", \"").append(t).append("\", \"").append(f)
                        .append("\", sizeof(((").append(t).append("*)0)->").append(f).append("));\n");
            }
        }
        src.append("return 0;}\n");
        Path cfile = dir.resolve("probe.c"), exe = dir.resolve("probe");
        Files.writeString(cfile, src);
        run(dir, "gcc", "-o", exe.toString(), cfile.toString());
        for (String line : run(dir, exe.toString()).split("\n")) {
            String[] w = line.trim().split(" ");
            c.put(String.join(" ", List.of(w).subList(0, w.length - 1)), Long.parseLong(w[w.length - 1]));
        }
        assertTrue(java.size() > 50, "probed fields: " + java.size());
        assertEquals(c, java);
    }

    /** The command's standard output; a missing compiler or header fails the test with what to install. */
    static String run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(new ArrayList<>(List.of(cmd))).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + cmd[0] + " (install gcc and libucx-dev): " + e.getMessage());
        }
        String out = new String(p.getInputStream().readAllBytes());
        int rc = p.waitFor();
        if (rc != 0) throw new AssertionError(String.join(" ", cmd) + " exited " + rc
                + " (are gcc and libucx-dev installed?):\n" + out);
        return out;
    }
}
