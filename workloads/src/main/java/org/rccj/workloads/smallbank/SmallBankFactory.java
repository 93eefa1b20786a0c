package org.rccj.workloads.smallbank;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;

/** Registers SmallBank with the framework. */
public final class SmallBankFactory implements WorkloadFactory {
    static final List<Param> PARAMS = List.of(
            Param.ofInt("accounts_per_thread", 100_000, 2, 100_000_000, "accounts per worker thread in the cluster (total = this x nodes x threads)"),
            Param.ofDouble("hot_fraction", 0.04, 0, 1, "share of accounts that form the hot set"),
            Param.ofDouble("hot_probability", 0.9, 0, 1, "share of account picks that go to the hot set"),
            Param.ofChoice("mix", "standard", List.of("standard", "uniform"),
                    "standard = 15/15/15/25/15/15 (Amalgamate, Balance, DepositChecking, SendPayment, TransactSavings, WriteCheck); uniform = equal shares"),
            org.rccj.workloads.LocalFraction.param());

    @Override public String name() { return "smallbank"; }
    @Override public String description() { return "SmallBank (FaSST semantics): six banking transactions on savings and checking, balances in cents"; }
    @Override public List<Param> parameters() { return PARAMS; }
    @Override public Workload create(WorkloadSetup setup) { return new SmallBank(setup); }
}
