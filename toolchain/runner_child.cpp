// warpscope as its own kernel-file runner (`warpscope --kernel-file-runner ...`, started by
// toolchain/runner.cpp): one request read from stdin, the compiled kernel file loaded, described
// or simulated, the reply written to fd 3, then the process ends. Whatever the file's code does
// to this process stays here. Sections: limits and stdout · where it stopped · the request.
#include "toolchain/runner_child.h"

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "sim/device_profile.h"
#include "sim/engine.h"
#include "toolchain/description.h"
#include "toolchain/description_guard.h"
#include "toolchain/loader.h"
#include "toolchain/memory_guard.h"
#include "toolchain/runner_protocol.h"

namespace ws::toolchain {

namespace {

RunnerPage* g_page = nullptr;
uintptr_t g_lib_begin = 0, g_lib_end = 0;
volatile sig_atomic_t g_replied = 0;

// ---- limits and stdout ----
// The kernel's printf goes to stdout, which here is a memory file read at every launch boundary.

int g_stdout = -1;
uint64_t g_output_limit = 0, g_output_kept = 0;
std::vector<kernels::PrintedText>* g_printed = nullptr;
bool g_printed_cut = false;

void SetLimit(int resource, uint64_t value) {
  rlimit r{rlim_t(value), rlim_t(value)};
  if (resource == RLIMIT_CPU) r.rlim_max = rlim_t(value + 5);  // SIGXCPU first, then SIGKILL
  setrlimit(resource, &r);
}

// What was printed since the last call, kept as launch `launch`'s (0: the description's).
void TakePrinted(int launch) {
  std::fflush(stdout);
  if (g_stdout < 0 || !g_printed) return;
  const off_t size = lseek(g_stdout, 0, SEEK_END);
  if (size > 0) {
    std::string text(size_t(size), '\0');
    const ssize_t got = pread(g_stdout, text.data(), text.size(), 0);
    text.resize(got > 0 ? size_t(got) : 0);
    if (g_output_kept + text.size() > g_output_limit) {
      text.resize(size_t(g_output_limit - g_output_kept));
      g_printed_cut = true;
    }
    g_output_kept += text.size();
    if (!text.empty()) {
      if (!g_printed->empty() && g_printed->back().launch == launch) g_printed->back().text += text;
      else g_printed->push_back({launch, std::move(text)});
    }
  }
  if (ftruncate(g_stdout, 0) != 0) {}
  lseek(g_stdout, 0, SEEK_SET);
}

// ---- where it stopped ----
// A deadly signal, or exit() called by the file's code, notes in the page where in the library
// it happened (the innermost frame there), for warpscope to name the line.

uint64_t OffsetInLibrary(const void* const* frames, int n, uintptr_t pc) {
  if (pc >= g_lib_begin && pc < g_lib_end) return pc - g_lib_begin + 1;
  for (int i = 0; i < n; ++i) {
    const uintptr_t a = uintptr_t(frames[i]);
    if (a >= g_lib_begin && a < g_lib_end) return a - 1 - g_lib_begin + 1;  // a return address: the call before it
  }
  return 0;
}

void OnStop(int sig, siginfo_t*, void* context) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  uintptr_t pc = 0;
#if defined(__x86_64__)
  pc = uintptr_t(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#endif
  if (g_page) {
    g_page->stop_signal.store(sig);
    if (const uint64_t o = OffsetInLibrary(frames, n, pc)) g_page->stop_offset.store(o);
  }
  signal(sig, SIG_DFL);
  if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL) raise(sig);
  // A fault returns and repeats, now with the default action.
}

void OnExit() {
  if (g_replied || !g_page) return;
  void* frames[64];
  const int n = backtrace(frames, 64);
  g_page->exit_called.store(1);
  if (const uint64_t o = OffsetInLibrary(frames, n, 0)) g_page->stop_offset.store(o);
}

void InstallStopRecorder() {
  void* warm[1];
  backtrace(warm, 1);  // loads the unwinder now, not in a signal handler
  struct sigaction sa {};
  sa.sa_sigaction = OnStop;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU, SIGUSR1}) sigaction(sig, &sa, nullptr);
  std::atexit(OnExit);
}

// ---- the request ----

