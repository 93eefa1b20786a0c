package org.rccj.primitives;

/** Per-worker operation counters (plain fields: each worker owns its own). */
public final class Counters implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public long read, write, cas, faa, rpc, bytes, doorbells, local;

    public void count(Op op) {
        switch (op.verb) {
            case READ -> read++;
            case WRITE -> write++;
            case CAS -> cas++;
            case FAA -> faa++;
            case RPC -> rpc++;
            case TIMER -> { return; }
        }
        bytes += op.wireBytes();
    }

    public void add(Counters o) {
        read += o.read; write += o.write; cas += o.cas; faa += o.faa; rpc += o.rpc;
        bytes += o.bytes; doorbells += o.doorbells; local += o.local;
    }

    public void reset() { read = write = cas = faa = rpc = bytes = doorbells = local = 0; }
}
