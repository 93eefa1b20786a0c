package org.rccj.cli;

import java.util.List;
import org.rccj.experiments.Context;

/** One {@code rcc} sub-command. Bad input is reported by throwing {@link org.rccj.framework.config.ConfigException}. */
interface Command {
    /** @param args the arguments after the command name; never contains -h/--help (Main handles those) */
    int run(List<String> args, Context ctx) throws Exception;
}
