package org.rccj.results;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One stage order for every table and figure of several runs: each run's stages come in its protocol's declared
 * order (summary.json {@code stages}), and a stage only some runs have goes right before the stage that follows it
 * in those runs (SUNDIAL's RENEW before LOG, not after the last stage of an OCC run listed first), so tables, compare
 * and plots agree. {@link StageBreakdown#EXECUTE} last.
 */
public final class StageOrder {
    private StageOrder() {}

    /** The stages of several runs, each given in its declared order, merged as the class says. */
    public static List<String> stages(Collection<? extends Collection<String>> orders) {
        List<String> out = merge(orders);
        if (out.remove(StageBreakdown.EXECUTE)) out.add(StageBreakdown.EXECUTE);
        return out;
    }

    /**
     * The union of several orders: the first as given; a name the union lacks goes right before the next name of its
     * own order that the union has (at the end when there is none), so each order's names keep their order and the
     * first order's stay together.
     */
    public static List<String> merge(Collection<? extends Collection<String>> orders) {
        List<String> out = new ArrayList<>();
        for (Collection<String> order : orders) {
            List<String> names = List.copyOf(order);
            for (int i = 0; i < names.size(); i++) {
                if (out.contains(names.get(i))) continue;
                int at = out.size();
                for (int j = i + 1; j < names.size() && at == out.size(); j++) {
                    int k = out.indexOf(names.get(j));
                    if (k >= 0) at = k;
                }
                out.add(at, names.get(i));
            }
        }
        return out;
    }
}
