package org.rccj.fabrics.tcp;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.rccj.fabrics.cluster.DataPlane;
import org.rccj.fabrics.cluster.Link;
import org.rccj.fabrics.cluster.Malformed;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * The tcp fabric's data plane on the cluster's network thread (the soft NIC): serves one-sided READ/WRITE/CAS/FAA
 * arriving from the wire directly on registered memory (never through a worker, so one-sided costs no worker CPU
 * at the target), matches responses to the ops waiting for them, and hands RPC requests to the target worker.
 */
final class SoftNic implements DataPlane {
    private final TcpFabric fabric;
    final ConcurrentLinkedQueue<Op> callPool = new ConcurrentLinkedQueue<>();
    /**
     * Set by {@link TcpFabric#run} once every worker's host is installed. A peer may start sending RPCs at the start
     * instant, before this node's run() has installed the hosts that know the handler ids: such RPCs are held (network
     * thread only) and checked and delivered, in arrival order, once it is set.
     */
    volatile boolean hostsReady;
    private final ArrayDeque<Op> held = new ArrayDeque<>();

    SoftNic(TcpFabric fabric) { this.fabric = fabric; }

    @Override public void connected(Link link) { fabric.connected(link); }
    @Override public boolean finished() { return fabric.finished(); }
    @Override public void stopping() { fabric.wakeWorkers(); }

    @Override
    public void pass() {
        if (hostsReady && !held.isEmpty()) deliverHeld();
    }

    @Override
    public void frame(Link link, byte type, ByteBuffer in, byte[][] scratch) throws Malformed {
        switch (type) {
            case Wire.OS -> serveOneSided(link, in, scratch);
            case Wire.OS_RESP -> fabric.lane(link).completeOneSided(in);
            case Wire.RPC -> {
                int id = in.getInt(), handler = in.getInt(), srcWorker = in.getShort() & 0xffff, len = in.getInt();
                if (len < 0 || len > in.remaining()) throw new Malformed("an RPC of " + len + " bytes in a shorter frame");
                if (handler < 0) throw new Malformed("an RPC to unknown handler " + handler);
                if (srcWorker % fabric.lanes != link.lane) throw new Malformed("an RPC of its worker " + srcWorker + " on connection " + link.lane);
                Op call = callPool.poll();
                if (call == null) call = new Op();
                call.rpc(fabric.self, handler, len);
                in.get(call.data, 0, len);
                call.srcNode = link.node;
                call.srcWorker = srcWorker;
                call.compare = id;              // the wire id of an arrived RPC, echoed in its reply
                if (!hostsReady) {
                    held.add(call);
                    return;
                }
                if (!held.isEmpty()) deliverHeld();
                deliver(call);
            }
            case Wire.RPC_RESP -> fabric.lane(link).completeRpc(in);
            default -> throw new Malformed("a frame of unknown type " + type);
        }
    }

    /** Hands an arrived RPC to its target worker once its handler id is checked against that worker's host. */
    private void deliver(Op call) throws Malformed {
        TcpFabric.TcpWorker target = fabric.worker(call.srcWorker % fabric.threads);
        int handlers = target.host.handlers();
        if (call.handler >= handlers) {
            callPool.add(call);
            throw new Malformed("an RPC to unknown handler " + call.handler + " (node " + fabric.self + " has handlers 0.." + (handlers - 1) + ")");
        }
        target.arrive(call);
    }

    /** Checks and delivers the RPCs that arrived before the hosts were installed, in arrival order. */
    private void deliverHeld() {
        Op call;
        while ((call = held.poll()) != null) {
            try {
                deliver(call);
            } catch (Malformed e) {
                held.clear();             // the run stops; nothing more is delivered
                fabric.cluster().malformed(fabric.cluster().link(call.srcNode, call.srcWorker % fabric.lanes), e);
                return;
            }
        }
    }

    /** Executes one OS frame on this node's registered memory, in order, and queues its response. */
    private void serveOneSided(Link p, ByteBuffer in, byte[][] scratch) throws Malformed {
        int count = in.getShort() & 0xffff;
        if (count == 0 || count > Wire.MAX_BATCH) throw new Malformed("a batch of " + count + " ops (accepted: 1.." + Wire.MAX_BATCH + ")");
        int self = fabric.self;
        RegisteredMemory m = fabric.memory(self);
        synchronized (p) {
            ByteBuffer o = p.reserve(7);
            int start = o.position();
            o.putInt(0).put(Wire.OS_RESP).putShort((short) count);
            try {
                for (int i = 0; i < count; i++) {
                    byte verb = in.get();
                    int region = in.getInt();
                    long off = in.getLong();
                    int len = in.getInt();
                    if (verb < Wire.READ || verb > Wire.FAA) throw new Malformed("an op with verb code " + verb);
                    if (verb == Wire.CAS || verb == Wire.FAA) {
                        if (len != 8) throw new Malformed("an atomic of " + len + " bytes");
                        if ((off & 7) != 0) throw new Malformed("an unaligned atomic at offset " + off);
                    }
                    if (len < 0 || len > Wire.MAX_OP_BYTES) throw new Malformed("an op of " + len + " bytes");
                    if (region < 0 || region >= m.regionCount() || off < 0 || off > m.regionSize(region) - len) {
                        throw new Malformed("a " + verbName(verb) + " outside registered memory (region " + region + ", offset " + off
                                + ", " + len + " bytes; node " + self + " has " + m.regionCount() + " regions"
                                + (region >= 0 && region < m.regionCount() ? ", this one " + m.regionSize(region) + " bytes" : "") + ")");
                    }
                    switch (verb) {
                        case Wire.READ -> {
                            byte[] b = scratch[0] = Bytes.ensure(scratch[0], len);
                            m.read(region, off, b, 0, len);
                            VarHandle.acquireFence();
                            p.reserve(len).put(b, 0, len);
                        }
                        case Wire.WRITE -> {
                            if (in.remaining() < len) throw new Malformed("a WRITE of " + len + " bytes in a shorter frame");
                            byte[] b = scratch[0] = Bytes.ensure(scratch[0], len);
                            in.get(b, 0, len);
                            VarHandle.releaseFence();
                            m.write(region, off, b, 0, len);
                        }
                        case Wire.CAS -> {
                            long expect = in.getLong(), update = in.getLong();
                            p.reserve(8).putLong(m.cas(region, off, expect, update));
                        }
                        default -> p.reserve(8).putLong(m.faa(region, off, in.getLong()));
                    }
                }
            } catch (Malformed | RuntimeException e) {
                p.out().position(start);
                throw e;
            }
            ByteBuffer o2 = p.out();
            o2.putInt(start, o2.position() - start - 4);
            p.markDirty();
        }
    }

    private static String verbName(byte v) {
        return switch (v) { case Wire.READ -> "READ"; case Wire.WRITE -> "WRITE"; case Wire.CAS -> "CAS"; default -> "FAA"; };
    }
}
