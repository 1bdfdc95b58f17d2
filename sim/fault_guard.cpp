// The fault guard (see sim/fault_guard.h): the signal handlers, the per-thread chain of guards,
// the alternate signal stack and the watchdog's timer.
#include "sim/fault_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <type_traits>

namespace ws::sim {

// How a fault becomes a leave: the code a guard runs (the engine: a kernel on its fiber stacks)
// is in this process, so a fault cannot be caught as an exception. Running it in a child process
// would isolate it too, but would have to stream every trace back; instead the guard is left
// from the signal handler, which is certain for the synchronous faults such code causes:
// SIGSEGV/SIGBUS (a stack overflow into a guard region, a wild pointer) and SIGFPE (integer
// division by zero). The handler runs on the thread's signal stack (sigaltstack), so it works
// when the faulting stack is exhausted, and siglongjmps to the point FaultGuard::Run holds on
// the thread's own stack.
struct GuardAccess {
  static constexpr int kTickSignal = SIGVTALRM;
  static inline struct sigaction old_action[NSIG];
  static inline constinit thread_local FaultGuard* innermost = nullptr;
  static inline constinit thread_local Watchdog* watchdog = nullptr;

  static void OnFault(int sig, siginfo_t* info, void*) {
    for (FaultGuard* g = innermost; g; g = g->outer_) {
      if (!g->armed_) continue;
      void* subject = g->claim_ ? g->claim_() : nullptr;
      if (g->claim_ && !subject) continue;
      g->signo_ = sig;
      g->code_ = info->si_code;
      g->addr_ = info->si_addr;
      g->Leave(GuardExit::Fault, subject);
    }
    // No guard's fault: restore what the program had and return, so that the fault repeats.
    sigaction(sig, &old_action[sig], nullptr);
  }

  static void OnTick(int, siginfo_t*, void*) {
    Watchdog* w = watchdog;
    if (!w) return;
    FaultGuard& g = w->guard_;
    const WatchdogProbe p = g.armed_ ? w->probe_() : WatchdogProbe{};
    if (!p.subject) {
      w->seen_ = nullptr;
      return;
    }
    if (p.busy) return;
    if (w->cancel_ && w->cancel_->load(std::memory_order_relaxed)) g.Leave(GuardExit::Cancel, p.subject);
    if (p.subject != w->seen_ || p.progress != w->seen_progress_) {
      w->seen_ = p.subject;
      w->seen_progress_ = p.progress;
      w->stuck_ticks_ = 0;
    } else {
      const uint32_t stuck = w->stuck_ticks_ + 1;
      w->stuck_ticks_ = stuck;
      if (stuck >= w->ticks_needed_) g.Leave(GuardExit::Watchdog, p.subject);
    }
  }
};

void InstallFaultHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = GuardAccess::OnFault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE}) sigaction(sig, &sa, &GuardAccess::old_action[sig]);
    sa.sa_sigaction = GuardAccess::OnTick;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigaction(GuardAccess::kTickSignal, &sa, &GuardAccess::old_action[GuardAccess::kTickSignal]);
  });
  // Every guarded thread needs a signal stack: a stack overflow leaves none to run on.
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

// ---- FaultGuard ----
FaultGuard::FaultGuard(Claim claim) : claim_(claim), outer_(GuardAccess::innermost) {
  InstallFaultHandlers();
  GuardAccess::innermost = this;
}

// A guard left by a leave to one outside it is never destroyed (its frame was skipped); the
// outer guard's leave already made itself the innermost.
FaultGuard::~FaultGuard() { GuardAccess::innermost = outer_; }

void FaultGuard::Leave(GuardExit why, void* subject) {
  exit_ = int(why);
  subject_ = subject;
  GuardAccess::innermost = this;
  siglongjmp(jump_, 1);
}

// ---- Watchdog ----
static_assert(std::is_same_v<timer_t, void*>, "Watchdog keeps a timer_t as void*");

Watchdog::Watchdog(FaultGuard& guard, double seconds, WatchdogProbe (*probe)(),
                   const std::atomic<bool>* cancel)
    : guard_(guard), probe_(probe), cancel_(cancel) {
  const double s = std::isfinite(seconds) && seconds > 0 ? seconds : 1e9;
  ticks_needed_ = uint32_t(std::min(1e9, std::max(1.0, std::ceil(s / kWatchdogTickSeconds))));
  GuardAccess::watchdog = this;
  sigevent ev{};
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = GuardAccess::kTickSignal;
  ev._sigev_un._tid = int(gettid());  // sigev_notify_thread_id, which glibc 2.36 does not name
  timer_t timer{};
  ok_ = timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &timer) == 0;
  if (!ok_) return;
  timer_ = timer;
  itimerspec its{};
  its.it_interval.tv_nsec = its.it_value.tv_nsec = long(kWatchdogTickSeconds * 1e9);
  timer_settime(timer, 0, &its, nullptr);
}

Watchdog::~Watchdog() {
  if (ok_) timer_delete(timer_t(timer_));
  GuardAccess::watchdog = nullptr;
}

}  // namespace ws::sim
