package org.rccj.cli;

import java.util.List;
import org.rccj.framework.config.ConfigException;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;

/**
 * {@code rcc doctor}: what this machine offers a cluster run (the first thing a cluster user runs): the JDK, UCX
 * (version, where, transports), RDMA devices, the locked-memory limit, huge pages, and what to install or change.
 * The UCX part lives in the ucx module (Java 22, FFM), reached by name so this module stays on 21.
 */
final class DoctorCommand implements Command {
    @Override
    @SuppressWarnings("unchecked")
    public int run(List<String> args, Context ctx) throws Exception {
        org.apache.commons.cli.CommandLine cl = Args.parse("doctor", RunCommand.OPTIONS_SET_ONLY, args);
        List<String> positional = cl.getArgList();
        if (positional.size() > 1) throw new ConfigException("doctor: expected at most one CONFIG file, got " + positional.size() + ": "
                + String.join(" ", positional) + "; see 'rcc help doctor'");
        if (positional.isEmpty() && cl.hasOption("set")) throw new ConfigException("doctor: --set needs a CONFIG file to override");
        long bytes = -1;
        String run = null;
        if (!positional.isEmpty()) {
            org.rccj.framework.run.Config c = RunCommand.resolve(ctx.resolve(positional.get(0)), cl.getOptionValues("set"));
            bytes = org.rccj.framework.run.MemoryEstimate.bytesPerNode(c);
            run = "'" + c.name() + "' (" + c.nodes() + " nodes x " + c.threads() + " threads)";
        }
        List<String> lines;
        try {
            lines = (List<String>) Class.forName("org.rccj.ucx.Doctor").getMethod("report", long.class, String.class).invoke(null, bytes, run);
        } catch (ClassNotFoundException | UnsupportedClassVersionError e) {
            lines = List.of("java: " + Runtime.version(), "ucx: not in this build (the ucx module needs a JDK >= 22)",
                    "todo: build and run RCC-J with a JDK >= 22 (e.g. apt-get install openjdk-25-jdk-headless) for fabric ucx");
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : new IllegalStateException(e.getCause());
        }
        for (String l : lines) ctx.out().println(l);
        return Exit.OK;
    }
}
