// The fault guard's contract (sim/fault_guard.h) as code outside the engine uses it: host code
// that faults under a guard comes back as a leave with its signal and address; the engine's own
// guard, nested inside, still turns a kernel's fault into a finding; a fault an inner guard does
// not claim goes to the outer one; the watchdog leaves a guard whose subject makes no progress.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mman.h>

#include <atomic>
#include <memory>
#include <vector>

#include "sim/dialect.h"
#include "sim/engine.h"
#include "sim/fault_guard.h"

namespace fault_guard_tests {
using namespace ::ws::dialect;
using ::ws::sim::FaultGuard;
using ::ws::sim::GuardExit;
using ::ws::sim::Watchdog;
using ::ws::sim::WatchdogProbe;

// A page nothing may touch: a fault at an address the test knows.
struct ForbiddenPage {
  void* p = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ~ForbiddenPage() { munmap(p, 4096); }
};

[[gnu::noinline]] void Touch(void* p) { *static_cast<volatile int*>(p) = 1; }

[[gnu::noinline]] __attribute__((no_sanitize("integer-divide-by-zero")))  // the trap is tested
int Divide(int a, int b) { return a / b; }

[[gnu::noinline]] void Spin() {
  for (;;) asm volatile("");
}

__global__ void WritesThroughAWildPointer(Global<float> out) {
  out[threadIdx.x] = 1.0f;
  volatile uintptr_t where = 64;  // a raw address no array owns
  *reinterpret_cast<volatile float*>(uintptr_t(where)) = 2.0f;
}

int g_subject = 0;  // what the probes below name as the subject of the watchdog
std::atomic<int> g_ticks{0};
WatchdogProbe NoProgress() {
  g_ticks.fetch_add(1);
  return {&g_subject, 7, false};
}
// Busy for the first five ticks, then no progress.
WatchdogProbe BusyThenNoProgress() {
  const int tick = g_ticks.fetch_add(1) + 1;
  return {&g_subject, 7, tick <= 5};
}
void* ClaimNothing() { return nullptr; }
void* ClaimForTheSubject() { return &g_subject; }

}  // namespace fault_guard_tests

using namespace fault_guard_tests;

TEST(FaultGuard, AFaultInHostCodeLeavesTheGuardWithItsSignalAndAddress) {
  ForbiddenPage page;
  ASSERT_NE(page.p, MAP_FAILED);
  FaultGuard guard;
  EXPECT_FALSE(guard.Run([&] { Touch(page.p); }));
  EXPECT_EQ(guard.exit(), GuardExit::Fault);
  EXPECT_EQ(guard.signo(), SIGSEGV);
  EXPECT_EQ(guard.address(), page.p);
  EXPECT_EQ(guard.subject(), nullptr);  // no claim: no subject
  // The program goes on, and the guard serves again.
  int ran = 0;
  EXPECT_TRUE(guard.Run([&] { ran = 1; }));
  EXPECT_EQ(ran, 1);
}

TEST(FaultGuard, IntegerDivisionByZeroInHostCodeIsAnArithmeticFault) {
  FaultGuard guard;
  volatile int zero = 0, quotient = 0;
  EXPECT_FALSE(guard.Run([&] { quotient = Divide(7, zero); }));
  EXPECT_EQ(guard.exit(), GuardExit::Fault);
  EXPECT_EQ(guard.signo(), SIGFPE);
  EXPECT_EQ(guard.code(), FPE_INTDIV);
}

TEST(FaultGuard, AnExceptionPassesThroughAndDisarms) {
  FaultGuard guard;
  EXPECT_THROW(guard.Run([] { throw std::runtime_error("host code threw"); }), std::runtime_error);
  EXPECT_FALSE(guard.armed());
}

