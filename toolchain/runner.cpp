// Starting a kernel-file runner and reading what it says (toolchain/runner.h). Sections: the
// program and its limits · starting it · watching it · why it stopped.
#include "toolchain/runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

#include "kernels/family.h"
#include "toolchain/source_lines.h"
#include "toolchain/wire.h"

extern char** environ;

namespace ws::toolchain {

namespace {

using Clock = std::chrono::steady_clock;

// ---- the program and its limits ----

std::mutex g_program_mutex;
std::string g_program;

// A descriptor kept open: closed when it goes.
struct Fd {
  int fd = -1;
  explicit Fd(int f = -1) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// Moves a descriptor to 10 or above (close-on-exec), so that placing the runner's 0..4 never
// overwrites one still to be placed.
int High(int fd) {
  if (fd < 0) return fd;
  const int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  close(fd);
  return h;
}

// ---- why it stopped ----

enum class Killed { No, HostTime, Cancel, ReplyTooLong };

std::string Tail(int fd) {
  const off_t size = lseek(fd, 0, SEEK_END);
  if (size <= 0) return "";
  const off_t from = size > 4096 ? size - 4096 : 0;
  std::string s(size_t(size - from), '\0');
  const ssize_t got = pread(fd, s.data(), s.size(), from);
  s.resize(got > 0 ? size_t(got) : 0);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  const auto nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

std::string WhyStopped(int status, Killed killed, const RunnerPage& page, const std::string& last_line,
                       const RunnerLimits& limits) {
  char secs[32];
  switch (killed) {
    case Killed::HostTime:
      std::snprintf(secs, sizeof secs, "%.0f", limits.host_seconds);
      return std::string("its host code ran ") + secs +
             " s without launching a kernel (an endless loop? the limit is 4 times --watchdog)";
    case Killed::Cancel: return "it was cancelled";
    case Killed::ReplyTooLong: return "its reply was longer than " + std::to_string(limits.reply_bytes >> 20) + " MiB";
    case Killed::No: break;
  }
  auto has = [&](const char* s) { return last_line.find(s) != std::string::npos; };
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    if (page.exit_called.load()) return "its code called exit(" + std::to_string(code) + ")";
    return "its process ended (exit code " + std::to_string(code) + ") without a reply";
  }
  const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  switch (sig) {
    case SIGABRT:
      if (has("stack smashing")) return "its stack was smashed (a local array written past its end?)";
      if (has("free()") || has("corrupted") || has("double free") || has("malloc"))
        return "its heap was corrupted (" + last_line + ")";
      if (has("warpscope: ")) return last_line.substr(last_line.find("warpscope: ") + 11);
      if (has("Assertion")) return "an assertion failed: " + last_line;
      return "abort() was called";
    case SIGXCPU:
    case SIGKILL: return "it used up its CPU time limit of " + std::to_string(limits.cpu_seconds) + " s";
    case SIGSEGV:
    case SIGBUS: return std::string("it crashed with ") + (sig == SIGBUS ? "SIGBUS" : "SIGSEGV") + " (an invalid pointer)";
    case SIGFPE: return "it crashed with SIGFPE (an arithmetic trap)";
    case SIGILL: return "it crashed with SIGILL (an illegal instruction)";
    default: return "it was ended by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
}

}  // namespace

RunnerLimits RunnerLimits::For(const sim::LaunchOptions& options) {
  RunnerLimits l;
  const double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE)) * 0.75;
  l.memory_bytes = std::max<uint64_t>(uint64_t(2) << 30, memory > 0 ? uint64_t(memory) : 0);
  const double w = options.watchdog_seconds;
  l.host_seconds = std::isfinite(w) && w > 0 ? 4 * w : 20;
  return l;
}

std::string RunnerProgram() {
  if (const char* r = std::getenv("WARPSCOPE_RUNNER"); r && *r) return r;
  std::lock_guard lock(g_program_mutex);
  if (g_program.empty())
    throw kernels::BadRequest("kernel files run in warpscope's runner, and this program is not warpscope: set "
                              "WARPSCOPE_RUNNER to the warpscope binary");
  return g_program;
}

void SetRunnerProgram(const std::string& path) {
  std::lock_guard lock(g_program_mutex);
  g_program = path;
}

RunnerReply RunInRunner(const RunnerRequest& request, const RunnerContext& context, sim::RunControl* control,
                        const RunnerLimits& limits) {
  // ---- starting it ----
  const std::string program = RunnerProgram();
  Fd in(High(memfd_create("warpscope-request", MFD_CLOEXEC)));
  Fd err(High(memfd_create("warpscope-stderr", MFD_CLOEXEC)));
  Fd page_fd(High(memfd_create("warpscope-page", MFD_CLOEXEC)));
  int pipe_fds[2] = {-1, -1};
  if (in.fd < 0 || err.fd < 0 || page_fd.fd < 0 || pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw RunnerStopped(context.where + ": cannot start the runner: " + std::strerror(errno));
  Fd reply_r(High(pipe_fds[0])), reply_w(High(pipe_fds[1]));
  const std::string bytes = EncodeRequest(request);
  if (pwrite(in.fd, bytes.data(), bytes.size(), 0) != ssize_t(bytes.size()) ||
      ftruncate(page_fd.fd, sizeof(RunnerPage)) != 0)
    throw RunnerStopped(context.where + ": cannot start the runner: " + std::strerror(errno));
  void* mapped = mmap(nullptr, sizeof(RunnerPage), PROT_READ | PROT_WRITE, MAP_SHARED, page_fd.fd, 0);
  if (mapped == MAP_FAILED) throw RunnerStopped(context.where + ": cannot start the runner: " + std::strerror(errno));
  RunnerPage* page = new (mapped) RunnerPage();
  struct Unmap {
    void* p;
    ~Unmap() { munmap(p, sizeof(RunnerPage)); }
  } unmap{mapped};

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in.fd, STDIN_FILENO);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, err.fd, STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&fa, reply_w.fd, kReplyFd);
  posix_spawn_file_actions_adddup2(&fa, page_fd.fd, kPageFd);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group: a Ctrl-C in the terminal reaches warpscope, which cancels the run.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  const std::vector<std::string> args{program, kRunnerArgument, std::to_string(limits.memory_bytes),
                                      std::to_string(limits.cpu_seconds), std::to_string(limits.printf_bytes),
                                      std::to_string(limits.file_bytes)};
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // glibc's own fatal messages ("stack smashing detected") to stderr, where they are read.
  std::vector<char*> env{const_cast<char*>("LIBC_FATAL_STDERR_=1")};
  for (char** e = environ; *e; ++e) env.push_back(*e);
  env.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &fa, &attr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw RunnerStopped(context.where + ": cannot start the runner " + program + ": " + std::strerror(rc));
  close(reply_w.fd);
  reply_w.fd = -1;

