package org.rccj.framework.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.runtime.WindowGate;
import org.rccj.framework.runtime.WorkerStats;
import org.rccj.primitives.ProcessGroup;

/** warmup_ms: auto (decision 0210): the value, the steadiness rule, and the thread that opens the window. */
class AutoWarmupTest {
    @Test
    void theValueIsANumberAutoOrAutoWithABound() {
        assertEquals(1000.0, Config.WARMUP_MS.coerce("", "1000"));
        assertEquals("auto", Config.WARMUP_MS.coerce("", " AUTO "));
        assertEquals("auto:2500", Config.WARMUP_MS.coerce("", "auto:2500.0"));
        assertEquals(AutoWarmup.DEFAULT_BOUND_MS, AutoWarmup.of("auto").boundMs());
        assertEquals(2500.0, AutoWarmup.of("auto:2500").boundMs());
        assertNull(AutoWarmup.of(1000.0));
        for (String bad : new String[] {"-1", "autox", "auto:0", "auto:-5", "auto:x", "auto:", "auto:4000000", "NaN"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> Config.WARMUP_MS.coerce("", bad), bad);
            assertEquals("warmup_ms: '" + bad + "' is not accepted; expected a number in [0, 3600000], auto or auto:MAX_MS (MAX_MS in (0, 3600000])",
                    e.getMessage());
        }
    }

    @Test
    void theRuleWantsTwoHalvesOfEqualMeanAndLittleSpread() {
        double[] flat = {100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
        assertTrue(AutoWarmup.steady(flat, 10));
        assertFalse(AutoWarmup.steady(flat, 9), "fewer than 2 x HALF intervals");
        double[] ramp = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};        // a smooth ramp: each half is smooth, the means differ
        assertFalse(AutoWarmup.steady(ramp, 10));
        double[] slowRamp = {94, 95.25, 96.5, 97.75, 99, 100.25, 101.5, 102.75, 104, 105.25};   // halves 6.1% apart: beyond the 5% trend
        assertFalse(AutoWarmup.steady(slowRamp, 10));
        double[] noisy = {100, 100, 100, 100, 100, 60, 140, 60, 140, 100};    // same mean, cv 35%
        assertFalse(AutoWarmup.steady(noisy, 10));
        double[] zero = new double[10];
        assertFalse(AutoWarmup.steady(zero, 10), "no commits is not a steady state");
        double[] settled = {1, 5, 30, 100, 102, 98, 100, 101, 99, 100, 100, 102, 98, 100};
        assertTrue(AutoWarmup.steady(settled, settled.length));
        assertFalse(AutoWarmup.steady(settled, 12), "the ramp's 100 after 30 is still in the earlier half");
    }

    /**
     * Commits as a function of the wall clock: a throughput that grows linearly from 0 to {@code fastTps} over the first
     * {@code rampMs} (as a JIT ramp does), then stays there.
     */
    private static LongSupplier rampedCommits(long t0, long rampMs, double fastTps) {
        return () -> {
            double s = (System.nanoTime() - t0) / 1e9, ramp = rampMs / 1000.0;
            return Math.round(s < ramp ? fastTps * s * s / (2 * ramp) : fastTps * ramp / 2 + (s - ramp) * fastTps);
        };
    }

    @Test
    void theWindowOpensAfterARampWithinTheBound() {
        long t0 = System.nanoTime();
        WindowGate gate = new WindowGate(1);
        WarmupWatch w = new WarmupWatch(new AutoWarmup(10_000), gate, null, System::nanoTime, rampedCommits(t0, 3000, 20_000), null);
        w.begin(t0);
        long deadline = t0 + 15_000_000_000L;
        while (gate.start() == WindowGate.CLOSED && System.nanoTime() < deadline) sleep(20);
        w.stop();
        RunResult.Warmup o = w.outcome(new WorkerStats[0][]);
        assertTrue(o.steady(), "steady after the ramp: " + o);
        // the earlier half must be past the ramp too: 5 intervals of 200 ms after the ramp's end at the earliest
        assertTrue(o.tookMs() >= 3000 + AutoWarmup.HALF * AutoWarmup.BUCKET_MS, "the window starts after the ramp: " + o.tookMs());
        assertTrue(o.tookMs() <= 10_000, "within the bound: " + o.tookMs());
        assertEquals(gate.start() - t0, Math.round(o.tookMs() * 1e6), 1);
        assertTrue(o.bucketTps()[0] < 2000 && o.bucketTps()[o.bucketTps().length - 1] > 19_000, java.util.Arrays.toString(o.bucketTps()));
    }

    @Test
    void anUnsteadyRunOpensTheWindowAtTheBoundAndSaysSo() {
        Random rnd = new Random(7);
        AtomicLong c = new AtomicLong();
        long t0 = System.nanoTime();
        WindowGate gate = new WindowGate(1);
        WarmupWatch w = new WarmupWatch(new AutoWarmup(2500), gate, null, System::nanoTime, () -> c.addAndGet(rnd.nextInt(2000)), null);
        w.begin(t0);
        long deadline = t0 + 10_000_000_000L;
        while (gate.start() == WindowGate.CLOSED && System.nanoTime() < deadline) sleep(20);
        w.stop();
        RunResult.Warmup o = w.outcome(new WorkerStats[0][]);
        assertFalse(o.steady());
        assertTrue(o.tookMs() >= 2500 && o.tookMs() <= 2500 + AutoWarmup.BUCKET_MS + 300, "opened at the bound: " + o.tookMs());
    }

    /** Node 0 decides and announces; node 1 hears it and opens the same window. */
    @Test
    void nodeZeroTellsTheOtherNodesWhenTheWindowStarts() {
        AtomicLong wire = new AtomicLong(WindowGate.CLOSED);
        long t0 = System.nanoTime();
        WindowGate g0 = new WindowGate(1), g1 = new WindowGate(1);
        WarmupWatch node1 = new WarmupWatch(new AutoWarmup(3000), g1, group(1, wire), System::nanoTime, () -> 0, null);
        WarmupWatch node0 = new WarmupWatch(new AutoWarmup(3000), g0, group(0, wire), System::nanoTime, rampedCommits(t0, 0, 10_000), null);
        node1.begin(t0);
        node0.begin(t0);
        long deadline = t0 + 10_000_000_000L;
        while (g1.start() == WindowGate.CLOSED && System.nanoTime() < deadline) sleep(20);
        node0.stop();
        node1.stop();
        assertTrue(g0.start() != WindowGate.CLOSED);
        assertEquals(g0.start(), g1.start());
        assertTrue(g1.start() - System.nanoTime() < AutoWarmup.LEAD_MS * 1_000_000L, "announced before the window starts");
    }

    private static ProcessGroup group(int self, AtomicLong wire) {
        return new ProcessGroup() {
            @Override public int self() { return self; }
            @Override public long startBarrier(byte[] descriptor) { throw new UnsupportedOperationException(); }
            @Override public void announceWindow(long start) { if (self == 0) wire.set(start); }
            @Override public long announcedWindow() { return wire.get(); }
            @Override public byte[][] gather(byte[] mine) { throw new UnsupportedOperationException(); }
        };
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
