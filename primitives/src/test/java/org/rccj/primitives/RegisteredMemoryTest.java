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
