package org.rccj.protocols.sundial;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Registers SUNDIAL (logical leases, renewed at commit). */
public final class SundialFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.READ, Stage.LOCK, Stage.RENEW, Stage.LOG, Stage.COMMIT, Stage.RELEASE);

    @Override public String name() { return "sundial"; }
    /** SUNDIAL: read()/write() read or lock one item each and yield (rtx/sundial_rdma.h:61-175, 290-310), one-sided and RPC alike: decision 0201. */
    @Override public boolean artifactFetchesOneByOne(int code, Map<String, Object> options) { return true; }
    @Override public String description() { return "logical leases: read [wts, rts], lock writes at access, renew short leases at the commit timestamp, log, commit, release (Sundial, RCC)"; }
    @Override public List<Stage> stages() { return STAGES; }
    /** LOCK and RENEW: CAS on the rts word. */
    @Override public List<Stage> nicAtomicStages(Map<String, Object> options) { return List.of(Stage.LOCK, Stage.RENEW); }
    static final String RENEW = "renew";
    static final List<Param> PARAMS = List.of(Param.ofChoice(RENEW, "artifact", List.of("artifact", "batched"),
            "one-sided RENEW: artifact = as RCC's artifact, one batched READ of the header of every read-set item, then an awaited CAS"
            + " of rts (the artifact's WRITE, made a CAS) per item that needs renewing, one after another; batched = one doorbell"
            + " batch of a CAS of rts and a READ of wts for the items that need renewing"));

    @Override public List<Param> parameters() { return PARAMS; }

    /** {@code renew} chooses how the one-sided RENEW runs: nothing to choose when RENEW goes over RPC. */
    @Override
    public List<String> optionsWithoutEffect(int code, Map<String, Object> options) {
        if ((code & Stage.RENEW.bit) != 0 || !ProtocolFactory.set(options, PARAMS.get(0))) return List.of();
        return List.of(org.rccj.framework.config.Settings.optionKey(RENEW) + ": " + options.get(RENEW) + " has no effect: it chooses how the one-sided RENEW runs, and this"
                + " hybrid code sends RENEW over RPC; bind RENEW one-sided (hybrid +RENEW) or drop the option");
    }
    @Override public Protocol create(ProtocolSetup setup) { return new SundialProtocol(setup.hybrid(), setup.s(RENEW).equals("artifact")); }
}
