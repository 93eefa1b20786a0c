package org.rccj.primitives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Regions are chunked (2^30 bytes in production) so none is limited to a ByteBuffer's 2 GiB; 16-byte chunks here. */
class RegisteredMemoryTest {
    @Test
    void wordsAndByteRangesAcrossChunkBoundaries() {
        ChunkedMemory m = new ChunkedMemory(0, MemoryStorage.DIRECT, 4, false);
        int r = m.register("t", 100);
        assertEquals(100, m.regionSize(r));
        for (long off = 0; off + 8 <= 96; off += 8) m.putLong(r, off, off * 31 + 7);
        for (long off = 0; off + 8 <= 96; off += 8) assertEquals(off * 31 + 7, m.getLong(r, off), "word at " + off);
        assertEquals(7, m.cas(r, 0, 7, 99));
        assertEquals(99, m.faa(r, 0, 1));
        assertEquals(100, m.getLongVolatile(r, 0));

        byte[] src = new byte[61];
        for (int i = 0; i < src.length; i++) src[i] = (byte) (i * 3 + 1);
        m.write(r, 13, src, 0, src.length);           // unaligned, spans four chunks
        byte[] back = new byte[61];
        m.read(r, 13, back, 0, back.length);
        assertArrayEquals(src, back);
        byte[] aligned = new byte[40];
        m.read(r, 16, aligned, 0, 40);                 // aligned words across chunks
        for (int i = 0; i < 40; i++) assertEquals(src[i + 3], aligned[i], "byte " + i);
    }

    /** A sparse region (the log's rings, decision 0158) starts zeroed, holds words and atomics, and leaves no file behind. */
    @Test
    void aSparseRegionIsARegionWhosePagesComeOnTouch() throws Exception {
        java.nio.file.Path shm = java.nio.file.Path.of("/dev/shm");
        long before = java.nio.file.Files.isDirectory(shm) ? countSparseFiles(shm) : 0;
        ChunkedMemory m = new ChunkedMemory(0, MemoryStorage.DIRECT, 20, false);
        int plain = m.register("t", 64);
        int r = m.registerSparse("log", 3 << 20);          // three 1 MiB chunks
        assertEquals(plain + 1, r);
        assertEquals(3 << 20, m.regionSize(r));
        for (long off = 0; off < (3 << 20); off += 4096) assertEquals(0, m.getLong(r, off), "zeroed at " + off);
        m.putLong(r, (2 << 20) + 8, 42);
        assertEquals(42, m.cas(r, (2 << 20) + 8, 42, 43));
        assertEquals(43, m.faa(r, (2 << 20) + 8, 1));
        assertEquals(44, m.getLongVolatile(r, (2 << 20) + 8));
        if (java.nio.file.Files.isDirectory(shm)) assertEquals(before, countSparseFiles(shm), "the mapped files are unlinked at once");
    }

    private static long countSparseFiles(java.nio.file.Path shm) throws java.io.IOException {
        try (var s = java.nio.file.Files.list(shm)) {
            return s.filter(p -> p.getFileName().toString().startsWith("rcc-sparse-")).count();
        }
    }

    /** Storage that hands out its own buffers and remembers each chunk it was asked for. */
    private static final class Recording implements MemoryStorage {
        final List<String> asked = new ArrayList<>();
        final List<ByteBuffer> given = new ArrayList<>();

        @Override
        public ByteBuffer allocate(int node, int region, int chunk, int bytes) {
            asked.add(node + "/" + region + "/" + chunk + ":" + bytes);
            ByteBuffer b = ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
            given.add(b);
            return b;
        }
    }

    @Test
    void theFabricsStorageHoldsTheBytesAndAShadowAsksOnlyForTheChunksItTouches() {
        Recording storage = new Recording();
        ChunkedMemory m = new ChunkedMemory(2, storage, 4, false);
        m.register("a", 8);
        int r = m.register("b", 40);
        assertEquals(List.of("2/0/0:8", "2/1/0:16", "2/1/1:16", "2/1/2:8"), storage.asked);
        m.putLong(r, 24, 0x0102030405060708L);
        assertEquals(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? 0x0102030405060708L : Long.reverseBytes(0x0102030405060708L),
                storage.given.get(2).getLong(8), "the word is in the buffer the storage handed out");

        Recording lazy = new Recording();
        ChunkedMemory shadow = new ChunkedMemory(3, lazy, 4, true);
        int s = shadow.register("b", 40);
        assertEquals(List.of(), lazy.asked);
        assertEquals(0, shadow.getLong(s, 32));
        assertEquals(List.of("3/0/2:8"), lazy.asked);
        assertEquals(8, shadow.allocatedBytes());
    }
}
