// The execution engine: blocks run one after another; a block's threads are fibers.
// Section index: stacks · faults (signals, watchdog) · EngineImpl (state) · findings · warp
// scheduling and grouping · hooks called by the dialect · Engine (public face).
#include "sim/engine.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <unordered_map>

#include <boost/context/fiber.hpp>

#if defined(BOOST_USE_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#include "sim/device_profile.h"
#include "sim/hierarchy.h"
#include "sim/rules.h"

namespace ws::sim {
namespace detail {

constinit thread_local ThreadCtx* t_current = nullptr;

namespace ctx = boost::context;

// ---- stacks ------------------------------------------------------------------------------
// Why these stacks: a GPU thread may hold up to 512 KiB of local memory (arrays, spills) and
// may recurse, so a simulated thread needs room of that order, and a kernel that outgrows it
// must be a finding, never a crash of the program. Each thread index of a block gets its own
// stack, reserved with mmap under MAP_NORESERVE (pages are committed only when touched, so
// 1024 threads x 1 MiB cost what the kernel uses), above a PROT_NONE guard region. The build
// compiles with -fstack-clash-protection, so a frame larger than the guard still touches it
// page by page instead of jumping over it. A fault in the guard (or any fault while kernel
// code runs) reaches the handler in "faults" below, on a signal stack of its own, which leaves
// the block. The size is the same in every build, sanitizer builds included: a kernel that
// fits in one fits in all.
constexpr size_t kStackBytes = size_t(1) << 20;
constexpr size_t kGuardBytes = size_t(64) << 10;

class StackPool {
 public:
  StackPool() = default;
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool() {
    for (void* p : stacks_)
      if (p) munmap(p, kGuardBytes + kStackBytes);
  }
  // Thread i's stack, made on first use and kept: every block reuses it.
  ctx::stack_context Get(uint32_t i) {
    if (i >= stacks_.size()) stacks_.resize(i + 1, nullptr);
    if (!stacks_[i]) {
      void* p = mmap(nullptr, kGuardBytes + kStackBytes, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      if (mprotect(static_cast<char*>(p) + kGuardBytes, kStackBytes, PROT_READ | PROT_WRITE) != 0) {
        munmap(p, kGuardBytes + kStackBytes);
        throw std::bad_alloc();
      }
      stacks_[i] = p;
    }
    ctx::stack_context sc;
    sc.size = kStackBytes;
    sc.sp = static_cast<char*>(stacks_[i]) + kGuardBytes + kStackBytes;
    return sc;
  }
  // True if `addr` lies in the guard region below thread i's stack.
  bool InGuard(uint32_t i, const void* addr) const {
    if (i >= stacks_.size() || !stacks_[i]) return false;
    const auto a = reinterpret_cast<uintptr_t>(addr), lo = reinterpret_cast<uintptr_t>(stacks_[i]);
    return a >= lo && a < lo + kGuardBytes;
  }
  // After a block was left in the middle: its frames' sanitizer poison must not outlive it.
  void Forget() {
#if defined(BOOST_USE_ASAN)
    for (void* p : stacks_)
      if (p) __asan_unpoison_memory_region(static_cast<char*>(p) + kGuardBytes, kStackBytes);
#endif
  }

 private:
  std::vector<void*> stacks_;
};

// Hands thread i its stack. The pool owns it, so a fiber that is dropped without finishing
// (see EngineImpl::Abandon) loses nothing.
struct StackAllocator {
  StackPool* pool;
  uint32_t index;
  ctx::stack_context allocate() { return pool->Get(index); }
  void deallocate(ctx::stack_context&) noexcept {}
};

// ---- faults --------------------------------------------------------------------------------
// How a fault in kernel code becomes a finding. The kernel runs in this process, on the fiber
// stacks above, so a fault cannot be caught as an exception. Running each simulation in a
// child process would isolate it too, but would have to stream every trace back; instead the
// engine leaves the block from a signal handler, which is certain for the faults a kernel can
// cause: SIGSEGV/SIGBUS (stack overflow into the guard, a wild pointer) and SIGFPE (integer
// division by zero) are synchronous, and the handler runs on its own signal stack
// (sigaltstack) so it works when the fiber's stack is exhausted. While a block runs, RunBlock
// holds a sigsetjmp point on the scheduler's (the thread's own) stack; the handler siglongjmps
// there, and the block's fibers are dropped without being resumed or unwound (their stacks
// belong to the pool). The launch stops, as a GPU context does after a fault.
//
// A kernel that loops without touching memory never calls the engine, so a watchdog timer
// (timer_create on the simulating thread's CPU clock, delivered to that thread) ticks every
// 100 ms of CPU time; a tick that finds the same thread still running with the same progress
// count for LaunchOptions::watchdog_seconds leaves the block the same way, and so does a tick
// that finds RunControl::cancel set. A tick that lands in engine code that may allocate
// (ThreadCtx::in_engine) waits for the next one: leaving there could strand a lock.
enum class Leave : int { Fault = 1, Watchdog, StepBudget, Cancel };

struct FaultState {
  sigjmp_buf jump;
  volatile sig_atomic_t armed;  // a block runs on this thread: `jump` is valid
  volatile int reason, signo, code;
  void* volatile addr;
  ThreadCtx* volatile who;      // the thread that faulted, or null
  // watchdog
  RunControl* volatile control;
  const ThreadCtx* volatile seen;
  volatile uint64_t seen_steps;
  volatile uint32_t stuck_ticks, ticks_needed;
};
constinit thread_local FaultState t_fault{};

constexpr int kTickSignal = SIGVTALRM;  // otherwise unused by the program
constexpr double kTickSeconds = 0.1;
struct sigaction g_old_action[NSIG];

[[noreturn]] void LeaveBlock(Leave reason, ThreadCtx* who) {
  FaultState& f = t_fault;
  f.reason = int(reason);
  f.who = who;
  siglongjmp(f.jump, 1);
}

void OnFault(int sig, siginfo_t* info, void*) {
  FaultState& f = t_fault;
  if (f.armed && t_current) {
    f.signo = sig;
    f.code = info->si_code;
    f.addr = info->si_addr;
    LeaveBlock(Leave::Fault, t_current);
  }
  // Not the kernel's fault: restore what the program had and return, so that the fault repeats
  // and ends the process as it would have (or a sanitizer reports it).
  sigaction(sig, &g_old_action[sig], nullptr);
}

void OnTick(int, siginfo_t*, void*) {
  FaultState& f = t_fault;
  ThreadCtx* t = t_current;
  if (!f.armed || !t) {
    f.seen = nullptr;
    return;
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (t->in_engine) return;
  if (f.control && f.control->cancel.load(std::memory_order_relaxed)) LeaveBlock(Leave::Cancel, t);
  const uint64_t steps = t->steps + t->size;
  if (t != f.seen || steps != f.seen_steps) {
    f.seen = t;
    f.seen_steps = steps;
    f.stuck_ticks = 0;
  } else {
    const uint32_t stuck = f.stuck_ticks + 1;
    f.stuck_ticks = stuck;
    if (stuck >= f.ticks_needed) LeaveBlock(Leave::Watchdog, t);
  }
}

void InstallHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = OnFault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE}) sigaction(sig, &sa, &g_old_action[sig]);
    sa.sa_sigaction = OnTick;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigaction(kTickSignal, &sa, &g_old_action[kTickSignal]);
  });
  // Every simulating thread needs a signal stack: a stack overflow leaves none to run on.
  struct AltStack {
    void* base = nullptr;
    size_t size = 0;
    AltStack() {
      stack_t old{};
      if (sigaltstack(nullptr, &old) == 0 && !(old.ss_flags & SS_DISABLE)) return;  // has one
      size = 256 * 1024;
      base = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (base == MAP_FAILED) { base = nullptr; return; }
      stack_t ss{};
      ss.ss_sp = base;
      ss.ss_size = size;
      if (sigaltstack(&ss, nullptr) != 0) { munmap(base, size); base = nullptr; }
    }
    ~AltStack() {
      if (!base) return;
      stack_t ss{};
      ss.ss_flags = SS_DISABLE;
      sigaltstack(&ss, nullptr);
      munmap(base, size);
    }
  };
  static thread_local AltStack alt;
  (void)alt;
}

