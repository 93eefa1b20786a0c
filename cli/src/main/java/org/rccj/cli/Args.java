package org.rccj.cli;

import java.util.List;
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

    static CommandLine parse(String command, Options options, List<String> args) {
        DefaultParser parser = DefaultParser.builder().setAllowPartialMatching(false).build();
        try {
            return parser.parse(options, args.toArray(String[]::new));
        } catch (UnrecognizedOptionException e) {
            throw new ConfigException(command + ": unknown option " + e.getOption() + "; see 'rcc help " + command + "'");
        } catch (MissingArgumentException e) {
            String name = e.getOption().getLongOpt() != null ? "--" + e.getOption().getLongOpt() : "-" + e.getOption().getOpt();
            throw new ConfigException(command + ": option " + name + " needs a value (" + e.getOption().getArgName() + ")");
        } catch (ParseException e) {
            throw new ConfigException(command + ": " + ConfigLoader.oneLine(String.valueOf(e.getMessage())) + "; see 'rcc help " + command + "'");
        }
    }
}
