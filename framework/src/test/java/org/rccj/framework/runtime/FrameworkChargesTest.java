package org.rccj.framework.runtime;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.api.ClusterShape;
import org.rccj.framework.fake.FakeCluster;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.TableSpec;
import org.rccj.primitives.Counters;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.WorkerHost;

/**
 * The event loop's share of the artifact's framework costs that decision 0177 left out (decision 0200), charged by
 * {@link CoroutineWorker} in exact ns: the global lock manager's check per pass and per parked waiter, the re-posting
 * of UD receive buffers once more than one message was consumed, and handler replies counted toward the send-CQ poll
 * every 64 UD sends. Each is nothing at 0.
 */
class FrameworkChargesTest {
    @TempDir Path dir;

    /** An endpoint that only adds up what is charged to it. */
    private static final class Charges implements Endpoint {
        final CostProfile profile;
        long charged;
        int replies;
        Charges(CostProfile profile) { this.profile = profile; }
        @Override public int node() { return 0; }
        @Override public int worker() { return 0; }
        @Override public void post(Op[] ops, int n) { throw new UnsupportedOperationException(); }
        @Override public void post(Op op) { throw new UnsupportedOperationException(); }
        @Override public void reply(Op call) { replies++; }
        @Override public void timer(Op op, long time) { throw new UnsupportedOperationException(); }
        @Override public long now() { return 0; }
        @Override public void compute(long ns) { charged += ns; }
        @Override public void charge(long ns) { charged += ns; }
        @Override public long busyNanos() { return charged; }
        @Override public Counters counters() { return new Counters(); }
        @Override public CostProfile profile() { return profile; }
    }

    /** A one-node fabric of memory whose endpoint is {@code ep}. */
    private record OneNode(RegisteredMemory memory, Endpoint ep) implements FakeCluster.MemoryOnly {
        @Override public String name() { return "charges"; }
        @Override public int nodes() { return 1; }
        @Override public int threads() { return 1; }
        @Override public RegisteredMemory memory(int node) { return memory; }
        @Override public Endpoint endpoint(int node, int worker) { return ep; }
        @Override public void run(WorkerHost[][] hosts) { throw new UnsupportedOperationException(); }
    }

    private CostProfile profile(String lines) throws Exception {
        return CostProfile.load(Files.writeString(dir.resolve("p" + lines.hashCode() + ".properties"), "base=cx4-edr\n" + lines).toString());
    }

    private static CoroutineWorker worker(Charges ep) {
        OneNode fabric = new OneNode(RegisteredMemory.direct(0), ep);
        ClusterShape shape = new ClusterShape(1, 1, 1, 1, 0, 1, false);
        Store store = new Store(fabric, HeaderLayout.of(), List.<TableSpec>of());
        Cluster cluster = new Cluster(shape, fabric, store, null);
        return new CoroutineWorker(cluster, 0, 0, 1, new WorkerStats(1, Long.MAX_VALUE, Long.MAX_VALUE, 1, false, null));
    }

    @Test
    void theLockManagersCheckCostsItsPassCheckAndEachParkedWaiter() throws Exception {
        CoroutineWorker w = worker(new Charges(profile("framework.lock_check_ns=7\nframework.lock_waiter_ns=5\n")));
        long without = w.passNs();
        w.lockWaiters = (node, worker) -> 0;
        assertEquals(without + 7, w.passNs(), "an empty wait list: the check alone");
        w.lockWaiters = (node, worker) -> 3;
        assertEquals(without + 7 + 3 * 5, w.passNs(), "three parked waiters walked");
        w.lockWaiters = null;
        assertEquals(without, w.passNs(), "no check where the artifact's build has none");
    }

    @Test
    void receiveBuffersAreRepostedOnceMoreThanOneMessageWasConsumed() throws Exception {
        CoroutineWorker w = worker(new Charges(profile("framework.recv_post_ns=11\nframework.recv_wr_ns=2\n")));
        assertEquals(0, w.polledNs(0));
        assertEquals(0, w.polledNs(1), "one message waiting: max_idle_recv_num_ is 1, no re-post");
        assertEquals(11 + 2 * 2, w.polledNs(1), "the second: both re-posted in one ibv_post_recv");
        assertEquals(0, w.polledNs(0));
        assertEquals(11 + 5 * 2, w.polledNs(5));
        assertEquals(0, w.polledNs(1));
    }

    @Test
    void handlerRepliesCountTowardTheSendCqPollEverySixtyFourUdSends() throws Exception {
        Charges ep = new Charges(profile("framework.ud_send_poll_ns=100\n"));
        CoroutineWorker w = worker(ep);
        for (int i = 0; i < 63; i++) w.reply(new Op());
        assertEquals(0, ep.charged);
        Op passive = new Op().unsignaled();
        w.reply(passive);
        assertEquals(0, ep.charged, "a passive RPC's handler sends no reply");
        w.reply(new Op());
        assertEquals(100, ep.charged, "the 64th reply polls the send CQ");
        assertEquals(65, ep.replies);
    }

    @Test
    void nothingIsChargedAtZero() throws Exception {
        Charges ep = new Charges(CostProfile.load(Path.of("..", "examples", "profiles", "lean.properties").toAbsolutePath().normalize().toString()));
        CoroutineWorker w = worker(ep);
        w.lockWaiters = (node, worker) -> 4;
        assertEquals(0, w.passNs());
        for (int i = 0; i < 10; i++) assertEquals(0, w.polledNs(3));
        for (int i = 0; i < 200; i++) w.reply(new Op());
        assertEquals(0, ep.charged);
    }
}
