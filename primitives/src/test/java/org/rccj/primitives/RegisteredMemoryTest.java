package org.rccj.primitives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
