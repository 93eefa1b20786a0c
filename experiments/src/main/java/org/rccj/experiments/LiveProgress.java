package org.rccj.experiments;

import java.io.PrintStream;
import java.util.Locale;
import org.rccj.framework.run.RunHooks;

/**
 * Progress inside one run, on a terminal: a line rewritten in place every interval with the time done
 * (virtual on sim, wall-clock on local), the share of the run and the commits so far; a last line when the
 * workers stop.
 */
public final class LiveProgress implements RunHooks {
    private final PrintStream err;
    private final long intervalMs;
    private volatile Live live;
    private Thread ticker;
    private int lastWidth;

    public LiveProgress(PrintStream err, long intervalMs) {
        this.err = err;
        this.intervalMs = intervalMs;
    }

    /** The production runner's hooks: a live display when {@code progress} is the terminal, none otherwise. */
    public static RunHooks forStream(PrintStream progress) {
        return progress != null && Progress.terminal(progress) ? new LiveProgress(progress, 1000) : RunHooks.NONE;
    }

    @Override
    public void running(Live l) {
        live = l;
        ticker = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(intervalMs);
                    show(false);
                }
            } catch (InterruptedException done) {
                // stopped
            }
        }, "rcc-live-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    @Override
    public void stopped() {
        Thread t = ticker;
        if (t == null) return;
        t.interrupt();
        try {
            t.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        show(true);
    }

    private synchronized void show(boolean last) {
        Live l = live;
        if (l == null) return;
        String line = line(l, l.elapsedNs().getAsLong(), l.commits().getAsLong());
        int pad = Math.max(0, lastWidth - line.length());
        err.print("\r" + line + " ".repeat(pad) + (last ? "\n" : ""));
        lastWidth = line.length();
        err.flush();
    }

    /** "rcc: 12.5 of 25.0 ms virtual time (50%), 123,456 commits so far". */
    public static String line(Live l, long elapsedNs, long commits) {
        double done = Math.min(elapsedNs, l.totalNs()) / 1e6, total = l.totalNs() / 1e6;
        int pct = l.totalNs() <= 0 ? 100 : (int) Math.min(100, 100.0 * elapsedNs / l.totalNs());
        return String.format(Locale.ROOT, "rcc: %.1f of %s%.1f ms %s time (%d%%), %,d commits so far", done, l.atMost() ? "at most " : "",
                total, l.virtual() ? "virtual" : "wall-clock", pct, commits);
    }
}
