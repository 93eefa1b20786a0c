// Micro-benchmark of the C++ operations RCC's artifact (Alchem-Lab/drtmh, branch hybrid-cc) performs around every
// wait, item, write transaction and message: the sources of the sim profile's framework.* parameters
// (docs/calibration.md, section "framework.*"). Built -O2 -g without NDEBUG, as the artifact (CMakeLists.txt:34-37).
// Prints, per operation, ns and TSC ticks per call on this machine; scripts/framework-costs scales them to the
// testbed's 2.3 GHz Xeon E5 (cycles at the ratio of clock rates).
#include <cassert>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>
#include <sys/time.h>
#include <x86intrin.h>

static inline uint64_t tsc() { return __rdtsc(); }

// A context switch as boost::context's x86_64 jump_fcontext does it (the artifact's coroutines run on
// boost::coroutines over boost::context): push the callee-saved registers, save MXCSR and the x87 control word, swap
// the stack pointer, restore, return into the other context. A stand-in: boost's coroutine wrapper adds a little.
extern "C" void fc_jump(void **from_sp, void *to_sp);
asm(R"(
.text
.globl fc_jump
.type fc_jump,@function
fc_jump:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    leaq -8(%rsp), %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    leaq 8(%rsp), %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
)");

static void *main_sp, *co_sp;
static volatile uint64_t co_counter;
extern "C" void co_body() {
    for (;;) { co_counter++; fc_jump(&co_sp, main_sp); }
}
extern "C" void co_entry();
asm(R"(
.text
.globl co_entry
co_entry:
    andq $-16, %rsp
    call co_body
)");

static void *make_context(size_t size) {
    char *stack = (char *)aligned_alloc(64, size);
    uint64_t *sp = (uint64_t *)(stack + size);
    *--sp = 0;                          // alignment
    *--sp = (uint64_t)co_entry;         // return address
    for (int i = 0; i < 6; i++) *--sp = 0;   // rbp rbx r12-r15
    uint32_t csr[2];
    asm volatile("stmxcsr %0" : "=m"(csr[0]));
    asm volatile("fnstcw %0" : "=m"(csr[1]));
    --sp;
    memcpy(sp, csr, 8);
    return sp;
}

// The host is shared: every figure is the minimum over BLOCKS blocks of iters/BLOCKS calls (the least disturbed).
static const int BLOCKS = 20;
template <typename F> static void measure(const char *name, long iters, F f, double per = 1) {
    for (long i = 0; i < iters / 10; i++) f(i);   // warm-up
    double best_ns = 1e30, best_ticks = 1e30;
    long m = iters / BLOCKS;
    for (int b = 0; b < BLOCKS; b++) {
        auto t0 = std::chrono::steady_clock::now();
        uint64_t c0 = tsc();
        for (long i = 0; i < m; i++) f(i);
        uint64_t c1 = tsc();
        auto t1 = std::chrono::steady_clock::now();
        double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / (m * per);
        if (ns < best_ns) { best_ns = ns; best_ticks = double(c1 - c0) / (m * per); }
    }
    printf("%-18s %9.2f ns %9.1f ticks\n", name, best_ns, best_ticks);
}

static volatile uint64_t sink;

struct alignas(64) Cqe { uint8_t pad[63]; volatile uint8_t op_own; };
static Cqe cqes[256];
static volatile int cq_lock = 0;
static uint32_t cq_ci = 0;
__attribute__((noinline)) static int poll_cq_stub(int ne) {
    while (__sync_lock_test_and_set(&cq_lock, 1)) {}
    int found = 0;
    for (int i = 0; i < ne; i++) {
        Cqe &c = cqes[cq_ci & 255];
        if ((c.op_own >> 4) == 0xf) break;   // invalid opcode: owned by hardware, CQ empty
        cq_ci++;
        found++;
    }
    __sync_lock_release(&cq_lock);
    return found;
}


