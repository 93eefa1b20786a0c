package org.rccj.framework.run;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How busy the host was around a wall-clock run (Linux /proc; NaN or -1 where unreadable): the 1-minute load average
 * before and after, the share of the host's CPU time the hypervisor stole during the run ({@code /proc/stat}'s steal
 * over all ticks) and this process's involuntary context switches during it (summed over its threads: the times its
 * threads were taken off a core they wanted). Other processes' load shows in the load average, not in the switches.
 */
public record HostLoad(double loadBefore, double loadAfter, double stealShare, long involuntarySwitches, int cores) implements java.io.Serializable {
    /** One reading: load average, steal and total ticks, this process's involuntary switches. */
    public record Sample(double load, long stealTicks, long totalTicks, long switches) {}

    /** Reads /proc now. */
    public static Sample sample() {
        double load = Double.NaN;
        long steal = -1, total = -1;
        try {
            load = Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            // not Linux, or no /proc: unknown
        }
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            String[] f = lines.get(0).trim().split("\\s+"); // cpu user nice system idle iowait irq softirq steal ...
            total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) total += Long.parseLong(f[i]);
            steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
        } catch (IOException | RuntimeException e) {
            steal = -1;
            total = -1;
        }
        return new Sample(load, steal, total, processInvoluntarySwitches());
    }

    /** What happened between two samples. */
    public static HostLoad between(Sample before, Sample after) {
        double steal = before.totalTicks() < 0 || after.totalTicks() <= before.totalTicks() ? Double.NaN
                : (double) (after.stealTicks() - before.stealTicks()) / (after.totalTicks() - before.totalTicks());
        long sw = before.switches() < 0 || after.switches() < 0 ? -1 : after.switches() - before.switches();
        return new HostLoad(before.load(), after.load(), steal, sw, Runtime.getRuntime().availableProcessors());
    }

    /** This process's involuntary context switches over its threads, or -1. */
    static long processInvoluntarySwitches() {
        long sum = 0;
        boolean any = false;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : ds) {
                try {
                    for (String l : Files.readAllLines(t.resolve("status"))) {
                        if (l.startsWith("nonvoluntary_ctxt_switches:")) {
                            sum += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                            any = true;
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return any ? sum : -1;
    }
}
