package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.experiments.Exit;

/** {@code rcc verify}: a history file's verdict, its exit code, and its bad input. */
class VerifyCommandTest {
    @TempDir Path dir;

    /** {@code rcc verify} on a history file {@code name} holding {@code lines}. */
    private Cli.Outcome verify(String name, String lines) throws Exception {
        return Cli.run(dir, "verify", Cli.file(dir, name, lines).toString());
    }

    @Test
    void serializableHistoryExitsZero() throws Exception {
        Cli.Outcome o = verify("ok.jsonl",
                "{\"txn\": 1, \"type\": \"deposit\", \"reads\": [[\"accounts\", 7, 0]], \"writes\": [[\"accounts\", 7, 1, 0]]}\n"
              + "{\"txn\": 2, \"type\": \"deposit\", \"reads\": [[\"accounts\", 7, 1]], \"writes\": [[\"accounts\", 7, 2, 1]]}\n");
        assertEquals(Exit.OK, o.code(), o.err());
        assertTrue(o.out().contains("serializable: yes (2 txns checked)"), o.out());
    }

    @Test
    void writeSkewExitsOne() throws Exception {
        Cli.Outcome o = verify("skew.jsonl",
                "{\"txn\": 1, \"type\": \"t\", \"reads\": [[\"accounts\", 1, 0], [\"accounts\", 2, 0]], \"writes\": [[\"accounts\", 1, 11, 0]]}\n"
              + "{\"txn\": 2, \"type\": \"t\", \"reads\": [[\"accounts\", 1, 0], [\"accounts\", 2, 0]], \"writes\": [[\"accounts\", 2, 12, 0]]}\n");
        assertEquals(Exit.VERIFICATION_FAILED, o.code(), o.err());
        assertTrue(o.out().contains("serializable: NO"), o.out());
        assertTrue(o.out().contains("anomaly:"), o.out());
    }

    /** An empty history gets no verdict (at 10ebb0c: "serializable: yes (0 txns checked)", exit 0): decision 0161. */
    @Test
    void anEmptyHistoryIsNotAPass() throws Exception {
        Cli.Outcome o = verify("empty.jsonl", "");
        assertEquals(Exit.VERIFICATION_FAILED, o.code(), o.err());
        assertTrue(o.out().contains("serializable: not checked: nothing committed (0 transactions to check)"), o.out());
        assertTrue(!o.out().contains("serializable: yes"), o.out());
        assertTrue(o.err().contains("rcc: verify: " + dir.resolve("empty.jsonl") + " holds no committed transaction, so there was nothing to check"),
                o.err());
    }

    @Test
    void badInput() throws Exception {
        Cli.run(dir, "verify").assertBadInput("verify", "HISTORY.jsonl");
        Cli.run(dir, "verify", "nosuch.jsonl").assertBadInput("nosuch.jsonl", "no such history file");
        Path bad = Cli.file(dir, "bad.jsonl", "{\"txn\": 1, \"reads\": [[\n");
        Cli.run(dir, "verify", bad.toString()).assertBadInput("bad.jsonl");
    }

    /** A malformed line is named by file and line, in words of the format, without the JSON parser's internals. */
    @Test
    void malformedHistoryNamesFileLineAndWhatIsWrong() throws Exception {
        String ok = "{\"txn\": 1, \"reads\": [[\"a\", 1, 0]]}\n";
        String[][] cases = {
                {ok + "{\"txn\": 2, \"reads\": [[\"a\", 1\n", "line 2", "truncated"},
                {ok + "{\"txn\": 2}}\n", "line 2", "Unexpected close marker"},
                {"{\"txn\": 1, x}\n", "line 1", "Unexpected character ('x')"},
                {"{\"txn\": tru}\n", "line 1", "Unrecognized token 'tru'"},
        };
        for (int i = 0; i < cases.length; i++) {
            Path f = Cli.file(dir, "bad" + i + ".jsonl", cases[i][0]);
            Cli.Outcome o = Cli.run(dir, "verify", f.toString()).assertBadInput(f.toString() + ": " + cases[i][1], cases[i][2]);
            for (String internal : new String[] {"Source", "REDACTED", "StreamReadFeature", "marker at", "was expecting"}) {
                assertTrue(!o.err().contains(internal), "no parser internals: " + o.err());
            }
            assertEquals(1, o.err().split(java.util.regex.Pattern.quote(f.toString()), -1).length - 1, "the file named once: " + o.err());
        }
        Path binary = dir.resolve("binary.jsonl");
        java.nio.file.Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, '{', '}', '\n'});
        Cli.run(dir, "verify", binary.toString()).assertBadInput("binary.jsonl: line 1", "not UTF-8 text");
    }
}