// The watchdog's timer, for one launch on the calling thread.
class Watchdog {
 public:
  explicit Watchdog(double seconds, RunControl* control) {
    FaultState& f = t_fault;
    f.control = control;
    f.seen = nullptr;
    f.stuck_ticks = 0;
    const double s = std::isfinite(seconds) && seconds > 0 ? seconds : 1e9;
    f.ticks_needed = uint32_t(std::min(1e9, std::max(1.0, std::ceil(s / kTickSeconds))));
    sigevent ev{};
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = kTickSignal;
    ev._sigev_un._tid = int(gettid());  // sigev_notify_thread_id, which glibc 2.36 does not name
    ok_ = timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &timer_) == 0;
    if (!ok_) return;
    itimerspec its{};
    its.it_interval.tv_nsec = its.it_value.tv_nsec = long(kTickSeconds * 1e9);
    timer_settime(timer_, 0, &its, nullptr);
  }
  ~Watchdog() {
    if (ok_) timer_delete(timer_);
    t_fault.control = nullptr;
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  timer_t timer_{};
  bool ok_ = false;
};

// After a siglongjmp out of a fiber: the sanitizer still believes it runs on that fiber's stack.
void BackOnThreadStack() {
#if defined(BOOST_USE_ASAN)
  static thread_local void* lo = nullptr;
  static thread_local size_t size = 0;
  if (!lo) {
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
      pthread_attr_getstack(&a, &lo, &size);
      pthread_attr_destroy(&a);
    }
  }
  __sanitizer_start_switch_fiber(nullptr, lo, size);
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

// Marks engine code that runs on a kernel's fiber and may allocate (see "faults").
struct EngineSection {
  ThreadCtx& t;
  explicit EngineSection(ThreadCtx& c) : t(c) {
    t.in_engine = 1;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~EngineSection() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    t.in_engine = 0;
  }
};

std::atomic<uint64_t> g_generation{0};
std::atomic<uint64_t> g_block_serial{0};

constexpr size_t kSharedLimit = 48 * 1024;  // static shared memory per block
// Static and dynamic shared memory per block on an H100 (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability": 227 KB for compute capability 9.0, with opt-in).
constexpr size_t kSharedLimitOptIn = 227 * 1024;

// ---- races ------------------------------------------------------------------------------
// A read of a shared word that another thread of the block wrote is a race unless something
// orders the write before the read (CUDA C++ Programming Guide, "Synchronization Functions",
// and "Independent Thread Scheduling" in the compute capability 7.x section):
//  - __syncthreads() between them: every earlier write is ordered (the barrier epoch differs);
//  - both threads in one warp, and a warp operation that both lanes took part in between
//    them: __syncwarp(mask) ("guarantees memory ordering among threads participating in the
//    barrier"), and also a shuffle or vote naming both lanes, which makes the participating
//    lanes meet there (the Guide does not promise memory ordering for shuffles and votes; the
//    simulator counts them as ordering so that it never warns about code that waits for the
//    other lane's value through them). Lanes keep a vector clock over their warp's lanes,
//    joined at every warp operation, so orderings through a third lane count too;
//  - both accesses volatile and in one warp: the warp-synchronous idiom of the pre-Volta
//    Guide (the unrolled last warp of the classic reduction, `volatile float* s = sdata;`).
//    The Guide's "Independent Thread Scheduling" no longer promises it since Volta, but while
//    the warp is converged each volatile access is a real load or store issued in program
//    order for the whole warp, so the value is right on an H100; the simulator does not
//    report it, and does not check that the warp is converged there.
// Anything else in one warp is a warp-synchronous race (a warning: the simulator's lockstep
// gives the lockstep value), and across warps a shared-memory race.
// The shadow word of an element: block serial tag (24 bits, never 0) | barrier epoch (14) |
// written through volatile (1) | the writer's own clock (13) | writer + 1 (12). The epoch and
// the serial wrap harmlessly (a false report needs a word untouched for 16384 barriers or
// 2^24 blocks); a lane's clock stops at kClockMax warp operations per barrier interval, after
// which a missing ordering can go unreported, never a present one reported.
constexpr int kClockMax = 0x1fff;
constexpr uint64_t SerialTag(uint64_t serial) { return (serial - 1) % 0xffffff + 1; }
constexpr uint64_t kShadowStampMask = ~0ull << 26;  // serial and barrier epoch

// ---- engine state ----------------------------------------------------------------------
class EngineImpl {
 public:
  explicit EngineImpl(LaunchOptions o) : opt(std::move(o)), generation(++g_generation) {}

  LaunchOptions opt;
  Trace trace;
  uint64_t generation;
  uint64_t next_global_base = 0x7f0000000000ull;
  uint64_t shared_bytes = 0;
  // extern __shared__: the launch's bytes (16-byte units, for alignment), a shadow word per
  // byte, and the address all extern arrays share (~0 until the first is used).
  struct alignas(16) Bytes16 { unsigned char b[16]; };
  std::vector<Bytes16> dynamic_data;
  std::vector<uint64_t> dynamic_shadow;
  uint64_t dynamic_bytes = 0, dynamic_base = ~0ull;
  bool abort = false;

  // current block
  std::vector<ThreadCtx> threads;
  std::vector<ctx::fiber> fibers;  // the thread's fiber, when the scheduler holds it
  std::vector<ctx::fiber> sinks;   // the scheduler, when the thread holds it
  std::function<void()> body;
  StackPool stacks;
  uint32_t block_linear = 0;
  uint64_t block_serial = 0;
  uint32_t barrier_epoch = 0;
  // Advances at every block start and barrier: a lane's warp clock from an older era is stale.
  uint64_t sync_era = 0;
  bool trace_block = false;
  std::vector<Counters> per_site;
  std::unique_ptr<MemoryHierarchy> hierarchy;  // null: caches not modelled
  std::unordered_map<uint64_t, uint32_t> site_index;  // (file ptr ^ line/col) -> site
  std::map<std::pair<int, int>, size_t> finding_index;  // (kind, site) -> finding

  uint32_t InternSite(std::source_location loc) {
    return InternSite(loc.file_name(), loc.line(), loc.column());
  }
  uint32_t InternSite(const char* file, uint32_t line, uint32_t column) {
    uint64_t key = reinterpret_cast<uintptr_t>(file) * 0x9E3779B97F4A7C15ull ^
                   (uint64_t(line) << 24 | column);
    auto it = site_index.find(key);
    if (it != site_index.end()) return it->second;
    uint32_t id = uint32_t(trace.sites.size());
    trace.sites.push_back({file, line, column});
    per_site.emplace_back();
    site_index.emplace(key, id);
    return id;
  }

  // True (and counted) when this kind of finding was already reported at this site, so that
  // the caller need not build the message again.
  bool Seen(FindingKind kind, int site) {
    auto it = finding_index.find(std::make_pair(int(kind), site));
    if (it == finding_index.end()) return false;
    ++trace.findings[it->second].occurrences;
    return true;
  }

  void AddFinding(FindingKind kind, const ThreadCtx& t, int site, std::string message, int array,
                  uint64_t address, int64_t index, bool has_address = false,
                  FindingScope scope = FindingScope::Thread) {
    auto key = std::make_pair(int(kind), site);
    auto it = finding_index.find(key);
    if (it != finding_index.end()) { ++trace.findings[it->second].occurrences; return; }
    if (trace.findings.size() >= opt.max_findings) return;
    Finding f;
    f.kind = kind;
    f.scope = scope;
    f.has_address = has_address;
    f.message = std::move(message);
    f.block = {t.block_idx.x, t.block_idx.y, t.block_idx.z};
    f.thread = {t.thread_idx.x, t.thread_idx.y, t.thread_idx.z};
    f.site = site;
    f.array = array;
    f.address = address;
    f.index = index;
    finding_index.emplace(key, trace.findings.size());
    trace.findings.push_back(std::move(f));
  }

