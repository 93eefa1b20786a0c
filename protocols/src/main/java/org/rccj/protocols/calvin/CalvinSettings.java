package org.rccj.protocols.calvin;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.ProtocolSetup;

/** CALVIN's {@code protocol_options}, resolved; {@code pollUs} is null when left to the fabric's default. */
record CalvinSettings(double epochUs, int batchBytes, int forwardBytes, Double pollUs) {
    static final String EPOCH = "epoch_us", BATCH = "batch_bytes", FORWARD = "forward_bytes", POLL = "poll_us";
    static final List<Param> PARAMS = List.of(
            Param.ofDouble(EPOCH, 10, 0.1, 1_000_000, "epoch length: how long each node's sequencer collects inputs before it logs and broadcasts the batch "
                    + "(us; the next epoch starts one epoch length after the last was sealed, or when the epoch barrier is passed if that is later)"),
            Param.ofInt(BATCH, 0, 0, 64 << 20, "largest batch a sequencer sends per epoch (requests beyond it wait for the next epoch); "
                    + "0 = what the node's coroutines can have in flight at once (threads x coroutines requests of the workload's largest "
                    + "transaction); each node keeps 2 batches per sending node (the epoch barrier needs no more)"),
            Param.ofInt(FORWARD, 0, 0, 16 << 20, "per coordinator and participant node: largest forwarded image (the tuples one node sends one "
                    + "transaction); 0 = sized from the workload's largest transaction and record; each node registers nodes x threads x coroutines x min(nodes, the workload's accesses per transaction) slots"),
            Param.ofOptionalDouble(POLL, 0, 1_000_000, "sleep between two polls of memory that found nothing (after a first plain yield; 0 = only yield, "
                    + "a pure spin); default: 0 on sim (as RCC), 20 on real threads (lets idle worker threads park)"));

    static CalvinSettings of(ProtocolSetup s) { return new CalvinSettings(s.d(EPOCH), s.i(BATCH), s.i(FORWARD), s.optionalD(POLL)); }
}