// A kernel file's description runs the simulation inside its own guard: the kernel's fault is
// still the engine's finding (its inner guard claims it), and a fault in the host code after
// the launch is the outer guard's.
TEST(FaultGuard, AKernelsFaultInsideAnOuterGuardIsTheEnginesFinding) {
  ForbiddenPage page;
  FaultGuard outer;
  bool launched = true;
  size_t memory_faults = 0;
  EXPECT_TRUE(outer.Run([&] {
    ws::sim::Engine e;
    std::vector<float> out(32, 0.0f);
    const int id = e.BindGlobal("out", "float", 4, 32, 1, 32);
    Global<float> g(out.data(), id, e.Array(id).base, 32);
    launched = e.Run({{1, 1, 1}, {32, 1, 1}}, [&] { WritesThroughAWildPointer(g); });
    for (const auto& f : e.trace().findings) memory_faults += f.kind == ws::sim::FindingKind::MemoryFault;
  }));
  EXPECT_FALSE(launched);
  EXPECT_EQ(memory_faults, 1u);
  EXPECT_FALSE(outer.Run([&] { Touch(page.p); }));
  EXPECT_EQ(outer.signo(), SIGSEGV);
  EXPECT_EQ(outer.address(), page.p);
}

TEST(FaultGuard, AFaultTheInnerGuardDoesNotClaimIsTheOuterGuards) {
  ForbiddenPage page;
  FaultGuard outer;
  auto inner = std::make_unique<FaultGuard>(ClaimNothing);
  EXPECT_FALSE(outer.Run([&] { inner->Run([&] { Touch(page.p); }); }));
  EXPECT_EQ(outer.exit(), GuardExit::Fault);
  EXPECT_EQ(outer.address(), page.p);
  inner.reset();
  // A guard that claims the fault takes it, and names its subject.
  FaultGuard claiming(ClaimForTheSubject);
  EXPECT_TRUE(outer.Run([&] { EXPECT_FALSE(claiming.Run([&] { Touch(page.p); })); }));
  EXPECT_EQ(claiming.subject(), &g_subject);
}

TEST(FaultGuard, LeaveReturnsToRunWithItsReasonAndSubject) {
  FaultGuard guard;
  EXPECT_FALSE(guard.Run([&] { guard.Leave(GuardExit::ProgressBudget, &g_subject); }));
  EXPECT_EQ(guard.exit(), GuardExit::ProgressBudget);
  EXPECT_EQ(guard.subject(), &g_subject);
}

// Ticks 1, 2, 3, 4: the first sees the subject, the next three find the same progress, and
// the third of those reaches the 3 ticks that 0.3 s make.
TEST(FaultGuard, TheWatchdogLeavesAGuardWhoseSubjectMakesNoProgress) {
  g_ticks = 0;
  FaultGuard guard;
  Watchdog watchdog(guard, 0.3, NoProgress, nullptr);
  EXPECT_NEAR(watchdog.seconds(), 0.3, 1e-9);
  EXPECT_FALSE(guard.Run(Spin));
  EXPECT_EQ(guard.exit(), GuardExit::Watchdog);
  EXPECT_EQ(guard.subject(), &g_subject);
  EXPECT_EQ(g_ticks.load(), 4);
}

// Five busy ticks count for nothing; then as above: 5 + 4 = 9 ticks.
TEST(FaultGuard, TheWatchdogWaitsWhileItsSubjectIsBusy) {
  g_ticks = 0;
  FaultGuard guard;
  Watchdog watchdog(guard, 0.3, BusyThenNoProgress, nullptr);
  EXPECT_FALSE(guard.Run(Spin));
  EXPECT_EQ(guard.exit(), GuardExit::Watchdog);
  EXPECT_EQ(g_ticks.load(), 9);
}

TEST(FaultGuard, ACancelLeavesAtTheWatchdogsNextTick) {
  g_ticks = 0;
  std::atomic<bool> cancel{true};
  FaultGuard guard;
  Watchdog watchdog(guard, 1000.0, NoProgress, &cancel);
  EXPECT_FALSE(guard.Run(Spin));
  EXPECT_EQ(guard.exit(), GuardExit::Cancel);
  EXPECT_EQ(g_ticks.load(), 1);
}