  // Progress: `n` more accesses or synchronisations made by t; past the budget the block is left.
  void Step(ThreadCtx& t, uint64_t n) {
    t.steps += n;
    if (t.steps > opt.step_budget) [[unlikely]] LeaveBlock(Leave::StepBudget, &t);
  }
  bool Cancelled() const {
    return opt.control && opt.control->cancel.load(std::memory_order_relaxed);
  }

  // ---- fibers ----
  void Resume(ThreadCtx& t) {
    t_current = &t;
    fibers[t.linear] = std::move(fibers[t.linear]).resume();
    t_current = nullptr;
  }
  void Yield(ThreadCtx& t) {
    sinks[t.linear] = std::move(sinks[t.linear]).resume();
    t_current = &t;
  }

  // The lane's vector clock over its warp (see "races"), reset when a barrier has passed.
  uint16_t* Clock(ThreadCtx& t) {
    if (t.clock_era != sync_era) [[unlikely]] {
      std::memset(t.clock, 0, sizeof t.clock);
      t.clock[t.lane] = 1;
      t.sync_line = 0;
      t.clock_era = sync_era;
    }
    return t.clock;
  }

  void RunBlock(const LaunchShape& s, uint32_t bx, uint32_t by, uint32_t bz);
  void RunThreads(uint32_t n);
  void Abandon();
  void ReportLeave(const FaultState& f);
  void RunWarp(uint32_t first, uint32_t last);
  void Merge(uint32_t first, uint32_t last, uint32_t warp);
  void Emit(WarpInstruction& ins, const LaneEvent& e);
  void Exchange(uint32_t first, uint32_t last, uint64_t key);
  void Meet(uint32_t first, uint32_t last, uint64_t key);
  uint64_t Issuable(uint32_t first, uint32_t last, uint64_t key);
  uint64_t BeforeSync(uint32_t first, uint32_t last, uint64_t key) const;
  // Sites by (file name pointer, line, column), a small direct-mapped cache in front of
  // InternSite: the compiler gives every source_location of one file the same file_name().
  struct SiteSlot {
    const char* file = nullptr;
    uint32_t line = 0, column = 0, site = 0;
  };
  static constexpr size_t kSiteCache = 64;
  SiteSlot site_cache[kSiteCache] = {};
};

// ---- one block -------------------------------------------------------------------------
void EngineImpl::RunBlock(const LaunchShape& s, uint32_t bx, uint32_t by, uint32_t bz) {
  const uint32_t n = uint32_t(s.block.Count());
  block_linear = bx + s.grid.x * (by + s.grid.y * bz);
  block_serial = ++g_block_serial;
  barrier_epoch = 0;
  ++sync_era;
  const auto& sel = opt.selection;
  trace_block = sel.kind == Selection::Kind::All ||
                ((sel.kind == Selection::Kind::Block || sel.kind == Selection::Kind::Warp) &&
                 sel.block == block_linear);
  if (hierarchy) hierarchy->BeginBlock(block_linear, (n + kWarpSize - 1) / kWarpSize, shared_bytes);
  threads.resize(n);
  fibers.resize(n);
  sinks.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    ThreadCtx& t = threads[i];
    t.thread_idx = {i % s.block.x, (i / s.block.x) % s.block.y, i / (s.block.x * s.block.y)};
    t.block_idx = {bx, by, bz};
    t.block_dim = {s.block.x, s.block.y, s.block.z};
    t.grid_dim = {s.grid.x, s.grid.y, s.grid.z};
    t.linear = i;
    t.lane = i % kWarpSize;
    t.warp = i / kWarpSize;
    t.engine = this;
    t.epoch = t.line = t.ord = 0;
    t.last_loc = {};
    t.size = t.head = 0;
    t.steps = 0;
    t.in_engine = 0;
    t.pause = Pause::None;
    fibers[i] = ctx::fiber(std::allocator_arg, StackAllocator{&stacks, i},
                           [this, i](ctx::fiber&& sink) {
                             sinks[i] = std::move(sink);
                             ThreadCtx& me = threads[i];
                             try {
                               body();
                             } catch (const std::exception& e) {
                               EngineSection section(me);
                               AddFinding(FindingKind::KernelException, me, -1,
                                          std::string("the thread threw: ") + e.what(), -1, 0, 0);
                             }
                             me.pause = Pause::Done;
                             return std::move(sinks[i]);
                           });
  }
  // The block runs armed: a fault, the watchdog, the step budget or a cancel siglongjmps back
  // here (see "faults"). Nothing below keeps state in locals across that point.
  FaultState& f = t_fault;
  if (sigsetjmp(f.jump, 1) != 0) {
    f.armed = 0;
    t_current = nullptr;
    BackOnThreadStack();
    Abandon();
    ReportLeave(f);
    abort = true;
    return;
  }
  f.armed = 1;
  RunThreads(n);
  f.armed = 0;
  // fibers are all finished; release them
  for (auto& fb : fibers) fb = ctx::fiber();
}

// Drops every fiber of the block without resuming it: destroying a suspended ctx::fiber would
// resume it to unwind its stack, which after a fault is not safe. Their stacks stay in the pool.
void EngineImpl::Abandon() {
  alignas(ctx::fiber) static thread_local unsigned char dropped[sizeof(ctx::fiber)];
  for (auto* v : {&fibers, &sinks})
    for (auto& fb : *v) ::new (static_cast<void*>(dropped)) ctx::fiber(std::move(fb));
  stacks.Forget();
}

void EngineImpl::ReportLeave(const FaultState& f) {
  const Leave reason = Leave(f.reason);
  if (reason == Leave::Cancel || !f.who) {
    ThreadCtx none;
    const uint64_t done = opt.control ? opt.control->blocks_done.load() : 0;
    AddFinding(FindingKind::Cancelled, none, -1,
               "the simulation was cancelled after " + std::to_string(done) + " of " +
                   std::to_string(trace.shape.grid.Count()) +
                   " blocks; the counters cover only what ran",
               -1, 0, 0, false, FindingScope::Launch);
    return;
  }
  const ThreadCtx& t = *f.who;
  const bool known = t.last_loc.line() != 0;
  const int site = known ? int(InternSite(t.last_loc)) : -1;
  // The place names the line; the message says which line it is.
  const std::string at =
      known ? " at this line or after it (the last line where it touched memory)" : " before its first memory access";
  const std::string stop = ". The launch stopped there, as a GPU stops after a fault.";
  switch (reason) {
    case Leave::Fault:
      if (f.signo == SIGFPE) {
        const char* what = f.code == FPE_INTDIV   ? "divided an integer by zero"
                           : f.code == FPE_INTOVF ? "overflowed an integer division (INT_MIN / -1)"
                                                  : "raised an arithmetic trap (SIGFPE)";
        AddFinding(FindingKind::ArithmeticTrap, t, site,
                   "the thread " + std::string(what) + at + "; a GPU does not trap but gives an undefined result" +
                       stop,
                   -1, 0, 0);
      } else if (stacks.InGuard(t.linear, f.addr)) {
        AddFinding(FindingKind::StackOverflow, t, site,
                   "the thread's stack overflowed" + at +
                       ": it needed more than " + std::to_string(kStackBytes) +
                       " bytes (local arrays, recursion); the simulator gives each thread " +
                       std::to_string(kStackBytes) +
                       " bytes (a GPU allows at most 512 KiB of local memory per thread)" + stop,
                   -1, uintptr_t(f.addr), 0, true);
      } else {
        AddFinding(FindingKind::MemoryFault, t, site,
                   "the thread touched memory outside every array and stack" + at +
                       " (" + (f.signo == SIGBUS ? "SIGBUS" : "SIGSEGV") +
                       "): a pointer that does not come from the kernel's arguments?" + stop,
                   -1, uintptr_t(f.addr), 0, true);
      }
      return;
    case Leave::Watchdog: {
      char secs[32];
      std::snprintf(secs, sizeof secs, "%.1f", f.ticks_needed * kTickSeconds);
      AddFinding(FindingKind::NoProgress, t, site,
                 std::string("no progress after ") + secs + " s of CPU time" + at +
                     ": the thread ran that long without a memory access or synchronisation "
                     "(an endless loop? the watchdog is --watchdog seconds)" + stop,
                 -1, 0, 0);
      return;
    }
    case Leave::StepBudget:
      AddFinding(FindingKind::NoProgress, t, site,
                 "no progress after " + std::to_string(opt.step_budget) + " instructions" + at +
                     ": the thread made that many memory accesses and synchronisations "
                     "without finishing (an endless loop, such as a grid-stride loop without its "
                     "increment? the budget per thread is --step-budget)" + stop,
                 -1, 0, 0);
      return;
    case Leave::Cancel: return;
  }
}

