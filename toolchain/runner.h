// Kernel files run in a process of their own: warpscope starts itself as a runner for each
// request (toolchain/runner_child.cpp), with limits on memory, CPU time and output, and reads
// its reply as untrusted bytes. Any death of the runner is an error naming the file, the kernel
// and, where known, the line; warpscope goes on.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/engine.h"
#include "toolchain/runner_protocol.h"

namespace ws::toolchain {

// The runner stopped without a reply (a signal, abort, exit, a limit, an endless loop in the
// description's host code), or its reply did not read: one line saying which, where known at
// which line. Not a BadRequest: the command was right, the file's code went wrong.
struct RunnerStopped : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunnerLimits {
  uint64_t memory_bytes = 0;            // RLIMIT_DATA: 3/4 of the machine's memory, at least 2 GiB
  uint64_t cpu_seconds = 1800;          // RLIMIT_CPU of the whole run
  uint64_t printf_bytes = 1 << 20;      // printf output kept (the rest is cut, and the reply says so)
  uint64_t file_bytes = uint64_t(64) << 20;   // RLIMIT_FSIZE: stderr and stdout files
  uint64_t reply_bytes = uint64_t(1) << 30;   // a longer reply is refused
  // Wall-clock seconds the description's host code may run between launches (an endless loop
  // there ends the run): 4 times the engine's watchdog for a kernel thread.
  double host_seconds = 20;
  static RunnerLimits For(const sim::LaunchOptions& options);
};

// The program that serves as the runner: $WARPSCOPE_RUNNER, else the one SetRunnerProgram named
// (warpscope names itself); throws BadRequest when there is none.
std::string RunnerProgram();
void SetRunnerProgram(const std::string& path);

// Who a request is about, for messages: "my.cu:14: WS_KERNEL(scale)" (or "my.cu" to describe it),
// and the files for lines.
struct RunnerContext {
  std::string where;
  std::string library, user_file;
};

// Starts a runner, sends it the request and returns its reply. `control` (may be null): its
// cancel stops the runner's simulation (a runner that does not stop within 2 s is killed), and
// its progress follows the runner's. Throws RunnerStopped; a reply with an error is returned as is.
RunnerReply RunInRunner(const RunnerRequest& request, const RunnerContext& context, sim::RunControl* control,
                        const RunnerLimits& limits);

}  // namespace ws::toolchain
