package org.rccj.experiments;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import org.rccj.framework.config.ConfigException;
import org.rccj.experiments.config.ConfigLoader;

/**
 * Checks, before any work, that every path a command will write can be written: the result directory
 * (created with its parents), a history file, a CSV file. A failure is bad input naming the option, the
 * path and the operating system's reason. The checks really try (create and remove a probe file), so the
 * reason is the one the OS gives, not a guess.
 */
public final class OutputPaths {
    private OutputPaths() {}

    /**
     * A directory that will be created if absent (with its parents) and written into.
     * @param what how the user named it, e.g. "--out"
     */
    public static void checkDir(String what, Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (Files.exists(abs) && !Files.isDirectory(abs)) throw fail(what, dir, "exists and is not a directory");
        Path existing = abs;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) existing = existing.getParent();
        if (existing == null) throw fail(what, dir, "no existing parent directory");
        if (!Files.isDirectory(existing)) throw fail(what, dir, existing + ": Not a directory");
        probe(what, dir, existing);
    }

    /** A file that will be created or replaced; its directory must exist (as for a shell redirection). */
    public static void checkFile(String what, Path file) {
        Path abs = file.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) throw fail(what, file, "is a directory");
        Path parent = abs.getParent();
        if (parent == null) throw fail(what, file, "not a file path");
        if (!Files.exists(parent)) {
            throw fail(what, file, parent + ": No such file or directory (create the directory first)");
        }
        if (!Files.isDirectory(parent)) throw fail(what, file, parent + ": Not a directory");
        if (Files.exists(abs)) {
            try (var ch = Files.newByteChannel(abs, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                return;
            } catch (IOException e) {
                throw fail(what, file, reason(e));
            }
        }
        probe(what, file, parent);
    }

    /** Creates and deletes a probe file in {@code existingDir}: the OS says whether (and why not) it can be written. */
    private static void probe(String what, Path target, Path existingDir) {
        Path p = existingDir.resolve(".rcc-probe-" + UUID.randomUUID());
        try {
            Files.createFile(p);
        } catch (IOException e) {
            String r = reason(e);
            int colon = r.indexOf(p.toString() + ": ");
            if (colon >= 0) r = r.substring(colon + p.toString().length() + 2);
            // the directory exists: say that the OS refused an entry in it (in /proc that refusal reads "No such file or directory")
            throw fail(what, target, "the OS refuses to create a file in the existing directory " + existingDir + ": " + r);
        } finally {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // nothing was created
            }
        }
    }

    private static ConfigException fail(String what, Path path, String reason) {
        return new ConfigException(what + " " + path + ": cannot write: " + reason);
    }

    /** The operating system's reason for an I/O failure, e.g. "/proc: Permission denied" or "No such file or directory". */
    public static String reason(Exception e) {
        if (e instanceof AccessDeniedException a) return where(a) + (a.getReason() != null ? a.getReason() : "Permission denied");
        if (e instanceof NoSuchFileException n) return where(n) + (n.getReason() != null ? n.getReason() : "No such file or directory");
        if (e instanceof NotDirectoryException n) return where(n) + "Not a directory";
        if (e instanceof FileSystemException f && f.getReason() != null) return where(f) + f.getReason();
        return ConfigLoader.oneLine(String.valueOf(e.getMessage()));
    }

    private static String where(FileSystemException e) {
        return e.getFile() == null ? "" : e.getFile() + ": ";
    }
}
