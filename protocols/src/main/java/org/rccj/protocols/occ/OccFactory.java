package org.rccj.protocols.occ;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.config.Settings;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Registers OCC with the framework. */
public final class OccFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.READ, Stage.LOCK, Stage.VALIDATE, Stage.LOG, Stage.COMMIT, Stage.RELEASE);

    static final String SOFTWARE = "software";

    @Override public String name() { return "occ"; }
    @Override public String description() { return "optimistic: read, lock write set, validate read set, log, commit, release (DrTM+H)"; }
    @Override public List<Stage> stages() { return STAGES; }
    /**
     * RCC's OCC reads one item per call, each awaited, when READ is one-sided (rtx/occ_rdma.h:126-157, rdma_read_val
     * yields per item); by RPC it adds every read and write to a batch sent at the first load, one round
     * (occ.cc:157-163, occ.h:139-160). SW-Impl is HADES' baseline, not RCC's. Decision 0201.
     */
    @Override
    public boolean artifactFetchesOneByOne(int code, Map<String, Object> options) {
        return (code & Stage.READ.bit) != 0 && "none".equals(options.getOrDefault(SOFTWARE, "none"));
    }
    /** LOCK: the lock CAS (OccLock); VALIDATE reads, COMMIT and RELEASE write. */
    @Override public List<Stage> nicAtomicStages(Map<String, Object> options) { return List.of(Stage.LOCK); }
    @Override
    public List<Param> parameters() {
        List<Param> p = new java.util.ArrayList<>();
        p.add(Param.ofChoice(SOFTWARE, "none", List.of("none", "sw-impl"), "none: DrTM+H OCC; sw-impl: HADES's FaRM-style baseline, charging its software bookkeeping (read/write sets, per-line versions, read atomicity, read-before-write copies, lock/validation work) as CPU"));
        p.addAll(SwImplCosts.params());
        return p;
    }

    /** The {@code sw_*} costs are SW-Impl's: with {@code software: none} nothing charges them. */
    @Override
    public List<String> optionsWithoutEffect(int code, Map<String, Object> options) {
        if (!"none".equals(options.getOrDefault(SOFTWARE, "none"))) return List.of();
        List<String> set = new java.util.ArrayList<>();
        for (Param p : SwImplCosts.params()) if (ProtocolFactory.set(options, p)) set.add(Settings.optionKey(p.key()));
        if (set.isEmpty()) return List.of();
        return List.of(String.join(", ", set) + (set.size() == 1 ? " has" : " have") + " no effect: the sw_* costs are charged by the SW-Impl"
                + " baseline only, and this run has " + SOFTWARE + ": none; set " + Settings.optionKey(SOFTWARE) + ": sw-impl or drop them");
    }

    @Override
    public Protocol create(ProtocolSetup setup) {
        if ("sw-impl".equals(setup.options().get(SOFTWARE))) return new SwImplOcc(setup.hybrid(), setup.options());
        return new OccProtocol(setup.hybrid());
    }
}