// The global lock manager (rtx/global_lock_manager.h:46-170) as the pass checks it (core/rworker.h:133-139): an array
// of managers indexed by worker id, a doubly linked wait list; check_to_notify returns at once on an empty list, and
// for each waiter that must go on waiting (its timestamp below the holder's) asserts its thread, takes a reply buffer
// (rrpc.h:98-101: a vector pool indexed modulo its size), computes its lock value and reads the lock word.
struct Waiter { int type, pid, tid, cid; uint64_t txn_start_time; };
struct WaitNode { volatile uint64_t *lock_ptr; Waiter waiter; WaitNode *next = nullptr, *prev = nullptr; };
struct LockManager { void *waiters; int which_worker = -1; WaitNode *head = nullptr; int cnt = 0; };
static LockManager *global_lock_manager;
static std::vector<char *> reply_buf_pool;
static uint16_t reply_buf_slot;
__attribute__((noinline)) static char *get_reply_buf() { return reply_buf_pool[(reply_buf_slot++) % reply_buf_pool.size()] + 8; }
static inline __attribute__((always_inline)) void check_to_notify(LockManager &m, int my_worker_id) {
    if (m.head == nullptr) return;
    for (WaitNode *it = m.head; it != nullptr; it = it->next) {
        volatile uint64_t *lockptr = it->lock_ptr;
        Waiter &w = it->waiter;
        if (w.tid != my_worker_id) abort();                 // ASSERT (compiled in)
        char *reply = get_reply_buf();
        sink += (uint64_t)reply;
        if (w.type == 1 || w.type == 2) {
            uint64_t my_ts = w.txn_start_time << 9;          // R_LEASE
            if (w.type == 2) my_ts += 1;
            volatile uint64_t l = *lockptr;
            if (l == 0) abort();                             // (not taken here: the holder keeps it)
            if (my_ts < l) continue;                         // goon waiting: NEXT_ITEM
            abort();
        }
    }
}

// ibv_post_recv on an mlx5 receive queue, as a stand-in (no verbs on this host): the call through the context's ops
// table, the queue's spinlock, per WR a check and the 16-byte data segment written big-endian, then the doorbell record
// (host memory: receive queues ring no MMIO doorbell); plus UDMsg::post_recvs' own bookkeeping (ud_msg.cc:137-157).
struct RecvWr { uint64_t wr_id; RecvWr *next; uint64_t addr; uint32_t length, lkey; };
struct DataSeg { uint32_t byte_count, lkey; uint64_t addr; };
static DataSeg rq_buf[2048];
static volatile uint32_t rq_db;
static volatile int rq_lock = 0;
static uint32_t rq_head;
__attribute__((noinline)) static int post_recv_stub(RecvWr *wr, RecvWr **bad) {
    while (__sync_lock_test_and_set(&rq_lock, 1)) {}
    int n = 0;
    for (; wr != nullptr; wr = wr->next, n++) {
        if (wr->length == 0) { *bad = wr; break; }
        DataSeg &d = rq_buf[(rq_head + n) & 2047];
        d.byte_count = __builtin_bswap32(wr->length);
        d.lkey = __builtin_bswap32(wr->lkey);
        d.addr = __builtin_bswap64(wr->addr);
    }
    rq_head += n;
    asm volatile("" ::: "memory");                           // udma_to_device_barrier (x86: compiler only)
    rq_db = __builtin_bswap32(rq_head & 0xffff);
    __sync_lock_release(&rq_lock);
    return 0;
}
static RecvWr rr[2048];
static int max_recv_num = 2048;
static volatile int recv_head;
static void post_recvs(int recv_num) {
    static int (*volatile post)(RecvWr *, RecvWr **) = post_recv_stub;
    int head = recv_head;
    int tail = head + recv_num - 1;
    if (tail >= max_recv_num) tail -= max_recv_num;
    RecvWr *head_rr = rr + head, *tail_rr = rr + tail, *bad;
    RecvWr *temp = tail_rr->next;
    tail_rr->next = nullptr;
    if (post(head_rr, &bad) != 0) abort();
    tail_rr->next = temp;
    recv_head = (tail + 1) % max_recv_num;
}

