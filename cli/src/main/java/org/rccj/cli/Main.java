package org.rccj.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.fabrics.cluster.ClusterFailure;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.results.Environment;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.LiveProgress;
import org.rccj.experiments.Failures;
import org.rccj.experiments.Context;
import org.rccj.experiments.Runner;
import org.rccj.experiments.Exit;
import org.rccj.experiments.Runs;

/**
 * The {@code rcc} command (docs/architecture.md). {@link #run} is the whole CLI as a function of its arguments
 * and output streams; {@link #main} only exits with its code. Bad input of any kind prints one line
 * starting with "rcc: " on stderr and gives {@link Exit#BAD_INPUT}; running out of memory prints one line and
 * gives {@link Exit#BAD_INPUT} too (the run asked for more than the machine has); unexpected exceptions print
 * one line "rcc: internal error: ..." with the path of a log file holding the stack trace and give
 * {@link Exit#INTERNAL_ERROR}. No stack trace ever reaches the terminal.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs {@code rcc ARGS} against the real experiment runner, relative to the current directory. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Launcher.around((c, p) -> ExperimentRunner.run(c, p, LiveProgress.forStream(p))), Path.of(""));
    }

    /** As {@link #run(String[], PrintStream, PrintStream)} with another runner and working directory (tests). */
    static int run(String[] args, PrintStream out, PrintStream err, Runner runner, Path cwd) {
        try {
            return dispatch(Arrays.asList(args), new Context(out, err, cwd, runner));
        } catch (ConfigException e) {
            err.println("rcc: " + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
            return Exit.BAD_INPUT;
        } catch (OutOfMemoryError e) {
            err.println("rcc: " + Failures.outOfMemory(e));
            return Exit.BAD_INPUT;
        } catch (ClusterFailure e) {
            err.println("rcc: " + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
            return Exit.INTERNAL_ERROR;
        } catch (Throwable t) {
            err.println("rcc: internal error: " + ConfigLoader.oneLine(String.valueOf(t)) + "; stack trace in " + Failures.log(t, args));
            return Exit.INTERNAL_ERROR;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private static Map<String, Command> commands() {
        Map<String, Command> m = new LinkedHashMap<>();
        m.put("run", new RunCommand());
        m.put("sweep", new SweepCommand());
        m.put("enumerate", new EnumerateCommand());
        m.put("merge", new MergeCommand());
        m.put("plot", new PlotCommand());
        m.put("list", new ListCommand());
        m.put("verify", new VerifyCommand());
        m.put("bench", new BenchCommand());
        m.put("calibrate", new CalibrateCommand());
        m.put("validate", new ValidateCommand());
        m.put("node", new NodeCommand());
        m.put("compare", new CompareCommand());
        m.put("doctor", new DoctorCommand());
        m.put("robust", new RobustCommand());
        return m;
    }

    private static int dispatch(List<String> args, Context ctx) throws Exception {
        Map<String, Command> commands = commands();
        String names = String.join(", ", commands.keySet()) + ", help"
                + (Help.PLANNED.isEmpty() ? "" : " (planned: " + String.join(", ", Help.PLANNED.keySet()) + ")");
        List<String> known = new java.util.ArrayList<>(commands.keySet());
        known.add("help");
        if (args.isEmpty()) throw new ConfigException("missing command; commands: " + names + "; see 'rcc --help'");
        String first = args.get(0);
        List<String> rest = args.subList(1, args.size());
        if (first.equals("-h") || first.equals("--help") || (first.equals("help") && rest.isEmpty())) {
            ctx.out().print(Help.general());
            return Exit.OK;
        }
        if (first.equals("--version") || first.equals("-V")) {
            ctx.out().println("rcc " + Environment.version());
            return Exit.OK;
        }
        if (first.equals("help")) {
            String text = Help.of(rest.get(0).equals("-h") || rest.get(0).equals("--help") ? "help" : rest.get(0));
            if (text == null) {
                throw new ConfigException("help: unknown command '" + rest.get(0) + "'" + org.rccj.framework.config.Suggest.didYouMean(rest.get(0), known)
                        + "; commands: " + names);
            }
            ctx.out().print(text);
            return Exit.OK;
        }
        if (first.startsWith("-")) {
            throw new ConfigException("unknown option " + first + "; usage: rcc COMMAND [ARGS...], commands: " + names + "; see 'rcc --help'");
        }
        boolean help = rest.contains("-h") || rest.contains("--help");
        if (Help.PLANNED.containsKey(first)) {
            if (help) {
                ctx.out().print(Help.of(first));
                return Exit.OK;
            }
            throw new ConfigException(first + " is planned but not yet available in this version; available commands: "
                    + String.join(", ", commands.keySet()));
        }
        if (!commands.containsKey(first)) {
            throw new ConfigException("unknown command '" + first + "'" + org.rccj.framework.config.Suggest.didYouMean(first, known)
                    + "; commands: " + names + "; see 'rcc --help'");
        }
        if (help) {
            ctx.out().print(Help.of(first));
            return Exit.OK;
        }
        return commands.get(first).run(rest, ctx);
    }
}