// Runs the block's threads to the end, barrier by barrier.
void EngineImpl::RunThreads(uint32_t n) {
  const uint32_t warps = (n + kWarpSize - 1) / kWarpSize;
  for (;;) {
    for (uint32_t w = 0; w < warps; ++w) RunWarp(w * kWarpSize, std::min(n, (w + 1) * kWarpSize));
    // Every live thread now waits at a barrier.
    uint32_t waiting = 0, done = 0;
    const ThreadCtx* first = nullptr;
    bool same_site = true;
    uint32_t max_epoch = 0;
    for (auto& t : threads) {
      if (t.pause == Pause::Done) { ++done; continue; }
      ++waiting;
      if (!first) first = &t;
      else if (t.pend_loc.line() != first->pend_loc.line() ||
               t.pend_loc.column() != first->pend_loc.column())
        same_site = false;
      max_epoch = std::max(max_epoch, t.epoch);
    }
    if (waiting == 0) break;
    int site = InternSite(first->pend_loc);
    if (!same_site)
      AddFinding(FindingKind::BarrierDivergence, *first, site,
                 "threads of the block wait at different __syncthreads() calls; on a GPU this "
                 "hangs or gives undefined results",
                 -1, 0, 0, false, FindingScope::Block);
    else if (done > 0)
      AddFinding(FindingKind::BarrierDivergence, *first, site,
                 std::to_string(done) + " thread(s) of the block exited without reaching this "
                 "__syncthreads(); CUDA requires every thread of the block to reach it",
                 -1, 0, 0, false, FindingScope::Block);
    ++trace.barriers;
    if (hierarchy) hierarchy->Barrier();
    ++barrier_epoch;
    ++sync_era;
    for (auto& t : threads)
      if (t.pause == Pause::Barrier) {
        t.pause = Pause::None;
        t.epoch = max_epoch + 1;  // the warp reconverges at the barrier
      }
  }
}

// Runs one warp until every live lane waits at a block barrier or has finished.
void EngineImpl::RunWarp(uint32_t first, uint32_t last) {
  const uint32_t warp = first / kWarpSize;
  auto waiting = [](const ThreadCtx& t) { return t.pause == Pause::Shared || t.pause == Pause::WarpSync; };
  for (;;) {
    if (Cancelled()) [[unlikely]] LeaveBlock(Leave::Cancel, nullptr);
    for (uint32_t i = first; i < last; ++i) {
      ThreadCtx& t = threads[i];
      if (t.pause == Pause::None && t.Empty()) {
        Step(t, t.size);
        t.size = t.head = 0;
        Resume(t);
      }
    }
    Merge(first, last, warp);
    bool runnable = false;
    uint64_t key = ~0ull;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      if (!t.Empty()) continue;
      if (t.pause == Pause::None) { runnable = true; break; }
      if (waiting(t) && t.pend_key < key) key = t.pend_key;
    }
    if (runnable) continue;
    if (key == ~0ull) {
      // Nothing pending: every lane is done or at a barrier, with its events emitted.
      for (uint32_t i = first; i < last; ++i)
        if (!threads[i].Empty())
          throw std::logic_error("warp scheduler: events left with no lane able to run");
      return;
    }
    // Issue the earliest pending shared access or warp operation: its lanes go together.
    key = Issuable(first, last, key);
    bool sync = false;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      if (t.Empty() && waiting(t) && t.pend_key == key) sync |= t.pause == Pause::WarpSync;
    }
    if (sync) {
      Meet(first, last, key);
      Exchange(first, last, key);
    }
    for (uint32_t i = first; i < last; ++i) {
      ThreadCtx& t = threads[i];
      if (t.Empty() && waiting(t) && t.pend_key == key) t.pause = Pause::None;
    }
  }
}

// Groups the lanes' buffered events into warp instructions: lanes whose next event has the
// same key (loop epoch, line, ordinal, column, op) form one instruction; the smallest key goes
// first. Stops where a lane's next step is not known yet.
void EngineImpl::Merge(uint32_t first, uint32_t last, uint32_t warp) {
  for (;;) {
    // Fast path, a converged warp: every lane has an event and all share the first one's key.
    // One pass takes each lane's event; a lane that differs undoes the pass.
    if (!threads[first].Empty()) {
      const LaneEvent& lead = threads[first].buf[threads[first].head];
      const uint64_t key = lead.key;
      WarpInstruction ins{WarpInstruction::Uninitialized{}};
      // Lanes with one key have one op, but for a RED: MarkAtomicUsed makes some lanes ATOM.
      const bool reduction = (key & 3) == uint64_t(Op::Reduction);
      uint8_t atomic = 0;
      uint32_t i = first;
      for (; i < last; ++i) {
        ThreadCtx& t = threads[i];
        if (t.Empty() || t.buf[t.head].key != key) break;
        const LaneEvent& e = t.buf[t.head++];
        ins.addr[i - first] = e.addr;  // the lane
        if (reduction) atomic |= e.op() == Op::Atomic;
      }
      if (i == last) {
        ins.mask = last - first == 32 ? ~0u : (1u << (last - first)) - 1;
        for (uint32_t l = last - first; l < uint32_t(kWarpSize); ++l) ins.addr[l] = 0;
        if (atomic) ins.op = Op::Atomic;
        ins.warp = warp;
        Emit(ins, threads[first].buf[threads[first].head - 1]);
        continue;
      }
      for (uint32_t j = first; j < i; ++j) --threads[j].head;
    }
    uint64_t key = ~0ull;
    bool pending_min = false, any = false;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      uint64_t k;
      bool pending = false;
      if (!t.Empty()) {
        k = t.buf[t.head].key;
      } else if (t.pause == Pause::Shared || t.pause == Pause::WarpSync) {
        k = t.pend_key;
        pending = true;
      } else if (t.pause == Pause::None) {
        return;  // this lane's next step is unknown until it runs
      } else {
        continue;  // done, or at a block barrier
      }
      any = true;
      if (k < key) { key = k; pending_min = pending; }
      else if (k == key) pending_min |= pending;
    }
    if (!any) return;
    if (pending_min && (key = BeforeSync(first, last, key)) == ~0ull) return;
    WarpInstruction ins;
    ins.mask = 0;
    const LaneEvent* lead = nullptr;
    for (uint32_t i = first; i < last; ++i) {
      ThreadCtx& t = threads[i];
      if (t.Empty() || t.buf[t.head].key != key) continue;
      const LaneEvent& e = t.buf[t.head++];
      if (!lead) lead = &e;
      ins.mask |= 1u << t.lane;
      ins.addr[t.lane] = e.addr;
      if (e.op() == Op::Atomic) ins.op = Op::Atomic;
    }
    ins.warp = warp;
    Emit(ins, *lead);
  }
}

