package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 42 item 4: the commit recorded is RCC-J's own, found from where its classes were loaded, not from the cwd. */
class EnvironmentTest {
    @TempDir Path tmp;

    private static String sh(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out.strip();
    }

    @Test
    void theCommitIsTheCheckoutsThatHoldsTheClassesWithItsDirtyState() throws Exception {
        // a checkout with classes deep inside it (as target/classes or a jar under it)
        Path repo = tmp.resolve("repo"), classes = repo.resolve("mod/target/classes");
        Files.createDirectories(classes);
        Files.writeString(repo.resolve("a.txt"), "one\n");
        sh(repo, "git", "init", "-q");
        sh(repo, "git", "add", "a.txt");
        sh(repo, "git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "one");
        String head = sh(repo, "git", "rev-parse", "--short", "HEAD");
        assertEquals(repo, Environment.checkout(classes));
        assertEquals(head, Environment.gitOf(Environment.checkout(classes)));
        Files.writeString(repo.resolve("untracked-result.json"), "{}");
        assertEquals(head, Environment.gitOf(repo), "untracked files (results) do not make it dirty");
        Files.writeString(repo.resolve("a.txt"), "two\n");
        assertEquals(head + "-dirty", Environment.gitOf(repo));
        // outside any checkout: no commit from there (never the working directory's)
        Path elsewhere = Files.createDirectories(tmp.resolve("paper/repo"));
        assertNull(Environment.checkout(elsewhere));
        assertNull(Environment.gitOf(null));
    }

    @Test
    void thisBuildsCommitComesFromWhereItsClassesAre() throws Exception {
        Path location = Environment.codeLocation();
        assertNotNull(location);
        Path checkout = Environment.checkout(location);
        String git = Environment.git();
        if (checkout == null) {
            // a build outside a checkout: the commit embedded by ./rcc's build, or unknown
            assertTrue(git.equals("unknown") || git.endsWith(" (built)"), git);
            return;
        }
        assertTrue(git.startsWith(sh(checkout, "git", "rev-parse", "--short", "HEAD")), git);
        assertTrue(List.of("unknown").stream().noneMatch(git::equals));
        // the resource a plain Maven build leaves unfilled reads as unknown, never as the placeholder
        String embedded = Environment.embedded();
        assertTrue(embedded.equals("unknown") || embedded.endsWith(" (built)"), embedded);
    }
}
