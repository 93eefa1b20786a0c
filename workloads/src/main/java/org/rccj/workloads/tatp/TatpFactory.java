package org.rccj.workloads.tatp;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;

/** Registers TATP with the framework. */
public final class TatpFactory implements WorkloadFactory {
    static final String SUBSCRIBERS_PER_NODE = "subscribers_per_node", SUBSCRIBER_DISTRIBUTION = "subscriber_distribution",
            CALL_FORWARDING_END_TIME = "call_forwarding_end_time";
    static final List<Param> PARAMS = List.of(
            Param.ofInt(SUBSCRIBERS_PER_NODE, 100_000, 1, 100_000_000, "subscribers per node (total = this x nodes); each has 21 row slots"),
            Param.ofChoice(SUBSCRIBER_DISTRIBUTION, "nurand", List.of("nurand", "uniform"),
                    "nurand = the spec's non-uniform s_id (NURand with A = 65535 up to 1M subscribers); uniform = every subscriber alike"),
            Param.ofChoice(CALL_FORWARDING_END_TIME, "steady", List.of("steady", "spec"),
                    "end_time of loaded CALL_FORWARDING rows: steady = rand(1..24) as InsertCallForwarding writes it (FaSST; "
                            + "GetNewDestination succeeds ~19%); spec = start_time + rand(1..8) (~15%)"));

    @Override public String name() { return "tatp"; }
    @Override public String description() { return "TATP: subscriber/access-info/special-facility/call-forwarding, seven transactions in the standard mix"; }
    @Override public List<Param> parameters() { return PARAMS; }
    @Override public Workload create(WorkloadSetup setup) { return new Tatp(setup); }
}
