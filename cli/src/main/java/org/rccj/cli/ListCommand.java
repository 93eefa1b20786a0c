package org.rccj.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;
import org.rccj.framework.spi.Stage;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.primitives.CostProfile;

/** {@code rcc list}: what can be put in a config. */
final class ListCommand implements Command {
    /** Fabrics announced but not yet on the class path, shown by {@code rcc list}. */
    static final Map<String, String> PLANNED_FABRICS = plannedFabrics();

    private static Map<String, String> plannedFabrics() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("rdma", "real RNICs through libibverbs");
        return m;
    }

    @Override
    public int run(List<String> args, Context ctx) {
        if (!args.isEmpty()) {
            throw new ConfigException("list: takes no arguments, got '" + String.join(" ", args) + "'; see 'rcc help list'");
        }
        PrintStream out = ctx.out();
        out.println("protocols:");
        List<ProtocolFactory> protocols = Registry.protocols();
        if (protocols.isEmpty()) out.println("  (none on the class path)");
        for (ProtocolFactory p : protocols) {
            out.printf("  %-12s %s%n", p.name(), p.description());
            List<String> stages = new ArrayList<>();
            for (Stage s : p.stages()) stages.add(s.name() + "=" + s.bit);
            out.println("      stages:  " + String.join(" ", stages) + "   (" + HybridCode.all(p.stages()).size()
                    + " hybrid codes: the subsets of mask " + HybridCode.allOneSided(p.stages()).code()
                    + "; all-rpc = 0, all-onesided = " + HybridCode.allOneSided(p.stages()).code() + ")");
            List<Param> opts = p.parameters();
            if (opts.isEmpty()) {
                out.println("      protocol_options: none");
            } else {
                out.println("      protocol_options:");
                for (Param o : opts) out.print(Help.paramLine(o, "        "));
            }
        }
        out.println();
        out.println("workloads:");
        List<WorkloadFactory> workloads = Registry.workloads();
        if (workloads.isEmpty()) out.println("  (none on the class path)");
        for (WorkloadFactory w : workloads) {
            out.printf("  %-12s %s%n", w.name(), w.description());
            if (w.parameters().isEmpty()) out.println("      (no settings)");
            for (Param p : w.parameters()) out.print(Help.paramLine(p, "      "));
        }
        out.println();
        out.println("fabrics:");
        List<String> available = new ArrayList<>();
        for (FabricFactory f : Registry.fabrics()) {
            available.add(f.name());
            out.printf("  %-12s %s%n", f.name(), f.description());
            for (Param p : f.parameters()) out.print(Help.paramLine(p, "      "));
        }
        for (Map.Entry<String, String> e : PLANNED_FABRICS.entrySet()) {
            if (!available.contains(e.getKey())) out.printf("  %-12s planned, not yet available: %s%n", e.getKey(), e.getValue());
        }
        out.println();
        out.println("profiles (sim cost models, calibration.md):");
        for (String name : CostProfile.known()) {
            String desc;
            try {
                desc = CostProfile.load(name).description;
            } catch (RuntimeException e) {
                desc = "(cannot be loaded: " + e.getMessage() + ")";
            }
            out.printf("  %-12s %s%s%n", name, desc, name.equals(CostProfile.DEFAULT) ? " (default)" : "");
        }
        out.println("  or a profile file: key=value lines, base=NAME to start from a built-in one (calibration.md)");
        out.println("  codes that need loopback atomics on hardware whose NIC atomics are incoherent (cx4-edr, cx6-hdr):");
        out.println("  every code except all-rpc (any one-sided stage may CAS a word that handlers CAS too)");
        return Exit.OK;
    }
}
