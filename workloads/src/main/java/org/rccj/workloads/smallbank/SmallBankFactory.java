package org.rccj.workloads.smallbank;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;

/** Registers SmallBank with the framework. */
public final class SmallBankFactory implements WorkloadFactory {
    static final String ACCOUNTS_PER_THREAD = "accounts_per_thread", HOT_FRACTION = "hot_fraction",
            HOT_PROBABILITY = "hot_probability", MIX = "mix";
    static final List<Param> PARAMS = List.of(
            Param.ofInt(ACCOUNTS_PER_THREAD, 100_000, 2, 100_000_000, "accounts per worker thread in the cluster (total = this x nodes x threads)"),
            Param.ofDouble(HOT_FRACTION, 0.04, 0, 1, "share of accounts that form the hot set"),
            Param.ofDouble(HOT_PROBABILITY, 0.9, 0, 1, "share of account picks that go to the hot set"),
            Param.ofChoice(MIX, "standard", List.of("standard", "uniform"),
                    "standard = 15/15/15/25/15/15 (Amalgamate, Balance, DepositChecking, SendPayment, TransactSavings, WriteCheck); uniform = equal shares"),
            org.rccj.workloads.LocalFraction.param());

    @Override public String name() { return "smallbank"; }
    @Override public String description() { return "SmallBank (FaSST semantics): six banking transactions on savings and checking, balances in cents"; }
    @Override public List<Param> parameters() { return PARAMS; }
    @Override public Workload create(WorkloadSetup setup) { return new SmallBank(setup); }
}