void EngineImpl::Emit(WarpInstruction& ins, const LaneEvent& e) {
  const char* file = e.loc.file_name();
  const uint32_t line = e.loc.line(), column = e.loc.column();
  // Line and column both pick the slot ((line * 64 + column) % 64 would be the column alone, and
  // two accesses at one column of neighbouring lines, as in `x = d[..]; y = d[..];`, would take
  // turns evicting each other).
  static_assert(kSiteCache == 64, "the slot is the top 6 bits of a 32-bit hash");
  auto& slot = site_cache[uint32_t(line * 0x9E3779B1u + column * 0x85EBCA77u) >> 26];
  if (slot.file != file || slot.line != line || slot.column != column)
    slot = {file, line, column, InternSite(file, line, column)};
  ins.site = slot.site;
  ins.array = e.array();
  if (ins.op != Op::Atomic) ins.op = e.op();
  ins.space = e.space();
  ins.is_volatile = e.is_volatile();
  ins.add = e.add();
  ins.width = e.width();
  ins.block = block_linear;
  ins.epoch = KeyEpoch(e.key);
  SectorList distinct;  // the sectors, when coalescing finds them, for the cache model
  Analyze(ins, hierarchy ? &distinct : nullptr);
  per_site[ins.site].Add(ins);
  int64_t traced = -1;
  if (trace_block && (opt.selection.kind != Selection::Kind::Warp || opt.selection.warp == ins.warp)) {
    if (trace.instructions.size() < opt.max_trace_instructions) {
      traced = int64_t(trace.instructions.size());
      trace.instructions.push_back(ins);
    } else {
      trace.truncated = true;
    }
  }
  if (hierarchy && ins.space == Space::Global) hierarchy->Record(ins, traced, distinct.s, distinct.n);
}

const char* ToString(WarpOp op) {
  switch (op) {
    case WarpOp::ShflIdx: return "__shfl_sync";
    case WarpOp::ShflUp: return "__shfl_up_sync";
    case WarpOp::ShflDown: return "__shfl_down_sync";
    case WarpOp::ShflXor: return "__shfl_xor_sync";
    case WarpOp::VoteAll: return "__all_sync";
    case WarpOp::VoteAny: return "__any_sync";
    case WarpOp::Ballot: return "__ballot_sync";
    case WarpOp::SyncWarp: return "__syncwarp";
    case WarpOp::ActiveMask: return "__activemask";
  }
  return "?";
}

namespace {
// "0-15, 20, 22-23": the lanes of a mask, runs joined.
std::string LaneList(uint32_t mask) {
  std::string out;
  for (int l = 0; l < 32;) {
    if (!(mask >> l & 1)) { ++l; continue; }
    int end = l;
    while (end + 1 < 32 && (mask >> (end + 1) & 1)) ++end;
    if (!out.empty()) out += ", ";
    out += std::to_string(l);
    if (end > l) out += "-" + std::to_string(end);
    l = end + 1;
  }
  return out;
}
}  // namespace

namespace {
bool SameCall(const ThreadCtx& a, const ThreadCtx& b) {
  return a.pend_loc.line() == b.pend_loc.line() && a.pend_loc.column() == b.pend_loc.column() &&
         a.pend_loc.file_name() == b.pend_loc.file_name() && a.xchg_op == b.xchg_op;
}
}  // namespace

// The key to issue instead of the earliest, `key`, where that is a warp operation whose mask
// names lanes still waiting at an access or another call (a path the others skipped): a *_sync
// call waits for the lanes it names, so theirs goes first.
uint64_t EngineImpl::Issuable(uint32_t first, uint32_t last, uint64_t key) {
  const uint64_t earliest = key;
  for (int guard = 0; guard < kWarpSize; ++guard) {
    const ThreadCtx* lead = nullptr;
    for (uint32_t i = first; i < last && !lead; ++i) {
      const ThreadCtx& t = threads[i];
      if (t.Empty() && t.pause == Pause::WarpSync && t.pend_key == key) lead = &t;
    }
    if (!lead || lead->xchg_mask == 0) return key;
    uint64_t other = ~0ull;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      if (!(lead->xchg_mask >> t.lane & 1) || !t.Empty() || t.pend_key == key) continue;
      if (t.pause == Pause::Shared || (t.pause == Pause::WarpSync && !SameCall(t, *lead)))
        other = std::min(other, t.pend_key);
    }
    if (other == ~0ull) return key;
    key = other;
  }
  return earliest;
}

// Merge's counterpart of Issuable: where the earliest key is a warp operation whose mask names
// lanes that still have events buffered, the earliest of those events (~0 if none).
uint64_t EngineImpl::BeforeSync(uint32_t first, uint32_t last, uint64_t key) const {
  const ThreadCtx* lead = nullptr;
  for (uint32_t i = first; i < last && !lead; ++i) {
    const ThreadCtx& t = threads[i];
    if (t.Empty() && t.pause == Pause::WarpSync && t.pend_key == key) lead = &t;
  }
  uint64_t events = ~0ull;
  if (!lead) return events;
  for (uint32_t i = first; i < last; ++i) {
    const ThreadCtx& t = threads[i];
    if ((lead->xchg_mask >> t.lane & 1) && !t.Empty()) events = std::min(events, t.buf[t.head].key);
  }
  return events;
}

// Lanes waiting at the same warp operation (the same call in the source) that its mask names
// meet there even where their keys differ: a lane that made an access the others skipped since
// the last barrier (`c ? shared[lane] : 0.0f` before a shuffle in a helper defined above)
// counts loop epochs differently, yet the GPU matches *_sync calls by instruction. They leave
// it with one epoch and ordinal, as a warp reconverges at a barrier. __activemask (mask 0)
// takes only the lanes that arrive together.
void EngineImpl::Meet(uint32_t first, uint32_t last, uint64_t key) {
  auto at_sync = [](const ThreadCtx& t) { return t.Empty() && t.pause == Pause::WarpSync; };
  const ThreadCtx* lead = nullptr;
  for (uint32_t i = first; i < last && !lead; ++i)
    if (at_sync(threads[i]) && threads[i].pend_key == key) lead = &threads[i];
  if (!lead || lead->xchg_mask == 0) return;
  uint32_t epoch = 0, ord = 0;
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (!at_sync(t)) continue;
    if (t.pend_key != key) {
      if (!SameCall(t, *lead) || !(lead->xchg_mask >> t.lane & 1)) continue;
      t.pend_key = key;
    }
    epoch = std::max(epoch, t.epoch);
    ord = std::max(ord, t.ord);
  }
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (at_sync(t) && t.pend_key == key) {
      t.epoch = epoch;
      t.ord = ord;
    }
  }
}

