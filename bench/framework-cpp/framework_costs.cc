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
    return 0;
}
