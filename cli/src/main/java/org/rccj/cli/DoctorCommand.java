package org.rccj.cli;

import java.util.List;
import org.rccj.framework.config.ConfigException;

/**
 * {@code rcc doctor}: what this machine offers a cluster run (the first thing a cluster user runs): the JDK, UCX
 * (version, where, transports), RDMA devices, the locked-memory limit, huge pages, and what to install or change.
 * The UCX part lives in the ucx module (Java 22, FFM), reached by name so this module stays on 21.
 */
final class DoctorCommand implements Command {
    @Override
    @SuppressWarnings("unchecked")
    public int run(List<String> args, Context ctx) throws Exception {
        if (!args.isEmpty()) throw new ConfigException("doctor: takes no arguments; see 'rcc help doctor'");
        List<String> lines;
        try {
            lines = (List<String>) Class.forName("org.rccj.ucx.Doctor").getMethod("report").invoke(null);
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
