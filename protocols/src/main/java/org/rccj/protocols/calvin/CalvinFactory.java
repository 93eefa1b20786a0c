package org.rccj.protocols.calvin;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.Stage;

/** Registers CALVIN with the framework. */
public class CalvinFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.DISPATCH, Stage.FORWARD, Stage.EPOCH_SYNC);
    static final List<Param> PARAMS = List.of(
            Param.ofDouble("epoch_us", 10, 0.1, 1_000_000, "epoch length: how long each node's sequencer collects inputs before it logs and broadcasts the batch "
                    + "(us; the next epoch starts one epoch length after the last was sealed, or when the epoch barrier is passed if that is later)"),
            Param.ofInt("batch_bytes", 0, 0, 64 << 20, "largest batch a sequencer sends per epoch (requests beyond it wait for the next epoch); "
                    + "0 = what the node's coroutines can have in flight at once (threads x coroutines requests of the workload's largest "
                    + "transaction); each node keeps 2 batches per sending node (the epoch barrier needs no more)"),
            Param.ofInt("forward_bytes", 0, 0, 16 << 20, "per coordinator and participant node: largest forwarded image (the tuples one node sends one "
                    + "transaction); 0 = sized from the workload's largest transaction and record; each node registers nodes x threads x coroutines x min(nodes, the workload's accesses per transaction) slots"),
            Param.ofOptionalDouble("poll_us", 0, 1_000_000, "sleep between two polls of memory that found nothing (after a first plain yield; 0 = only yield, "
                    + "a pure spin); default: 0 on sim (as RCC), 20 on real threads (lets idle worker threads park)"));

    @Override public String name() { return "calvin"; }
    @Override public String description() { return "deterministic: epoch batches broadcast and synchronised, locks in global order, values forwarded to the active participants, which execute; no aborts (Calvin)"; }
    @Override public List<Stage> stages() { return STAGES; }
    @Override public List<Param> parameters() { return PARAMS; }

    @Override
    public Protocol create(ProtocolSetup s) {
        return new CalvinProtocol(s.hybrid(), ((Number) s.options().get("epoch_us")).doubleValue(),
                ((Number) s.options().get("batch_bytes")).intValue(), ((Number) s.options().get("forward_bytes")).intValue(),
                (Double) s.options().get("poll_us"));
    }
}
