package org.rccj.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;
import org.rccj.framework.run.RunResult;

/**
 * Writes a result directory (summary.json, stages.csv, timeline.csv, latency.hlog) so that nothing half-written ever
 * looks like a result: the files go into a hidden temporary sibling ({@code .NAME.tmp-*}), which is
 * renamed to the target when complete. An existing result directory is first renamed aside
 * ({@code .NAME.old-*}) and deleted after the new one is in place. A directory that exists and does not
 * look like a result (non-empty, no summary.json) is never replaced.
 */
public final class ResultWriter {
    private ResultWriter() {}

    /**
     * Why {@code dir} cannot receive a result, or null if it can (absent, empty, or a previous result).
     * Call before a long run to fail early.
     */
    public static String problemWith(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) return null;
        if (!Files.isDirectory(dir)) return dir + " exists and is not a directory";
        if (Files.exists(dir.resolve(SummaryJson.FILE_NAME))) return null;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            if (ds.iterator().hasNext()) {
                return dir + " exists and is not a result directory (no " + SummaryJson.FILE_NAME
                        + "); refusing to replace it; choose another --out";
            }
        } catch (IOException e) {
            return dir + " cannot be read: " + e.getMessage();
        }
        return null;
    }

    /**
     * Writes the result of {@code r} to {@code dir}, creating parent directories, replacing a previous
     * result there.
     * @return the absolute, normalized result directory
     * @throws IOException on I/O failure or when {@link #problemWith} objects to {@code dir}
     */
    public static Path write(RunResult r, Path dir) throws IOException {
        Path target = dir.toAbsolutePath().normalize();
        String problem = problemWith(target);
        if (problem != null) throw new IOException(problem);
        Path parent = target.getParent();
        if (parent == null) throw new IOException("cannot write a result directory at " + target);
        Files.createDirectories(parent);
        String base = "." + target.getFileName();
        // a plain create (not createTempDirectory, which makes 0700 directories) so the result follows the umask
        Path tmp = Files.createDirectory(parent.resolve(base + ".tmp-" + UUID.randomUUID()));
        try {
            SummaryJson.write(r, tmp.resolve(SummaryJson.FILE_NAME));
            StagesCsv.write(r, tmp.resolve(StagesCsv.FILE_NAME));
            TimelineCsv.write(r, tmp.resolve(TimelineCsv.FILE_NAME));
            LatencyLog.write(r, tmp.resolve(LatencyLog.FILE_NAME));
            Path profile = SummaryJson.profileFile(r.config);
            if (profile != null) Files.copy(profile, tmp.resolve(SummaryJson.PROFILE_COPY));
            publish(tmp, target, parent.resolve(base + ".old-" + UUID.randomUUID()));
        } catch (IOException | RuntimeException e) {
            deleteTree(tmp);
            throw e;
        }
        return target;
    }

    private static void publish(Path tmp, Path target, Path aside) throws IOException {
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            move(tmp, target);
            return;
        }
        move(target, aside);
        try {
            move(tmp, target);
        } catch (IOException e) {
            try {
                move(aside, target);
            } catch (IOException restore) {
                e.addSuppressed(restore);
            }
            throw e;
        }
        deleteTree(aside);
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    /** Deletes a directory tree without following symbolic links; best effort. */
    static void deleteTree(Path root) {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // leftovers are hidden (.NAME.tmp-* / .NAME.old-*) and never taken for a result
        }
    }
}
