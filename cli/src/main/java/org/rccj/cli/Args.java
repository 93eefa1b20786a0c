package org.rccj.cli;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;
import org.rccj.framework.config.ConfigException;
import org.rccj.experiments.config.ConfigLoader;

/** Commons CLI parsing of a command's arguments, with errors turned into one-line {@link ConfigException}s. */
final class Args {
    private Args() {}

    /** The options a command takes more than once (each occurrence adds a value); every other option is given once. */
    static final Set<String> REPEATABLE = Set.of("set", "vary");

    static CommandLine parse(String command, Options options, List<String> args) {
        DefaultParser parser = DefaultParser.builder().setAllowPartialMatching(false).build();
        try {
            CommandLine cl = parser.parse(options, args.toArray(String[]::new));
            refuseRepeats(command, cl);
            return cl;
        } catch (UnrecognizedOptionException e) {
            List<String> known = new java.util.ArrayList<>();
            for (org.apache.commons.cli.Option o : options.getOptions()) if (o.getLongOpt() != null) known.add("--" + o.getLongOpt());
            throw new ConfigException(command + ": unknown option " + e.getOption()
                    + org.rccj.framework.config.Suggest.didYouMean(e.getOption(), known) + "; see 'rcc help " + command + "'");
        } catch (MissingArgumentException e) {
            String name = e.getOption().getLongOpt() != null ? "--" + e.getOption().getLongOpt() : "-" + e.getOption().getOpt();
            throw new ConfigException(command + ": option " + name + " needs a value (" + e.getOption().getArgName() + ")");
        } catch (ParseException e) {
            throw new ConfigException(command + ": " + ConfigLoader.oneLine(String.valueOf(e.getMessage())) + "; see 'rcc help " + command + "'");
        }
    }

    /** A single-valued option given twice would silently keep one of the two: refused, naming both values. */
    private static void refuseRepeats(String command, CommandLine cl) {
        Set<String> seen = new HashSet<>();
        for (Option o : cl.getOptions()) {
            String key = o.getLongOpt() != null ? o.getLongOpt() : o.getOpt();
            if (REPEATABLE.contains(key) || seen.add(key)) continue;
            String[] values = cl.getOptionValues(key);
            String given = values == null || values.length < 2 ? "" : " ('" + values[0] + "' and '" + values[1] + "')";
            throw new ConfigException(command + ": option --" + key + " is given more than once" + given + "; give it once");
        }
    }
}
