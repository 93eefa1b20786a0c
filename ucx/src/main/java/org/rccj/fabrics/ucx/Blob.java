package org.rccj.fabrics.ucx;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * What a node tells the others through the control plane's exchange: its workers' UCP addresses and its registered
 * chunks (address and packed remote key, by region then chunk). Little-endian: i32 length + bytes per address;
 * i32 region count; per region i32 chunk count, then per chunk i64 address, i32 key length, key bytes.
 */
record Blob(byte[][] addresses, List<List<Blob.Chunk>> chunks) {
    /** One registered chunk of a region: where it is in its node's address space and the key to reach it. */
    record Chunk(long address, byte[] rkey) {}

    static Blob parse(byte[] b, int threads) {
        ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        byte[][] addresses = new byte[threads][];
        for (int t = 0; t < threads; t++) in.get(addresses[t] = new byte[in.getInt()]);
        List<List<Chunk>> regions = new ArrayList<>();
        for (int r = in.getInt(); r > 0; r--) {
            List<Chunk> cs = new ArrayList<>();
            for (int c = in.getInt(); c > 0; c--) {
                long address = in.getLong();
                byte[] key = new byte[in.getInt()];
                in.get(key);
                cs.add(new Chunk(address, key));
            }
            regions.add(cs);
        }
        return new Blob(addresses, regions);
    }

    byte[] bytes() {
        int size = 4;
        for (byte[] a : addresses) size += 4 + a.length;
        for (List<Chunk> cs : chunks) {
            size += 4;
            for (Chunk c : cs) size += 12 + c.rkey().length;
        }
        ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] a : addresses) out.putInt(a.length).put(a);
        out.putInt(chunks.size());
        for (List<Chunk> cs : chunks) {
            out.putInt(cs.size());
            for (Chunk c : cs) out.putLong(c.address()).putInt(c.rkey().length).put(c.rkey());
        }
        return out.array();
    }
}
