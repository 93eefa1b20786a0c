package org.rccj.experiments;

import java.io.Console;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Locale;

/**
 * Progress of a batch of runs: points done/total, elapsed wall time and an ETA. On a terminal the line is
 * rewritten in place ("\r"); otherwise (a log file, a pipe, tests) one plain line per finished run.
 */
public final class Progress {
    private final PrintStream err;
    private final boolean inPlace;
    private final int total;
    private final int toRun;
    private final long start = System.nanoTime();
    private int done;
    private int ran;
    private int lastWidth;

    /**
     * @param total points in the batch
     * @param reused points whose finished result was reused (counted as done from the start)
     */
    public Progress(PrintStream err, boolean inPlace, int total, int reused) {
        this.err = err;
        this.inPlace = inPlace;
        this.total = total;
        this.toRun = total - reused;
        this.done = reused;
    }

    /** Whether {@code err} is the process's terminal: progress is then rewritten in place. */
    public static boolean terminal(PrintStream err) {
        if (err != System.err) return false;
        Console c = System.console();
        if (c == null) return false;
        try { // JDK 22+: System.console() is non-null also when redirected; isTerminal() tells
            Method m = Console.class.getMethod("isTerminal");
            return (Boolean) m.invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    synchronized void finished(String point, double wallS) {
        done++;
        step(point, wallS);
    }

    /** A point that failed: counted as run (for the ETA), not as done. */
    synchronized void failed(String point, double wallS) {
        step(point + " FAILED", wallS);
    }

    /** Points with a complete result so far (reused ones included). */
    synchronized int done() { return done; }

    /**
     * Says how far an interrupted batch got (called from a shutdown hook: Ctrl-C or a kill); nothing once every
     * point has run.
     */
    synchronized void interrupted() {
        if (ran == toRun) return;
        if (inPlace && lastWidth > 0) err.println();
        err.println(interruptedMessage(done, total));
        err.flush();
    }

    public static String interruptedMessage(int done, int total) {
        return "interrupted: " + done + " of " + total + " points done; run the same command again to resume";
    }

    private void step(String point, double wallS) {
        ran++;
        double elapsed = (System.nanoTime() - start) / 1e9;
        int left = toRun - ran;
        String eta = left == 0 ? "0:00" : clock(elapsed / ran * left);
        String line = String.format(Locale.ROOT, "[%d/%d] %s (%.1f s)  elapsed %s  ETA %s", done, total, point, wallS, clock(elapsed), eta);
        if (inPlace) {
            int pad = Math.max(0, lastWidth - line.length());
            err.print("\r" + line + " ".repeat(pad));
            lastWidth = line.length();
            if (left == 0) err.println();
        } else {
            err.println(line);
        }
        err.flush();
    }

    /** Ends an in-place line that was left open (after a failure). */
    synchronized void close() {
        if (inPlace && lastWidth > 0 && ran < toRun) err.println();
        err.flush();
    }

    /** Elapsed wall time, h:mm:ss or m:ss. */
    public static String clock(double seconds) {
        long s = Math.round(seconds);
        long h = s / 3600, m = (s % 3600) / 60, sec = s % 60;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, sec) : String.format(Locale.ROOT, "%d:%02d", m, sec);
    }
}