// Performs a shuffle, vote or __syncwarp for the lanes waiting at `key`.
void EngineImpl::Exchange(uint32_t first, uint32_t last, uint64_t key) {
  uint32_t present = 0;
  for (uint32_t i = first; i < last; ++i) {
    const ThreadCtx& t = threads[i];
    if (t.pause == Pause::WarpSync && t.Empty() && t.pend_key == key) present |= 1u << t.lane;
  }
  // CUDA's rule for *_sync operations: every lane that executes one is named in its mask, and
  // every lane the mask names executes it (with the same mask).
  uint32_t unnamed = 0, named = 0;
  const ThreadCtx* lead = nullptr;
  const ThreadCtx* first_unnamed = nullptr;
  for (uint32_t i = first; i < last; ++i) {
    const ThreadCtx& t = threads[i];
    if (!(present >> t.lane & 1)) continue;
    if (!lead) lead = &t;
    named |= t.xchg_mask;
    if (!(t.xchg_mask >> t.lane & 1)) {
      unnamed |= 1u << t.lane;
      if (!first_unnamed) first_unnamed = &t;
    }
  }
  if (lead && lead->xchg_op == WarpOp::ActiveMask) {
    for (uint32_t i = first; i < last; ++i)
      if (present >> threads[i].lane & 1) threads[i].xchg_out = present;
    return;
  }
  // The lanes that take part synchronise with one another (see "races"): each learns what the
  // others know, then counts one more warp operation of its own.
  uint16_t joined[kWarpSize] = {};
  for (uint32_t i = first; i < last; ++i) {
    if (!(present >> threads[i].lane & 1)) continue;
    const uint16_t* c = Clock(threads[i]);
    for (int k = 0; k < kWarpSize; ++k) joined[k] = std::max(joined[k], c[k]);
  }
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (!(present >> t.lane & 1)) continue;
    std::memcpy(t.clock, joined, sizeof joined);
    t.clock[t.lane] = uint16_t(std::min<int>(joined[t.lane] + 1, kClockMax));
    t.sync_line = t.pend_loc.line();
    t.sync_mask = t.xchg_mask;
    t.sync_op = t.xchg_op;
  }
  const uint32_t absent = named & ~present;
  if (lead && (unnamed || absent)) {
    const int site = int(InternSite(lead->pend_loc));
    if (!Seen(FindingKind::ShuffleMask, site)) {
      const ThreadCtx& who = first_unnamed ? *first_unnamed : *lead;
      char mask[16];
      std::snprintf(mask, sizeof mask, "0x%08x", who.xchg_mask);
      const std::string op = ToString(who.xchg_op);
      const std::string warp = " of warp " + std::to_string(who.warp);
      std::string msg =
          unnamed ? "lane(s) " + LaneList(unnamed) + warp + " execute " + op +
                        " without being named in its mask " + mask +
                        "; CUDA requires every lane that calls it to be in the mask (the result "
                        "is undefined)"
                  : op + " with mask " + mask + " names lane(s) " + LaneList(absent) + warp +
                        ", which do not reach it (lanes here: " + LaneList(present) +
                        "); CUDA requires every lane in the mask to execute it (it may hang or "
                        "give an undefined result)";
      AddFinding(FindingKind::ShuffleMask, who, site, msg, -1, 0, 0);
    }
  }
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (!(present >> t.lane & 1)) continue;
    const uint32_t voters = present & t.xchg_mask;
    const int w = t.xchg_width;
    const int seg = int(t.lane) & ~(w - 1), pos = int(t.lane) & (w - 1);
    int src = int(t.lane);
    switch (t.xchg_op) {
      case WarpOp::ShflIdx: src = seg + (t.xchg_arg & (w - 1)); break;
      case WarpOp::ShflUp: src = pos >= t.xchg_arg ? int(t.lane) - t.xchg_arg : int(t.lane); break;
      case WarpOp::ShflDown: src = pos + t.xchg_arg < w ? int(t.lane) + t.xchg_arg : int(t.lane); break;
      case WarpOp::ShflXor: {
        const int x = int(t.lane) ^ t.xchg_arg;
        src = (x & ~(w - 1)) == seg ? x : int(t.lane);
        break;
      }
      case WarpOp::VoteAll: {
        bool all = true;
        for (uint32_t j = first; j < last; ++j)
          if (voters >> threads[j].lane & 1) all &= threads[j].xchg_in != 0;
        t.xchg_out = all;
        continue;
      }
      case WarpOp::VoteAny: {
        bool any = false;
        for (uint32_t j = first; j < last; ++j)
          if (voters >> threads[j].lane & 1) any |= threads[j].xchg_in != 0;
        t.xchg_out = any;
        continue;
      }
      case WarpOp::Ballot: {
        uint32_t b = 0;
        for (uint32_t j = first; j < last; ++j)
          if ((voters >> threads[j].lane & 1) && threads[j].xchg_in) b |= 1u << threads[j].lane;
        t.xchg_out = b;
        continue;
      }
      case WarpOp::SyncWarp: case WarpOp::ActiveMask: continue;
    }
    if (!(present >> src & 1)) {
      const int site = int(InternSite(t.pend_loc));
      if (!Seen(FindingKind::ShuffleMask, site))
        AddFinding(FindingKind::ShuffleMask, t, site,
                   "the thread reads lane " + std::to_string(src) +
                       ", which is not taking part: the value is undefined",
                   -1, 0, 0);
      t.xchg_out = t.xchg_in;
    } else {
      t.xchg_out = threads[first + src].xchg_in;
    }
  }
}

// ---- hooks -----------------------------------------------------------------------------
void ChunkCheck(ThreadCtx& t) {
  t.engine->Yield(t);  // resumed only once the warp has consumed the buffer
  t.size = t.head = 0;
}

void ReportOutOfBounds(ThreadCtx& t, std::source_location loc, int array, int64_t index) {
  EngineImpl& e = *t.engine;
  e.Step(t, 1);  // a skipped access is still a step: a loop of them must end too
  t.last_loc = loc;
  EngineSection section(t);
  const int site = int(e.InternSite(loc.file_name(), loc.line(), loc.column()));
  if (array < 0 || array >= int(e.trace.arrays.size())) {
    // A Global<T> made by its default constructor (or from a null pointer) names no array.
    if (e.Seen(FindingKind::NullPointer, site)) return;
    e.AddFinding(FindingKind::NullPointer, t, site,
                 "the thread accesses element " + std::to_string(index) +
                     " through a null pointer (a Global that points to no array); a GPU faults; the access "
                     "was skipped",
                 -1, 0, index, false);
    return;
  }
  if (e.Seen(FindingKind::OutOfBounds, site)) return;
  const ArrayInfo& a = e.trace.arrays[array];
  const uint64_t addr = a.base + uint64_t(index) * a.elem_bytes;
  e.AddFinding(FindingKind::OutOfBounds, t, site,
               "the thread accesses " + a.name + "[" + std::to_string(index) + "], outside its " +
                   std::to_string(a.count) + " elements; the access was skipped",
               array, addr, index, true);
}

void ReportMisaligned(ThreadCtx& t, std::source_location loc, int array, uint64_t addr,
                      uint32_t width) {
  EngineImpl& e = *t.engine;
  e.Step(t, 1);
  t.last_loc = loc;
  EngineSection section(t);
  const int site = int(e.InternSite(loc.file_name(), loc.line(), loc.column()));
  if (e.Seen(FindingKind::Misaligned, site)) return;
  std::string name = array >= 0 ? e.trace.arrays[array].name : "?";
  e.AddFinding(FindingKind::Misaligned, t, site,
               "the thread makes a " + std::to_string(width) + "-byte access to " + name +
                   " at an address that is not a multiple of " + std::to_string(width) +
                   ": a GPU faults (misaligned address); the access was skipped",
               array, addr, 0, true);
}

void MarkAtomicUsed(ThreadCtx& t) {
  // The key keeps its RED code, so lanes that use the result and lanes that do not still group.
  if (t.head < t.size && t.buf[t.size - 1].op() == Op::Reduction) t.buf[t.size - 1].SetOp(Op::Atomic);
}

uint64_t Generation(ThreadCtx& t) { return t.engine->generation; }