// The backups' clean_log per applied item (rtx/default_log_cleaner_impl.hpp:37-83): the view's is_backup (view.h:79-84,
// a loop over the partition's backups), get_backed_store (a ClusterHash<MemDB *, 1> get), GetWithInsert on the
// table's RHash (a ClusterHash<MemNode, 4>: murmur hash modulo the slots, a bucket scan), the lock taken with a CAS
// (uncontended) and given back, the sequence number's two stores around a memcpy of the value.
static inline uint64_t murmur(uint64_t key, unsigned seed) {
    const uint64_t m = 0xc6a4a7935bd1e995; const int r = 47;
    uint64_t h = seed ^ (8 * m), k = key;
    k *= m; k ^= k >> r; k *= m; h ^= k; h *= m;
    h ^= h >> r; h *= m; h ^= h >> r;
    return h;
}
struct MemNodeB { volatile uint64_t lock; uint64_t seq; uint64_t *value; uint64_t off; uint64_t read_lock; };
template <typename D, int C> struct Cluster {
    struct Key { uint64_t valid : 1; uint64_t key : 63; };
    struct Header { Key keys[C]; D datas[C]; int32_t next; };
    Header *nodes; uint64_t slots;
    Cluster(uint64_t n) : nodes(new Header[n]()), slots(n) {}
    D *get(uint64_t key) {
        Header *h = nodes + murmur(key, 0xdeadbeef) % slots;
        for (int i = 0; i < C; i++) if (h->keys[i].key == key && h->keys[i].valid) return &h->datas[i];
        return nullptr;
    }
    D *get_with_insert(uint64_t key) {
        if (D *d = get(key)) return d;
        Header *h = nodes + murmur(key, 0xdeadbeef) % slots;
        for (int i = 0; i < C; i++) if (!h->keys[i].valid) { h->keys[i].valid = 1; h->keys[i].key = key; return &h->datas[i]; }
        return nullptr;   // (chains not needed: the benchmark's keys fit)
    }
};

