// The fault guard: a fault (SIGSEGV, SIGBUS, SIGFPE) or a watchdog's verdict on the calling thread
// leaves the innermost armed guard of that thread, by siglongjmp, instead of ending the process.
// Section index: [SECTION] handlers · [SECTION] FaultGuard · [SECTION] Watchdog
#pragma once
#include <setjmp.h>
#include <signal.h>

#include <atomic>
#include <cstdint>

namespace ws::sim {

// Guards nest per thread. The engine guards each block of a launch, claiming only the faults of
// kernel code (a fault in its own scheduler is a bug and must not be hidden); code that runs a
// user's host code around a launch (a kernel file's description) guards it with a guard of its
// own outside, which takes every other fault on that thread:
//
//   sim::FaultGuard guard;                       // claims every fault on this thread
//   if (!guard.Run([&] { RunUsersHostCode(); }))
//     Report(guard.exit(), guard.signo(), guard.address());   // it faulted; the program goes on
//
// What a guard cannot make safe: the code it leaves is not unwound (its objects are abandoned,
// and a lock it held stays held), so a guard belongs around code that owns what it touches.

// ---- [SECTION] handlers ---------------------------------------------------------------------
// Installs, once per process, the handlers for SIGSEGV, SIGBUS, SIGFPE and the watchdog's tick
// (SIGVTALRM, otherwise unused by the program), and gives the calling thread a signal stack (a
// stack overflow leaves none to run on). A fault no armed guard claims restores the action the
// program had before and returns, so that it repeats and ends the process as it would have (or a
// sanitizer reports it), or reaches a handler installed after these that chains to them.
// FaultGuard's constructor calls it.
void InstallFaultHandlers();

// ---- [SECTION] FaultGuard -------------------------------------------------------------------
// Why a guard was left: a fault, or by Leave (the watchdog; the engine's progress budget and cancel).
enum class GuardExit : int { None = 0, Fault, Watchdog, ProgressBudget, Cancel };

class FaultGuard {
 public:
  // Which faults are the guard's: called in the signal handler (so async-signal-safe) while the
  // guard is armed; returns the subject of the fault (for the engine, the simulated thread
  // running), or null to leave the fault to the guard outside this one. No claim: every fault.
  using Claim = void* (*)();
  explicit FaultGuard(Claim claim = nullptr);
  ~FaultGuard();
  FaultGuard(const FaultGuard&) = delete;
  FaultGuard& operator=(const FaultGuard&) = delete;

  // Runs `body` armed: returns true when it returns, false when the guard was left (exit() and
  // the rest say why). An exception from `body` disarms the guard and passes on. Nothing of the
  // caller's may be kept in locals that `body` changes: a leave does not restore them.
  template <class Body>
  bool Run(Body&& body) {
    if (sigsetjmp(jump_, 1) != 0) {
      armed_ = 0;
      return false;
    }
    armed_ = 1;
    try {
      body();
    } catch (...) {
      armed_ = 0;
      throw;
    }
    armed_ = 0;
    return true;
  }

  // Leaves the guard now, from code running inside Run (on this thread): back to Run, which
  // returns false. Guards nested inside this one are left too.
  [[noreturn]] void Leave(GuardExit why, void* subject);

  bool armed() const { return armed_ != 0; }
  // After a leave: why, the subject (the claim's answer, or what Leave was given), and for a
  // fault its signal, si_code (FPE_INTDIV, ...) and address.
  GuardExit exit() const { return GuardExit(exit_); }
  void* subject() const { return subject_; }
  int signo() const { return signo_; }
  int code() const { return code_; }
  void* address() const { return addr_; }

 private:
  friend struct GuardAccess;
  sigjmp_buf jump_;
  volatile sig_atomic_t armed_ = 0;
  volatile int exit_ = 0, signo_ = 0, code_ = 0;
  void* volatile addr_ = nullptr;
  void* volatile subject_ = nullptr;
  Claim claim_;
  FaultGuard* outer_;  // the guard this one is nested in on this thread, or null
};

// ---- [SECTION] Watchdog ---------------------------------------------------------------------
// Code that loops without calling anything never gives a guard a chance to act, so a watchdog
// timer (timer_create on the thread's CPU clock, delivered to that thread) ticks every
// kWatchdogTickSeconds of CPU time while it lives. A tick while its guard is armed asks `probe`
// what runs and how far it has got: it leaves the guard with Cancel when `cancel` is set, and
// with Watchdog when the same subject showed the same progress count for the watchdog's
// seconds. A tick that finds the subject busy (in code that may allocate: leaving there could
// strand a lock) waits for the next one.
inline constexpr double kWatchdogTickSeconds = 0.1;

struct WatchdogProbe {
  void* subject = nullptr;  // null: nothing to watch now
  uint64_t progress = 0;    // a count that grows while the subject makes progress
  bool busy = false;        // do not leave now
};

class Watchdog {
 public:
  // `seconds` not finite or not positive: it never fires (but still serves `cancel`). `cancel`
  // may be null. One watchdog per thread at a time.
  Watchdog(FaultGuard& guard, double seconds, WatchdogProbe (*probe)(),
           const std::atomic<bool>* cancel);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  // The CPU seconds after which it fires, in whole ticks (for messages).
  double seconds() const { return ticks_needed_ * kWatchdogTickSeconds; }

 private:
  friend struct GuardAccess;
  FaultGuard& guard_;
  WatchdogProbe (*probe_)();
  const std::atomic<bool>* cancel_;
  void* volatile seen_ = nullptr;
  volatile uint64_t seen_progress_ = 0;
  volatile uint32_t stuck_ticks_ = 0, ticks_needed_ = 0;
  void* timer_ = nullptr;
  bool ok_ = false;
};

}  // namespace ws::sim