std::string ReadAll(int fd, size_t limit) {
  std::string s;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    s.append(buf, size_t(n));
    if (s.size() > limit) break;
  }
  return s;
}

void WriteAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += size_t(n);
  }
}

RunnerReply Serve(const RunnerRequest& q) {
  RunnerReply reply;
  InstallMemoryGuard(q.library, q.file);
  InstallDescriptionGuard(RecordMemoryFault);
  const LoadedLibrary lib = LoadLibrary(q.library);
  g_lib_begin = lib.begin;
  g_lib_end = lib.end;
  SetLibraryRange(lib.begin, lib.end);
  if (q.op == RunnerRequest::Op::Describe) {
    reply.kernels = Describe(lib.kernels);
    return reply;
  }
  const kernels::DeclaredKernel* k = nullptr;
  for (const auto& d : lib.kernels)
    if (q.kernel == d.name) k = &d;
  if (!k) throw kernels::BadRequest("the file has no kernel '" + q.kernel + "'");
  sim::LaunchOptions o = q.options;
  o.control = &g_page->control;
  o.source_text = [&q](const std::string& file) { return file == q.file ? q.text : std::string(); };
  if (!q.device.empty()) {
    o.device = sim::FindDeviceProfile(q.device);
    if (!o.device) throw kernels::BadRequest("no device profile '" + q.device + "'");
  }
  auto& out = reply.outcome;
  g_printed = &out.printed;
  sim::Engine engine(std::move(o));
  out.check = RunDescription(*k, q.file, engine, q.run);
  TakePrinted(0);
  out.printed_cut = g_printed_cut;
  out.trace = engine.TakeTrace();
  ExplainMemoryFaults(out.trace);
  return reply;
}

}  // namespace

int RunnerMain(int argc, char** argv) {
  // Ends with warpscope, even when warpscope is killed.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  void* page = mmap(nullptr, sizeof(RunnerPage), PROT_READ | PROT_WRITE, MAP_SHARED, kPageFd, 0);
  if (argc < 6 || page == MAP_FAILED) {
    std::fprintf(stderr, "warpscope: %s is started by warpscope itself, for kernel files\n", kRunnerArgument);
    return 2;
  }
  g_page = static_cast<RunnerPage*>(page);
  // Limits (toolchain/runner.h): memory, CPU seconds, printf bytes kept, bytes per file written.
  SetLimit(RLIMIT_DATA, std::strtoull(argv[2], nullptr, 10));
  SetLimit(RLIMIT_CPU, std::strtoull(argv[3], nullptr, 10));
  g_output_limit = std::strtoull(argv[4], nullptr, 10);
  SetLimit(RLIMIT_FSIZE, std::strtoull(argv[5], nullptr, 10));
  signal(SIGXFSZ, SIG_IGN);  // past the file limit a write fails instead
  g_stdout = memfd_create("warpscope-printf", 0);
  if (g_stdout >= 0) dup2(g_stdout, STDOUT_FILENO);
  InstallStopRecorder();

  const std::string bytes = ReadAll(STDIN_FILENO, size_t(64) << 20);
  RunnerRequest q;
  RunnerReply reply;
  try {
    q = DecodeRequest(bytes);
    reply = Serve(q);
  } catch (const kernels::BadRequest& e) {
    reply = {};
    reply.error = e.what();
  } catch (const std::bad_alloc&) {
    reply = {};
    reply.error = "ran out of memory";
    reply.stopped = true;
  } catch (const std::exception& e) {
    reply = {};
    reply.error = e.what();
  }
  g_replied = 1;
  WriteAll(kReplyFd, EncodeReply(q.op, reply));
  close(kReplyFd);
  _exit(0);  // no destructors of the file's globals: the reply is what counts
}

}  // namespace ws::toolchain

// A launch starts (1) or ends (0) in a kernel file's description (toolchain/public/kernel_file.h):
// what was printed since is kept, and warpscope learns whether the description's host code or a
// kernel is running (it limits the former's time; the engine the latter's).
extern "C" void warpscope_launch_boundary(int starting) {
  using namespace ws::toolchain;
  if (!g_page) return;
  TakePrinted(starting ? 0 : int(g_page->launches.load()));
  if (starting) g_page->launches.fetch_add(1);
  g_page->in_launch.store(starting ? 1 : 0);
  g_page->phase_changes.fetch_add(1);
}