int main(int argc, char **argv) {
    for (auto &c : cqes) c.op_own = 0xf0;
    long n = argc > 1 ? atol(argv[1]) : 20000000;
    // one switch = half of a round trip (main -> coroutine -> main)
    co_sp = make_context(64 * 1024);
    measure("switch", n, [](long) { fc_jump(&main_sp, co_sp); }, 2);
    // rdtsc
    measure("rdtsc", n, [](long) { sink += __rdtsc(); });
    // ibv_poll_cq on an empty CQ, mlx5 style stand-in: the call through the context's ops table (not inlined), the
    // CQ's spinlock, the CQE at the consumer index read and its owner bit checked (no completion found), unlock
    {
        static int (*volatile poll)(int) = poll_cq_stub;
        measure("cq_poll_empty", n, [](long) { sink += poll(1); });
    }
    // the pass's scans: per slot, the timeout check (active_ == false && time_start_ != 0) and the 2PC byte compares
    {
        const int C = 10, N = 4;
        struct Meta { bool active; uint64_t time_start, timeout; int id; };
        static Meta metas[C + 1];
        for (auto &m : metas) { m.active = true; m.time_start = 0; m.timeout = 0; m.id = 0; }
        static volatile uint8_t twopc[N][64][C + 1];
        double slots = (C + 1) + (double)C * N;
        measure("scan_slot", n / 10, [&](long) {
            for (int i = 0; i < C + 1; ++i)
                if (metas[i].active == false && metas[i].time_start != 0 && __rdtsc() - metas[i].time_start > metas[i].timeout) sink++;
            for (int i = 1; i < C + 1; ++i)
                for (int m = 0; m < N; ++m) {
                    volatile uint8_t *p = &twopc[m][0][i];
                    if (*p == 1) *p = 2;
                    if (*p == 3) *p = 0;
                }
        }, slots);
    }
    // Rmalloc/Rfree (ssmalloc-based; stand-in: glibc malloc/free of the buffer, header + 8-byte SmallBank value)
    {
        static void *ptrs[2];
        measure("malloc_free_40", n, [](long i) { ptrs[i & 1] = malloc(40); sink += (uint64_t)ptrs[i & 1]; free(ptrs[i & 1]); });
    }
    // RPC item: malloc + free of the value buffer and add_batch_entry's std::set<int> insert of the server id
    {
        std::set<int> macs;
        measure("rpc_item", n / 4, [&](long i) {
            void *p = malloc(8);
            sink += (uint64_t)p;
            if ((i & 1) == 0) macs.clear();
            macs.insert(int(i & 3));
            free(p);
        });
    }
    // written item: prepare_write_contents' value copy (malloc'd copy of an 8-byte value + header) and log_remote's
    // std::set insert (add_backup)
    {
        std::set<int> macs;
        static char src[64], *dst;
        measure("write_item", n / 4, [&](long i) {
            dst = (char *)malloc(40);
            memcpy(dst, src, 40);
            if ((i & 1) == 0) macs.clear();
            macs.insert(int(i & 3));
            sink += (uint64_t)dst[3];
            free(dst);
        });
    }
    // the log buffer copy before the log-ack: memcpy of the batch message (SmallBank: 2 items, ~128 B)
    {
        static char a[4096], b[4096];
        measure("log_copy_128", n, [](long i) { memcpy(a + (i & 7) * 8, b, 128); sink += a[5]; });
    }
    // the synchronous send-CQ poll every 64th UD send (qp.cc:184-209): two gettimeofday calls around one poll that
    // finds the signaled send's completion (long done by then); the poll itself is cq_poll_empty's stand-in
    {
        struct timeval tv;
        measure("gettimeofday", n / 4, [&](long) { gettimeofday(&tv, nullptr); sink += tv.tv_usec; });
    }
    // the global lock manager's check in the pass (WAITDIE with RPC locks, SUNDIAL unless pure one-sided): its empty
    // list, and each waiter walked while it keeps waiting (per waiter: 4 parked)
    {
        global_lock_manager = new LockManager[200];
        static volatile int worker = 3;
        measure("lock_check_empty", n, [](long) { check_to_notify(global_lock_manager[worker], worker); asm volatile("" ::: "memory"); });
        for (int i = 0; i < 64; i++) reply_buf_pool.push_back((char *)malloc(1024));
        static volatile uint64_t locks[4];
        LockManager &m = global_lock_manager[worker];
        for (int i = 0; i < 4; i++) {
            locks[i] = (uint64_t)1 << 62;
            WaitNode *w = new WaitNode{&locks[i], Waiter{2, 1, worker, 3, 1000u + i}};
            w->next = m.head;
            if (m.head) m.head->prev = w;
            m.head = w;
        }
        measure("lock_waiter", n / 4, [](long) { check_to_notify(global_lock_manager[worker], worker); asm volatile("" ::: "memory"); }, 4);
        m.head = nullptr;
    }
    // re-posting receive buffers (ud_msg.cc:368-372: whenever more than one message was consumed since the last
    // re-post): one ibv_post_recv of 2 WRs and of 16; the fixed part and the part per WR follow from the two
    {
        for (int i = 0; i < 2048; i++) { rr[i].wr_id = rr[i].addr = 4096 * (uint64_t)i; rr[i].length = 512; rr[i].lkey = 7; rr[i].next = &rr[(i + 1) % 2048]; }
        measure("post_recv_2", n, [](long) { post_recvs(2); });
        measure("post_recv_16", n / 4, [](long) { post_recvs(16); });
    }
    // the backups' clean_log per applied item: what it does beyond finding the tuple and copying the value (the view's
    // is_backup, get_backed_store, the CAS lock and its release, the seq stores), and the lookup + copy alone
    {
        static std::vector<std::vector<int>> mapping(4, std::vector<int>{0, 1, 2});
        static Cluster<void *, 1> backed(64);
        for (int p = 0; p < 4; p++) *backed.get_with_insert(p) = &mapping;
        const uint64_t K = 4096;
        static Cluster<MemNodeB, 4> table(K);   // as many slots as rows, as RHash sizes it
        static char vals[K][64];
        static uint64_t keys[K];
        uint64_t present = 0;
        for (uint64_t k = 0; present < K; k++) {
            MemNodeB *nd = table.get_with_insert(k);
            if (nd == nullptr) continue;      // a full bucket: the artifact chains it; the benchmark skips the key
            nd->value = (uint64_t *)vals[present];
            keys[present++] = k;
        }
        static char item[64];
        static volatile int me = 2;
        static MemNodeB *nodes[K];
        for (uint64_t k = 0; k < K; k++) nodes[k] = table.get(keys[k]);
        measure("clean_item_extra", n / 4, [](long i) {
            int pid = int(i & 3);
            bool backup = false;
            for (int b = 0; b < 3; b++) if (mapping[pid][b] == me) { backup = true; break; }
            if (!backup) abort();
            void *store = *backed.get(pid);
            if (store == nullptr) abort();
            MemNodeB *node = nodes[i & (K - 1)];
            volatile uint64_t *lockptr = &node->lock;
            while (*lockptr != 0 || !__sync_bool_compare_and_swap(lockptr, 0, 1)) {}
            node->lock = 0;
            uint64_t old_seq = node->seq;
            node->seq = 1;
            asm volatile("" ::: "memory");
            asm volatile("" ::: "memory");
            node->seq = old_seq + 2;
            asm volatile("" ::: "memory");
            node->lock = 0;
        });
        measure("clean_lookup_copy", n / 4, [](long i) {
            MemNodeB *node = table.get_with_insert(keys[i & (K - 1)]);
            memcpy((char *)node->value, item, 8);
            sink += node->seq;
        });
    }
    return 0;
}
