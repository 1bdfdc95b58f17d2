// The guard around a kernel file's description: its body is the user's host code, run in this
// process, and a fault there (a null pointer, an integer division by zero) must not end warpscope.
#pragma once
#include <signal.h>

#include <functional>
#include <optional>

namespace ws::toolchain {

struct HostFault {
  int signo = 0;             // SIGSEGV, SIGBUS or SIGFPE
  void* address = nullptr;   // the faulting address the kernel reported
};

// Sees a fault before anyone else does, and returns (the kernel-file runner's memory guard).
using FaultRecorder = void (*)(int signo, siginfo_t* info, void* context);

// Installs the guard's handlers in front of the engine's, once (RunGuarded does it too); a
// recorder given to the first call sees every SIGSEGV, SIGBUS and SIGFPE first.
void InstallDescriptionGuard(FaultRecorder recorder = nullptr);

// Runs `body` on this thread. A SIGSEGV, SIGBUS or SIGFPE in it that is not a simulated kernel's
// (the engine's handlers see every fault first and keep those) ends the body and is returned; the
// body's own objects are then abandoned (leaked), not unwound. Exceptions pass through.
std::optional<HostFault> RunGuarded(const std::function<void()>& body);

}  // namespace ws::toolchain