  // ---- watching it ----
  std::string reply;
  Killed killed = Killed::No;
  const auto start = Clock::now();
  auto phase_since = start;
  uint32_t phase_changes = 0;
  Clock::time_point kill_at = Clock::time_point::max();
  bool cancel_sent = false, eof = false;
  int status = 0;
  auto stop = [&](Killed why, int sig, double grace_seconds) {
    if (killed == Killed::No) killed = why;
    kill(pid, sig);
    kill_at = std::min(kill_at, Clock::now() + std::chrono::milliseconds(int64_t(grace_seconds * 1000)));
  };
  for (;;) {
    if (!eof) {
      pollfd p{reply_r.fd, POLLIN, 0};
      if (poll(&p, 1, 20) > 0) {
        char buf[1 << 16];
        const ssize_t n = read(reply_r.fd, buf, sizeof buf);
        if (n > 0) reply.append(buf, size_t(n));
        else if (n == 0 || errno != EINTR) eof = true;
        if (reply.size() > limits.reply_bytes) {
          stop(Killed::ReplyTooLong, SIGKILL, 0);
          eof = true;
        }
      }
    } else {
      usleep(5000);
    }
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid && eof) break;
    if (done == pid) {  // ended: what it wrote is all in the pipe
      char buf[1 << 16];
      for (ssize_t n; (n = read(reply_r.fd, buf, sizeof buf)) > 0 && reply.size() <= limits.reply_bytes;)
        reply.append(buf, size_t(n));
      break;
    }
    const auto now = Clock::now();
    if (now >= kill_at) {
      kill(pid, SIGKILL);
      kill_at = Clock::time_point::max();
    }
    if (control) {
      control->blocks_done.store(page->control.blocks_done.load());
      control->blocks_total.store(page->control.blocks_total.load());
      if (control->cancel.load() && !cancel_sent) {
        cancel_sent = true;
        page->control.cancel.store(true);
        kill_at = std::min(kill_at, now + std::chrono::seconds(2));
        if (killed == Killed::No) killed = Killed::Cancel;  // unless it answers in time
      }
    }
    if (const uint32_t c = page->phase_changes.load(); c != phase_changes) {
      phase_changes = c;
      phase_since = now;
    }
    if (killed == Killed::No && !page->in_launch.load() &&
        std::chrono::duration<double>(now - phase_since).count() > limits.host_seconds)
      stop(Killed::HostTime, SIGUSR1, 1.0);  // SIGUSR1: it notes where it is, then ends
  }
  // A cancelled runner that answered in time answered: its trace says how far it got.
  if (killed == Killed::Cancel && WIFEXITED(status) && WEXITSTATUS(status) == 0 && !reply.empty()) killed = Killed::No;

  // ---- why it stopped ----
  if (killed == Killed::No && WIFEXITED(status) && WEXITSTATUS(status) == 0 && !reply.empty()) {
    try {
      return DecodeReply(request.op, reply);
    } catch (const wire::BadBytes& e) {
      throw RunnerStopped(context.where + ": " + e.what() + "; warpscope goes on");
    }
  }
  std::string at;
  if (const uint64_t o = page->stop_offset.load()) {
    const auto lines = SourceLinesOf(context.library, {o - 1}, context.user_file);
    if (lines[0].line && lines[0].file == context.user_file) at = " at line " + std::to_string(lines[0].line);
  }
  throw RunnerStopped(context.where + ": " + WhyStopped(status, killed, *page, Tail(err.fd), limits) + at +
                      "; its process stopped, warpscope goes on");
}

}  // namespace ws::toolchain
