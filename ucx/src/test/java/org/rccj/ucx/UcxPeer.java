package org.rccj.ucx;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The other process of {@link UcxTwoProcessTest}: reads the target's worker address, memory key and base
 * address from stdin, then runs one script against it and prints what it saw on stdout, one fact a line.
 * Args: TLS script [iterations]; scripts: "verbs" (READ, WRITE, CAS, FAA, an AM RPC) and "race" (FAA, CAS
 * increments and RPC increments on the same two words).
 */
public final class UcxPeer {
    public static void main(String[] args) throws Exception {
        String tls = args[0], script = args[1];
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String[] target = in.readLine().trim().split(" ");
        HexFormat hex = HexFormat.of();
        Ucx ucx = Ucx.load();
        try (UcxContext ctx = ucx.newContext(Map.of("TLS", tls)); Arena arena = Arena.ofConfined()) {
            UcxWorker w = ctx.newWorker();
            UcxEndpoint ep = w.connect(hex.parseHex(target[0]));
            UcxRemoteKey key = ep.unpack(hex.parseHex(target[1]));
            long base = Long.parseLong(target[2]);
            MemorySegment io = arena.allocate(16, 8), buf = arena.allocate(64, 8);
            String[] reply = new String[1];
            w.setAmHandler(UcxTwoProcessTest.AM_REPLY, (data, from) -> reply[0] = data.getString(0));
            if (script.equals("verbs")) {
                MemorySegment r = buf.asSlice(0, 8);
                w.await("get", ep.get(r, base, key));
                System.out.println("READ " + r.get(JAVA_LONG, 0));
                buf.set(JAVA_LONG, 8, 0x1122334455667788L);
                w.await("put", ep.put(buf.asSlice(8, 8), base + 8, key));
                w.await("cas", ep.compareSwap(base + 16, key, 5, 9, io));
                System.out.println("CAS " + io.get(JAVA_LONG, 8));
                w.await("cas", ep.compareSwap(base + 16, key, 5, 11, io));
                System.out.println("CAS " + io.get(JAVA_LONG, 8));
                w.await("faa", ep.fetchAdd(base + 24, key, 7, io));
                System.out.println("FAA " + io.get(JAVA_LONG, 8));
                rpc(w, ep, arena, "hello, unaligned", reply);
                System.out.println("RPC " + reply[0]);
                System.out.println("LANES " + ep.info().replace('\n', '|'));
            } else {
                int n = Integer.parseInt(args[2]);
                for (int i = 0; i < n; i++) {
                    w.await("faa", ep.fetchAdd(base, key, 1, io));
                    long expect = 0;
                    while (true) {
                        w.await("cas", ep.compareSwap(base + 8, key, expect, expect + 1, io));
                        long old = io.get(JAVA_LONG, 8);
                        if (old == expect) break;
                        expect = old;
                    }
                    rpc(w, ep, arena, "inc", reply);
                }
            }
            w.flush();
            key.close();
            ep.close();
            w.close();
            System.out.println("DONE");
        }
    }

    private static void rpc(UcxWorker w, UcxEndpoint ep, Arena arena, String text, String[] reply) {
        reply[0] = null;
        // one byte in front, so the payload the handler sees is not 8-byte aligned in our buffer either
        MemorySegment msg = arena.allocate(text.length() + 2).asSlice(1);
        msg.setString(0, text);
        w.await("am", ep.send(UcxTwoProcessTest.AM_REQUEST, msg));
        while (reply[0] == null) w.progress();
    }
}
