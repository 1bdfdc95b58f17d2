// What warpscope and its kernel-file runner say to each other: a request (describe a compiled
// kernel file, or simulate one of its kernels) and the reply, as bytes (toolchain/wire.h), and
// the page of memory both map while the runner works (progress, cancel, where it stopped).
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/family.h"
#include "sim/engine.h"
#include "sim/trace.h"

namespace ws::toolchain {

// One WS_KERNEL of a file, as the runner reads it from the compiled library.
struct KernelDescription {
  std::string name, title, watch, size_meaning, family_title;
  int teaching_n = 0, timing_n = 0, max_n = 0;
  int line = 0;  // of the WS_KERNEL
};

struct RunnerRequest {
  enum class Op : uint8_t { Describe = 1, Simulate = 2 } op = Op::Describe;
  std::string library;  // the compiled kernel file (in the cache)
  std::string file;     // the user's file (its key), as the library's #line names it
  std::string text;     // the file's text as compiled, for the names of shared arrays
  // Simulate only:
  std::string kernel;
  kernels::RunRequest run;
  sim::LaunchOptions options;  // all but control, source_text and before_launch
  std::string device;          // options.device's name, "" for the default
};

struct RunnerReply {
  std::string error;  // not empty: the description failed (a BadRequest's text), or
  bool stopped = false;  // the runner stopped it (out of memory): not a mistake in the request
  std::vector<KernelDescription> kernels;  // Describe
  kernels::SimOutcome outcome;             // Simulate
};

std::string EncodeRequest(const RunnerRequest& r);
RunnerRequest DecodeRequest(const std::string& bytes);  // throws wire::BadBytes
std::string EncodeReply(const RunnerRequest::Op op, const RunnerReply& r);
RunnerReply DecodeReply(const RunnerRequest::Op op, const std::string& bytes);  // throws wire::BadBytes

// The page both processes map (a memfd the runner gets as fd kPageFd). Numbers only: warpscope
// reads them as untrusted hints (progress, where a stopped runner was), never as pointers.
struct RunnerPage {
  sim::RunControl control;                // cancel (set by warpscope) and progress (set by the runner)
  std::atomic<uint32_t> in_launch{0};     // 1 while a kernel launch runs, 0 in the description's host code
  std::atomic<uint32_t> phase_changes{0};
  std::atomic<uint32_t> launches{0};      // launches started
  std::atomic<int32_t> stop_signal{0};    // a deadly signal the runner received (0: none)
  std::atomic<uint32_t> exit_called{0};   // 1: the kernel file's code called exit()
  std::atomic<uint64_t> stop_offset{0};   // where in the library it stopped: offset + 1 (0: unknown)
};
static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free);

// The runner's file descriptors: the request on 0, stderr on 2, the reply on 3, the page on 4.
inline constexpr int kReplyFd = 3;
inline constexpr int kPageFd = 4;
// warpscope's first argument that makes it the runner.
inline constexpr const char* kRunnerArgument = "--kernel-file-runner";

}  // namespace ws::toolchain
