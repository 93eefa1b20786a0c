package org.rccj.primitives;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Zeroed memory whose pages exist only once touched: a file in /dev/shm (tmpfs), mapped and unlinked at once, so
 * nothing is left behind however the JVM ends and the pages return when the buffer is collected. A direct buffer is
 * zeroed by the JVM page by page when allocated, so a region that is mostly never touched (the coordinator log's
 * rings, nodes x threads of them on every node) would be resident in full.
 */
final class SparseMemory {
    private static final Path SHM = Path.of("/dev/shm");

    private SparseMemory() {}

    /** Whether sparse regions are mapped from /dev/shm here (else they are plain direct memory). */
    private static boolean available() { return Files.isDirectory(SHM) && Files.isWritable(SHM); }

    /**
     * The bytes /dev/shm can still hold (statvfs: its free blocks), or -1 where sparse regions are not mapped from it.
     * A page touched beyond them is not an error the JVM can report: the access faults (SIGBUS).
     */
    static long space() {
        if (!available()) return -1;
        try {
            return Files.getFileStore(SHM).getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }

    /** A mapped buffer of {@code bytes} zero bytes, or null where /dev/shm is not available. */
    static ByteBuffer map(int bytes) {
        if (!available()) return null;
        Path f = null;
        try {
            f = Files.createTempFile(SHM, "rcc-sparse-", ".mem");
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                return ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes).order(ByteOrder.nativeOrder());
            }
        } catch (IOException | RuntimeException e) {
            return null;        // full or refused: plain direct memory instead
        } finally {
            if (f != null) {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException ignored) {
                    // mapped pages stay valid; an unlinked name is all that could be left
                }
            }
        }
    }
}