// The variable a subscript belongs to: `column` is the closing ']' of its last subscript.
std::string SharedNameAt(const std::string& text, uint32_t line_no, uint32_t column) {
  size_t pos = 0;
  for (uint32_t l = 1; l < line_no; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  const std::string line = text.substr(pos, text.find('\n', pos) - pos);
  int c = int(column) - 1;
  while (c >= 0 && c < int(line.size()) && line[c] == ']') {
    for (int depth = 0; c >= 0; --c) {
      if (line[c] == ']') ++depth;
      else if (line[c] == '[' && --depth == 0) break;
    }
    --c;
    while (c >= 0 && line[c] == ' ') --c;
  }
  const int end = c + 1;
  while (c >= 0 && (std::isalnum(static_cast<unsigned char>(line[c])) || line[c] == '_')) --c;
  return end > c + 1 ? line.substr(c + 1, end - c - 1) : std::string();
}

namespace {
// Gives a shared array its place (`dynamic`: at the extern arrays' common address) and a name.
void Register(ThreadCtx& t, SharedSlot& slot, std::source_location loc, uint32_t elem_bytes,
              uint64_t count, const char* type, bool dynamic) {
  EngineImpl& e = *t.engine;
  EngineSection section(t);
  uint64_t base = (e.shared_bytes + 15) & ~15ull;
  if (!dynamic) {
    e.shared_bytes = base + elem_bytes * count;
  } else if (e.dynamic_base == ~0ull) {
    e.dynamic_base = base;
    e.shared_bytes = base + e.dynamic_bytes;
  } else {
    base = e.dynamic_base;
  }
  ArrayInfo a;
  a.id = int(e.trace.arrays.size());
  a.type = type;
  a.elem_bytes = elem_bytes;
  a.count = count;
  a.cols = count;
  a.space = Space::Shared;
  a.base = base;
  // Name it after the variable in the source: the column is the closing ']' of the subscript.
  a.name = "shared" + std::to_string(a.id);
  if (e.opt.source_text) {
    std::string name = SharedNameAt(e.opt.source_text(loc.file_name()), loc.line(), loc.column());
    if (!name.empty()) a.name = name;
  }
  e.trace.arrays.push_back(a);
  slot.generation = e.generation;
  slot.array = a.id;
  slot.base = base;
  const uint64_t static_bytes = e.shared_bytes - (e.dynamic_base == ~0ull ? 0 : e.dynamic_bytes);
  if (static_bytes > kSharedLimit && !e.abort) {
    e.abort = true;
    e.AddFinding(FindingKind::LaunchLimit, t, int(e.InternSite(loc.file_name(), loc.line(), loc.column())),
                 "the kernel's shared arrays need " + std::to_string(static_bytes) +
                     " bytes, over the 48 KiB of static shared memory a block may have; the "
                     "launch stops after this block",
                 a.id, 0, 0, false, FindingScope::Block);
  }
}

}  // namespace

void RegisterShared(ThreadCtx& t, SharedSlot& slot, std::source_location loc,
                    uint32_t elem_bytes, uint64_t count, const char* type) {
  Register(t, slot, loc, elem_bytes, count, type, false);
}
void RegisterDynamicShared(ThreadCtx& t, SharedSlot& slot, std::source_location loc,
                           uint32_t elem_bytes, const char* type) {
  Register(t, slot, loc, elem_bytes, t.engine->dynamic_bytes / elem_bytes, type, true);
}
DynamicSharedArea DynamicShared(ThreadCtx& t) {
  EngineImpl& e = *t.engine;
  return {e.dynamic_data.empty() ? nullptr : e.dynamic_data.front().b, e.dynamic_shadow.data(),
          e.dynamic_bytes};
}

namespace {
// A read of `index` that nothing orders after `writer`'s write (see "races"): the finding.
void ReportRace(ThreadCtx& t, const SharedSlot& slot, std::source_location loc, uint64_t index,
                uint64_t addr, uint32_t writer, bool volatile_write, bool volatile_read) {
  EngineImpl& e = *t.engine;
  EngineSection section(t);
  const bool same_warp = writer / kWarpSize == t.warp;
  const FindingKind kind = same_warp ? FindingKind::WarpSyncRace : FindingKind::SharedRace;
  const int site = int(e.InternSite(loc));
  if (e.Seen(kind, site)) return;
  const auto& a = e.trace.arrays[slot.array];
  const uint32_t writer_lane = writer % kWarpSize;
  std::string msg = "the thread reads " + a.name + "[" + std::to_string(index) +
                    "], written by thread " + std::to_string(writer) + " of the block";
  // The last warp operation this thread passed since the last barrier, if any (Clock forgets
  // one from before the barrier).
  e.Clock(t);
  const bool synced = t.sync_line != 0;
  std::string last_op;
  if (synced) {
    char mask[16];
    std::snprintf(mask, sizeof mask, "0x%08x", t.sync_mask);
    last_op = std::string(ToString(t.sync_op)) + "(" + mask + ") at line " +
              std::to_string(t.sync_line);
  }
  if (!same_warp) {
    msg += ", with no __syncthreads() in between. They are in different warps: the value read "
           "depends on timing";
    if (synced)
      msg += " (the " + last_op + " orders only lanes of one warp; __syncthreads() orders the "
             "whole block)";
  } else if (synced && !(t.sync_mask >> writer_lane & 1)) {
    msg += " (lane " + std::to_string(writer_lane) + " of the same warp). The " + last_op +
           " leaves lane " + std::to_string(writer_lane) +
           " out of its mask, so it does not order that lane's write before this read: name "
           "both lanes in the mask";
  } else if (synced) {
    msg += " (lane " + std::to_string(writer_lane) + " of the same warp). The " + last_op +
           " that this thread passed does not order the write before the read: it came before "
           "the write, or lane " + std::to_string(writer_lane) +
           " did not take part in it; it must come between the write and the read";
  } else {
    msg += " (lane " + std::to_string(writer_lane) +
           " of the same warp) with nothing in between that orders the write before the read "
           "(no __syncwarp, shuffle, vote or __syncthreads). The simulator, like a converged "
           "warp, runs the warp in lockstep, so the value is right here; but CUDA does not "
           "promise lockstep since Volta, and ";
    if (!volatile_write && !volatile_read)
      msg += "without volatile the compiler may keep the values in registers (the classic "
             "unrolled last-warp reduction without volatile gives wrong results on an H100)";
    else
      msg += std::string("the ") + (volatile_write ? "read" : "write") +
             " is not volatile, so the compiler may keep the value in a register";
    msg += ": add __syncwarp() between the write and the read";
  }
  e.AddFinding(kind, t, site, msg, slot.array, addr, int64_t(index), true);
}
}  // namespace

bool SharedAccess(ThreadCtx& t, const SharedSlot& slot, std::source_location loc,
                  uint64_t index, uint64_t count, uint32_t elem_bytes, uint32_t piece_bytes,
                  uint32_t pieces, Op op, uint64_t* shadow, bool is_volatile, AtomicAdd add) {
  EngineImpl& e = *t.engine;
  if (index >= count) {
    ReportOutOfBounds(t, loc, slot.array, int64_t(index));
    return false;
  }
  const uint64_t addr = slot.base + index * elem_bytes;
  for (uint32_t p = 0; p < pieces; ++p) {
    // Wait for the warp: lanes at the same shared access issue it together. The lane is
    // resumed only with an empty buffer, so the event has room.
    t.pend_key = NextKey(t, loc, OpCode(op, Space::Shared));
    t.pend_loc = loc;
    t.pause = Pause::Shared;
    e.Yield(t);
    t.size = t.head = 0;
    LaneEvent& ev = t.buf[t.size++];
    ev.key = t.pend_key;
    ev.addr = addr + p * piece_bytes;
    ev.loc = loc;
    ev.meta = LaneEvent::Meta(slot.array, piece_bytes, op, Space::Shared, is_volatile, add);
  }
  // Race and initialisation checks, one shadow word per element (see "races").
  const uint64_t serial = SerialTag(e.block_serial);
  const uint64_t stamp = serial << 40 | uint64_t(e.barrier_epoch & 0x3fff) << 26;
  uint64_t& sh = shadow[index];
  if (op == Op::Load || op == Op::Atomic) {
    if ((sh >> 40) != serial) [[unlikely]] {
      // No thread of this block wrote the word: on a GPU it holds whatever was there before.
      EngineSection section(t);
      const int site = int(e.InternSite(loc));
      if (!e.Seen(FindingKind::UninitializedShared, site)) {
        const auto& a = e.trace.arrays[slot.array];
        e.AddFinding(FindingKind::UninitializedShared, t, site,
                     std::string(op == Op::Atomic ? "the thread updates " : "the thread reads ") + a.name + "[" +
                         std::to_string(index) + "] before any thread of its block wrote it: shared memory starts "
                         "undefined in every block (compute-sanitizer's initcheck reports this too)",
                     slot.array, addr, int64_t(index), true);
      }
      if (op == Op::Load) return true;
    } else if (op == Op::Load && (sh & kShadowStampMask) == stamp && (sh & 0xfff) != 0 &&
               (sh & 0xfff) - 1 != t.linear) {
      const uint32_t writer = uint32_t(sh & 0xfff) - 1;
      const bool same_warp = writer / kWarpSize == t.warp;
      const bool volatile_write = (sh >> 25) & 1;
      if (same_warp) {
        const uint16_t write_clock = uint16_t((sh >> 12) & kClockMax);
        if (e.Clock(t)[writer % kWarpSize] >= write_clock) return true;  // a warp operation
        if (volatile_write && is_volatile) return true;                 // the volatile idiom
      }
      ReportRace(t, slot, loc, index, addr, writer, volatile_write, is_volatile);
    }
  }
  if (op != Op::Load) {
    sh = stamp | uint64_t(is_volatile) << 25 | uint64_t(e.Clock(t)[t.lane]) << 12 |
         (t.linear + 1);
  }
  return true;
}

void SyncThreads(ThreadCtx& t, std::source_location loc) {
  ++t.steps;
  t.pend_key = NextKey(t, loc, kSyncCode);
  t.pend_loc = loc;
  t.pause = Pause::Barrier;
  t.engine->Yield(t);
  t.line = 0;  // after the barrier, grouping restarts in a fresh epoch
  t.ord = 0;
}

namespace {
uint64_t WarpSync(ThreadCtx& t, uint32_t mask, uint64_t value, WarpOp op, int arg, int width,
                  std::source_location loc) {
  ++t.steps;
  t.pend_key = NextKey(t, loc, kSyncCode);
  t.pend_loc = loc;
  t.xchg_in = value;
  t.xchg_mask = mask;
  t.xchg_op = op;
  t.xchg_arg = arg;
  t.xchg_width = (width > 0 && width <= 32 && (width & (width - 1)) == 0) ? width : 32;
  t.pause = Pause::WarpSync;
  t.engine->Yield(t);
  return t.xchg_out;
}
}  // namespace

void SyncWarp(ThreadCtx& t, uint32_t mask, std::source_location loc) {
  WarpSync(t, mask, 0, WarpOp::SyncWarp, 0, 32, loc);
}
uint64_t Shuffle(ThreadCtx& t, uint32_t mask, uint64_t value, WarpOp op, int arg, int width,
                 std::source_location loc) {
  return WarpSync(t, mask, value, op, arg, width, loc);
}
uint32_t Vote(ThreadCtx& t, uint32_t mask, bool pred, WarpOp op, std::source_location loc) {
  return uint32_t(WarpSync(t, mask, pred, op, 0, 32, loc));
}

}  // namespace detail

