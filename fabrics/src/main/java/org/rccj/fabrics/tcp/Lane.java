package org.rccj.fabrics.tcp;

import java.nio.ByteBuffer;
import org.rccj.fabrics.cluster.Link;
import org.rccj.fabrics.cluster.Malformed;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.Verb;

/**
 * The tcp data plane's side of one connection ({@link Link}) to a peer: encodes doorbell batches, RPCs and
 * replies into its outgoing buffer and matches the responses to the ops waiting for them. Guarded by the link's
 * monitor, like the buffer.
 */
final class Lane {
    final Link link;
    private final TcpFabric fabric;
    // one-sided batches awaiting their response, in sending order
    private Op[] osOps = new Op[256];
    private int[] osCounts = new int[64];
    private int osHead, osTail, opHead, opTail;
    // RPCs awaiting their reply, by wire id
    private Op[] rpc = new Op[64];
    private int[] free = new int[64];
    private int freeTop;
    private final Op[] scratchBatch = new Op[Wire.MAX_BATCH];

    Lane(TcpFabric fabric, Link link) {
        this.fabric = fabric;
        this.link = link;
        for (int i = 0; i < rpc.length; i++) free[freeTop++] = rpc.length - 1 - i;
    }

    /** Encodes a doorbell batch as one OS frame and remembers its ops for the response. */
    void sendBatch(Op[] ops, int n) {
        synchronized (link) {
            int bytes = 7;
            for (int i = 0; i < n; i++) bytes += 17 + switch (ops[i].verb) {
                case CAS -> 16;
                case FAA -> 8;
                case WRITE -> ops[i].length;
                default -> 0;
            };
            ByteBuffer o = link.reserve(bytes);
            o.putInt(bytes - 4).put(Wire.OS).putShort((short) n);
            for (int i = 0; i < n; i++) {
                Op op = ops[i];
                byte v = switch (op.verb) {
                    case READ -> Wire.READ;
                    case WRITE -> Wire.WRITE;
                    case CAS -> Wire.CAS;
                    case FAA -> Wire.FAA;
                    default -> throw new IllegalArgumentException("not a one-sided verb in a batch: " + op.verb);
                };
                o.put(v).putInt(op.region).putLong(op.offset).putInt(op.verb == Verb.CAS || op.verb == Verb.FAA ? 8 : op.length);
                switch (op.verb) {
                    case CAS -> o.putLong(op.compare).putLong(op.value);
                    case FAA -> o.putLong(op.value);
                    case WRITE -> o.put(op.data, 0, op.length);
                    default -> { }
                }
                if (opTail - opHead == osOps.length) osOps = grow(osOps, opHead, opTail);
                osOps[opTail++ & (osOps.length - 1)] = op;
            }
            if (osTail - osHead == osCounts.length) osCounts = grow(osCounts, osHead, osTail);
            osCounts[osTail++ & (osCounts.length - 1)] = n;
        }
    }

    private static Op[] grow(Op[] a, int head, int tail) {
        Op[] b = new Op[a.length * 2];
        for (int i = head; i < tail; i++) b[i & (b.length - 1)] = a[i & (a.length - 1)];
        return b;
    }

    private static int[] grow(int[] a, int head, int tail) {
        int[] b = new int[a.length * 2];
        for (int i = head; i < tail; i++) b[i & (b.length - 1)] = a[i & (a.length - 1)];
        return b;
    }

    /** The response to the oldest OS frame: results into its ops, then completions. */
    void completeOneSided(ByteBuffer in) throws Malformed {
        int count = in.getShort() & 0xffff;
        int start;
        synchronized (link) {
            if (osHead == osTail) throw new Malformed("a response to no one-sided batch");
            int n = osCounts[osHead++ & (osCounts.length - 1)];
            if (n != count) throw new Malformed("a response of " + count + " ops to a batch of " + n);
            start = opHead;
            opHead += n;
            for (int i = start; i < start + n; i++) {
                Op op = osOps[i & (osOps.length - 1)];
                osOps[i & (osOps.length - 1)] = null;
                scratchBatch[i - start] = op;
            }
        }
        for (int i = 0; i < count; i++) {
            Op op = scratchBatch[i];
            switch (op.verb) {
                case READ -> in.get(op.data, 0, op.length);
                case CAS, FAA -> op.result = in.getLong();
                default -> { }
            }
            fabric.complete(op);
        }
    }

    void sendRpc(Op op) {
        synchronized (link) {
            if (freeTop == 0) {
                int old = rpc.length;
                rpc = java.util.Arrays.copyOf(rpc, old * 2);
                free = java.util.Arrays.copyOf(free, old * 2);
                for (int i = old * 2 - 1; i >= old; i--) free[freeTop++] = i;
            }
            int id = free[--freeTop];
            rpc[id] = op;
            ByteBuffer o = link.reserve(4 + 15 + op.length);
            o.putInt(15 + op.length).put(Wire.RPC).putInt(id).putInt(op.handler).putShort((short) op.srcWorker).putInt(op.length)
                    .put(op.data, 0, op.length);
        }
    }

    void completeRpc(ByteBuffer in) throws Malformed {
        int id = in.getInt(), len = in.getInt();
        if (len < 0 || len > in.remaining()) throw new Malformed("an RPC reply of " + len + " bytes in a shorter frame");
        Op op;
        synchronized (link) {
            if (id < 0 || id >= rpc.length || rpc[id] == null) throw new Malformed("a reply to unknown RPC " + id);
            op = rpc[id];
            rpc[id] = null;
            free[freeTop++] = id;
        }
        op.reply = Bytes.ensure(op.reply, len);
        in.get(op.reply, 0, len);
        op.replyLength = len;
        fabric.complete(op);
    }

    void sendReply(Op call) {
        synchronized (link) {
            ByteBuffer o = link.reserve(4 + 9 + call.replyLength);
            o.putInt(9 + call.replyLength).put(Wire.RPC_RESP).putInt((int) call.compare).putInt(call.replyLength)
                    .put(call.reply, 0, call.replyLength);
        }
    }
}
