package org.rccj.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An idle worker sleeps on its UCX event fd ({@link UcxWorker#sleep}) and is woken by what it waits for: an active
 * message from a peer, or {@link UcxWorker#signal} from another thread. Each sleep here asks for 30 s; the test
 * fails unless the wake ends it long before that.
 */
class UcxWakeTest {
    private static final long LONG_SLEEP_NS = 30_000_000_000L;
    private static final int AM = 7;

    @ParameterizedTest
    @ValueSource(strings = {"posix,self", "tcp"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aMessageOrASignalEndsASleep(String tls) throws Exception {
        try (Arena arena = Arena.ofShared();
             UcxContext ca = Ucx.load().newContext(Map.of("TLS", tls));
             UcxContext cb = Ucx.load().newContext(Map.of("TLS", tls))) {
            signalled = false;
            roundDone = false;
            UcxWorker a = ca.newWorker(), b = cb.newWorker();
            AtomicInteger received = new AtomicInteger();
            a.setAmHandler(AM, (data, from) -> received.incrementAndGet());
            UcxEndpoint toA = b.connect(a.address());
            // wire the endpoint up with both workers progressing (UCX connects lazily)
            long deadline = System.nanoTime() + 10_000_000_000L;
            long f = toA.flushRequest();
            while (!b.done("flush", f) && System.nanoTime() < deadline) { a.progress(); b.progress(); }

            AtomicLong slept = new AtomicLong(-1);
            AtomicInteger wakes = new AtomicInteger();
            Thread sleeper = Thread.ofPlatform().start(() -> {
                for (int round = 0; round < 2; round++) {
                    int before = received.get() + wakes.get();
                    long t0 = System.nanoTime();
                    // progress until idle, then sleep; a wake that finds nothing new sleeps again (spurious wakes)
                    while (received.get() + wakes.get() == before && System.nanoTime() - t0 < LONG_SLEEP_NS) {
                        if (a.progress() == 0) a.sleep(LONG_SLEEP_NS);
                        if (round == 1 && signalled) wakes.incrementAndGet();
                    }
                    slept.set(System.nanoTime() - t0);
                    if (round == 0) roundDone = true;
                }
            });
            Thread.sleep(300);                               // let it fall asleep
            MemorySegment msg = arena.allocateFrom("wake up");
            long r = toA.send(AM, msg, false);
            while (!b.done("send", r)) b.progress();
            while (!roundDone) { b.progress(); Thread.onSpinWait(); }
            assertEquals(1, received.get(), "the message arrived");
            assertTrue(slept.get() < 10_000_000_000L, "a message ended the sleep: " + slept.get() / 1e9 + " s");

            Thread.sleep(300);
            signalled = true;
            a.signal();
            sleeper.join(20_000);
            assertTrue(!sleeper.isAlive(), "signal() ended the sleep");
            assertTrue(slept.get() < 10_000_000_000L, "signal() ended the sleep: " + slept.get() / 1e9 + " s");
            b.close();
            a.close();
        }
    }

    private static volatile boolean signalled, roundDone;
}
