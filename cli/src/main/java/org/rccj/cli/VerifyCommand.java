package org.rccj.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.Options;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.history.CheckResult;
import org.rccj.framework.history.HistoryJson;
import org.rccj.framework.history.SerializabilityChecker;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.Context;
import org.rccj.experiments.Exit;

/** {@code rcc verify HISTORY.jsonl}: checks an exported history (docs/architecture.md) for serializability. */
final class VerifyCommand implements Command {
    @Override
    public int run(List<String> args, Context ctx) {
        List<String> positional = Args.parse("verify", new Options(), args).getArgList();
        if (positional.size() != 1) {
            throw new ConfigException("verify: expected one HISTORY.jsonl file, got " + (positional.isEmpty() ? "none" : String.join(" ", positional))
                    + "; usage: rcc verify HISTORY.jsonl");
        }
        Path file = ctx.resolve(positional.get(0));
        if (!Files.exists(file)) throw new ConfigException(file + ": no such history file");
        if (Files.isDirectory(file)) throw new ConfigException(file + ": is a directory, not a history file");
        var loaded = read(file);
        ctx.out().println("history: " + file + " (" + loaded.history().size() + " committed transactions; tables: "
                + (loaded.tableNames().isEmpty() ? "none" : String.join(", ", loaded.tableNames())) + ")");
        CheckResult r = SerializabilityChecker.check(loaded.history(), loaded.tableNames());
        if (r.txnsChecked() == 0) {
            // no verdict on nothing (decision 0161): exit 1, as a run whose verification checked nothing
            ctx.out().println("serializable: not checked: nothing committed (0 transactions to check)");
            ctx.err().println("rcc: verify: " + positional.get(0) + " holds no committed transaction, so there was nothing to check;"
                    + " a run that committed nothing writes such a file (exit code 1)");
            return Exit.VERIFICATION_FAILED;
        }
        if (r.serializable()) {
            ctx.out().println("serializable: yes (" + r.txnsChecked() + " txns checked)");
            return Exit.OK;
        }
        ctx.out().println("serializable: NO (" + r.txnsChecked() + " txns checked, " + r.anomalies().size() + " anomalies)");
        for (String a : r.anomalies()) ctx.out().println("  anomaly: " + a);
        return Exit.VERIFICATION_FAILED;
    }

    /** Reads the history; malformed or unreadable input is bad input (exit 2), with the file named. */
    private static HistoryJson.Loaded read(Path file) {
        try {
            return HistoryJson.read(file);
        } catch (RuntimeException e) {
            // the reader's messages name the file and line already
            if (e instanceof IllegalArgumentException && String.valueOf(e.getMessage()).startsWith(file.toString())) {
                throw new ConfigException(ConfigLoader.oneLine(e.getMessage()));
            }
            if (e instanceof UncheckedIOException || e instanceof IllegalArgumentException || e instanceof ConfigException) {
                throw new ConfigException(file + ": " + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
            }
            throw e;
        } catch (Exception e) { // IOException, JsonProcessingException, if HistoryJson.read declares them
            if (e instanceof JsonProcessingException || e instanceof IOException) {
                throw new ConfigException(file + ": cannot read history: " + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
            }
            throw new IllegalStateException(e);
        }
    }
}