// ---- Engine -----------------------------------------------------------------------------
void InstallFaultHandlers() { detail::InstallHandlers(); }

Engine::Engine(LaunchOptions options) : impl_(std::make_unique<detail::EngineImpl>(std::move(options))) {}
Engine::~Engine() = default;

int Engine::BindGlobal(std::string name, std::string type, uint32_t elem_bytes, uint64_t count,
                       uint64_t rows, uint64_t cols) {
  auto& e = *impl_;
  ArrayInfo a;
  a.id = int(e.trace.arrays.size());
  a.name = std::move(name);
  a.type = std::move(type);
  a.elem_bytes = elem_bytes;
  a.count = count;
  a.rows = rows ? rows : 1;
  a.cols = cols ? cols : count;
  a.space = Space::Global;
  a.base = e.next_global_base;
  e.next_global_base += (uint64_t(elem_bytes) * count + 511) & ~511ull;  // cudaMalloc aligns to 256+
  e.trace.arrays.push_back(a);
  return a.id;
}

const ArrayInfo& Engine::Array(int id) const { return impl_->trace.arrays.at(id); }

bool Engine::Run(const LaunchShape& s, std::function<void()> body) {
  auto& e = *impl_;
  auto t0 = std::chrono::steady_clock::now();
  e.trace.shape = s;
  detail::ThreadCtx probe;
  char shape[160];
  std::snprintf(shape, sizeof shape, "the launch of grid (%u,%u,%u) x block (%u,%u,%u)", s.grid.x,
                s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z);
  auto refuse = [&](const std::string& why) {
    e.AddFinding(FindingKind::LaunchLimit, probe, -1, std::string(shape) + " was refused: " + why,
                 -1, 0, 0, false, FindingScope::Launch);
    return false;
  };
  if (s.block.Count() == 0 || s.grid.Count() == 0) return refuse("its grid or block is empty");
  if (s.block.Count() > 1024)
    return refuse("a block of " + std::to_string(s.block.Count()) +
                  " threads is over the 1024 a block may have");
  if (s.block.x > 1024 || s.block.y > 1024 || s.block.z > 64)
    return refuse("block dimensions are over 1024 x 1024 x 64");
  if (s.grid.y > 65535 || s.grid.z > 65535 || s.grid.x > 0x7fffffffu)
    return refuse("grid dimensions are over 2^31-1 x 65535 x 65535");
  if (s.Threads() > e.opt.max_threads)
    return refuse(std::to_string(s.Threads()) + " threads are over the simulator's limit of " +
                  std::to_string(e.opt.max_threads) +
                  " per launch (--max-threads; the simulator runs a few million threads a second). A GPU "
                  "would run it; simulate a smaller size or raise the limit");
  if (s.dynamic_shared_bytes > detail::kSharedLimitOptIn)
    return refuse(std::to_string(s.dynamic_shared_bytes) +
                  " bytes of dynamic shared memory are over the 227 KiB a block may have on an H100");
  if (e.opt.before_launch) e.opt.before_launch(s);
  e.dynamic_bytes = s.dynamic_shared_bytes;
  e.dynamic_data.assign((e.dynamic_bytes + 15) / 16, detail::EngineImpl::Bytes16{});
  e.dynamic_shadow.assign(e.dynamic_bytes, 0);
  e.body = std::move(body);
  if (auto* c = e.opt.control) {
    c->blocks_done.store(0);
    c->blocks_total.store(s.grid.Count());
  }
  detail::InstallHandlers();
  if (e.opt.caches) {
    const auto& sel = e.opt.selection;
    const bool one_block = sel.kind == Selection::Kind::Block || sel.kind == Selection::Kind::Warp;
    e.hierarchy = std::make_unique<MemoryHierarchy>(
        e.opt.device ? *e.opt.device : DeviceProfiles().front(), e.opt.registers_per_thread, s,
        &e.per_site, &e.trace, one_block ? int64_t(sel.block) : -1);
    if (e.opt.control) e.hierarchy->StopWhen(&e.opt.control->cancel);
  }
  {
    detail::Watchdog watchdog(e.opt.watchdog_seconds, e.opt.control);
    try {
      for (uint32_t bz = 0; bz < s.grid.z && !e.abort; ++bz)
        for (uint32_t by = 0; by < s.grid.y && !e.abort; ++by)
          for (uint32_t bx = 0; bx < s.grid.x && !e.abort; ++bx) {
            e.RunBlock(s, bx, by, bz);
            if (auto* c = e.opt.control) c->blocks_done.fetch_add(1, std::memory_order_relaxed);
          }
    } catch (...) {
      detail::t_fault.armed = 0;
      throw;
    }
  }
  if (e.hierarchy) {
    e.hierarchy->Finish(e.shared_bytes);
    e.hierarchy.reset();
  }
  // Fold the per-site counters into the totals and the per-line view.
  for (size_t i = 0; i < e.per_site.size(); ++i) {
    if (e.per_site[i].mem_inst == 0) continue;  // a barrier's or a finding's site
    e.trace.total += e.per_site[i];
    e.trace.per_line[e.trace.sites[i].line] += e.per_site[i];
  }
  e.per_site.assign(e.per_site.size(), Counters{});
  e.trace.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return !e.abort;
}

const Trace& Engine::trace() const { return impl_->trace; }
Trace Engine::TakeTrace() { return std::move(impl_->trace); }

}  // namespace ws::sim
