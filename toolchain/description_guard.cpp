// The guard around a description's host code (toolchain/description_guard.h): while a body runs, a
// sigsetjmp point is armed on this thread; the handler below first hands the signal to the
// engine's (which leaves the block when the fault is in kernel code), then jumps back to that point.
#include "toolchain/description_guard.h"

#include <setjmp.h>
#include <signal.h>

#include <mutex>

#include "sim/fault_guard.h"

namespace ws::toolchain {

namespace {

struct Guard {
  sigjmp_buf jump;
  volatile sig_atomic_t armed;
  volatile int signo;
  void* volatile addr;
};
thread_local Guard t_guard{};
struct sigaction g_engine_action[NSIG];
struct sigaction g_own_action;
FaultRecorder g_recorder = nullptr;

void OnHostFault(int sig, siginfo_t* info, void* ctx) {
  if (g_recorder) g_recorder(sig, info, ctx);
  const struct sigaction& engine = g_engine_action[sig];
  if ((engine.sa_flags & SA_SIGINFO) && engine.sa_sigaction) engine.sa_sigaction(sig, info, ctx);
  // The engine's handler returned: not a kernel's fault (it restored the program's first action).
  Guard& g = t_guard;
  if (g.armed) {
    g.armed = 0;
    g.signo = sig;
    g.addr = info->si_addr;
    sigaction(sig, &g_own_action, nullptr);
    siglongjmp(g.jump, 1);
  }
  // Neither: the engine's handler back on top (it restored the program's first action for the
  // repeat); return, and the fault repeats and ends the process as it would have.
  sigaction(sig, &engine, nullptr);
}

// Armed while `body` runs; disarmed when it returns or throws (a fault disarms in the handler).
void CallArmed(const std::function<void()>& body) {
  struct Disarm {
    ~Disarm() { t_guard.armed = 0; }
  } disarm;
  t_guard.armed = 1;
  body();
}

}  // namespace

void InstallDescriptionGuard(FaultRecorder recorder) {
  sim::InstallFaultHandlers();  // the engine's first, so that ours chains to them
  static std::once_flag once;
  std::call_once(once, [recorder] {
    g_recorder = recorder;
    g_own_action.sa_sigaction = OnHostFault;
    g_own_action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&g_own_action.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE}) sigaction(sig, &g_own_action, &g_engine_action[sig]);
  });
}

std::optional<HostFault> RunGuarded(const std::function<void()>& body) {
  InstallDescriptionGuard();
  Guard& g = t_guard;
  if (sigsetjmp(g.jump, 1) != 0) return HostFault{g.signo, g.addr};
  CallArmed(body);
  return std::nullopt;
}

}  // namespace ws::toolchain
