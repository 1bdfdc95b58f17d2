// Kernel files opened at run time: the header cache, the compiler run, reading its messages,
// loading the library and registering its kernels. Sections: cache and headers; compiling;
// loading; the template.
#include "kernels/user_file.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>

#include "kernels/user_kernel.h"

extern char** environ;

namespace ws::kernels {

const std::vector<std::pair<std::string, std::string>>& EmbeddedHeaders();  // generated

namespace fs = std::filesystem;
namespace {

// The same flags for the precompiled header and every file (a .gch is used only when they match).
// -ffp-contract=off: host arithmetic as the GPU does it (as for the catalog's kernels).
const char* const kFlags[] = {"-std=c++20", "-O1", "-fPIC", "-ffp-contract=off", "-fstack-clash-protection",
                              "-DWS_USER_FILE", "-Wall", "-Wno-unused-parameter", "-Wno-unused-variable"};

std::string Hex(uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

// FNV-1a: a stable content hash (std::hash may differ between builds).
uint64_t Fnv(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// nvcc for a kernel file's GPU build: $WARPSCOPE_NVCC, else the one that built warpscope, else
// the toolkit's usual place, else the PATH's.
std::string Nvcc() {
  if (const char* c = std::getenv("WARPSCOPE_NVCC"); c && *c) return c;
  std::error_code ec;
#ifdef WARPSCOPE_NVCC
  if (fs::exists(WARPSCOPE_NVCC, ec)) return WARPSCOPE_NVCC;
#endif
  if (fs::exists("/usr/local/cuda/bin/nvcc", ec)) return "/usr/local/cuda/bin/nvcc";
  return "nvcc";
}

std::string Compiler() {
  if (const char* c = std::getenv("WARPSCOPE_CXX"); c && *c) return c;
#ifdef WARPSCOPE_HOST_CXX
  std::error_code ec;
  if (fs::exists(WARPSCOPE_HOST_CXX, ec)) return WARPSCOPE_HOST_CXX;
#endif
  return "g++";
}

std::string ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw BadRequest("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes via a temporary name and a rename, so that another process never sees half a file.
void WriteAtomically(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw BadRequest("cannot write " + tmp.string());
  }
  fs::rename(tmp, p);
}

// Runs a program with its output (stdout and stderr) going to `log`; returns its exit status.
int RunProgram(const std::vector<std::string>& argv, const fs::path& log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw BadRequest("cannot run the compiler '" + argv[0] + "': " + std::strerror(rc) +
                                " (set WARPSCOPE_CXX to a C++20 compiler)");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// ---- cache and headers ----

// The headers a kernel file needs, written once per warpscope build into the cache, with the
// precompiled form of kernels/user_kernel.h beside them. Returns the include directory.
fs::path HeaderDir() {
  static std::mutex m;
  static fs::path dir;
  std::lock_guard lock(m);
  if (!dir.empty()) return dir;
  uint64_t h = Fnv(Compiler());
  for (const char* f : kFlags) h = Fnv(f, h);
  for (const auto& [name, text] : EmbeddedHeaders()) h = Fnv(text, Fnv(name, h));
  const fs::path d = fs::path(KernelCacheDir()) / ("include-" + Hex(h));
  const fs::path done = d / "complete";
  std::error_code ec;
  if (!fs::exists(done, ec)) {
    fs::create_directories(d, ec);
    if (ec) throw BadRequest("cannot create the cache folder " + d.string() + ": " + ec.message());
    for (const auto& [name, text] : EmbeddedHeaders()) {
      fs::create_directories((d / name).parent_path(), ec);
      WriteAtomically(d / name, text);
    }
    // The precompiled header saves most of a compile (see docs/PERFORMANCE.md); without it the
    // compiler reads the headers themselves, more slowly but with the same result.
    std::vector<std::string> argv{Compiler()};
    argv.insert(argv.end(), std::begin(kFlags), std::end(kFlags));
    const fs::path gch = d / "kernels" / "user_kernel.h.gch";
    const fs::path tmp_gch = gch.string() + ".tmp" + std::to_string(getpid());
    argv.insert(argv.end(), {"-I" + d.string(), "-x", "c++-header", (d / "kernels" / "user_kernel.h").string(),
                             "-o", tmp_gch.string()});
    if (RunProgram(argv, d / ("pch.log" + std::to_string(getpid()))) == 0) fs::rename(tmp_gch, gch, ec);
    else fs::remove(tmp_gch, ec);
    WriteAtomically(done, "");
  }
  dir = d;
  return dir;
}

// ---- compiling ----

// Reads "file:line:col: error: message" lines. A message in another file (a header) is placed at
// the user's line named in its context: the "required from here" before it (a template) or the
// "in expansion of macro" note after it (WS_KERNEL's fields).
std::vector<Diagnostic> ParseDiagnostics(const std::string& given_log, const std::string& file) {
  // nvcc's front end writes "file(12): error: message": read it as the host compiler's form.
  static const std::regex nvcc_re(R"(^(.*?)\((\d+)\): (error|warning)(.*)$)", std::regex::multiline);
  const std::string log = std::regex_replace(given_log, nvcc_re, "$1:$2:1: $3$4");
  static const std::regex line_re(R"(^(.*?):(\d+):(\d+): *(fatal error|error|warning|note|required from here|required from)(:?)(.*)$)");
  std::vector<Diagnostic> out;
  int ctx_line = 0, ctx_col = 0;  // the user's line named since the last message
  size_t pending = SIZE_MAX;      // a message still waiting for a line of the user's file
  std::istringstream in(log);
  std::string l;
  while (std::getline(in, l)) {
    std::smatch m;
    if (!std::regex_match(l, m, line_re)) continue;
    const bool ours = m[1].str() == file;
    const int line = std::stoi(m[2].str()), col = std::stoi(m[3].str());
    const std::string sev = m[4].str();
    if (sev != "error" && sev != "fatal error" && sev != "warning") {
      if (ours && pending != SIZE_MAX) {
        out[pending].line = line;
        out[pending].column = col;
        pending = SIZE_MAX;
      } else if (ours) {
        ctx_line = line;
        ctx_col = col;
      }
      continue;
    }
    Diagnostic d;
    d.severity = sev == "warning" ? "warning" : "error";
    d.line = ours ? line : ctx_line;
    d.column = ours ? col : ctx_col;
    d.message = m[6].str();
    if (!d.message.empty() && d.message.front() == ' ') d.message.erase(0, 1);
    if (!ours) d.message += " (in " + fs::path(m[1].str()).filename().string() + ")";
    pending = d.line == 0 ? out.size() : SIZE_MAX;
    ctx_line = ctx_col = 0;
    out.push_back(std::move(d));
  }
  return out;
}

std::string Summary(const std::string& file, const std::vector<Diagnostic>& diags, const std::string& what) {
  std::string s = what;
  int errors = 0;
  for (const auto& d : diags) {
    if (d.severity != "error") continue;
    if (errors++ < 3)
      s += "\n  " + fs::path(file).filename().string() + ":" + std::to_string(d.line) + ":" +
           std::to_string(d.column) + ": error: " + d.message;
  }
  if (errors > 3) s += "\n  (" + std::to_string(errors - 3) + " more)";
  return s;
}

struct Library {
  void* handle = nullptr;  // never closed: traces and views may still point at its strings
  std::vector<DeclaredKernel> kernels;
};

// ---- loading ----

struct Registry {
  std::mutex m;
  std::deque<FamilyEntry> families;           // stable addresses, kept for the program's life
  std::deque<std::string> sources;            // likewise, the texts as compiled
  std::map<std::string, const FamilyEntry*> by_file;
  std::map<std::string, const std::string*> source_by_file;
  std::map<std::string, std::shared_ptr<Library>> by_hash;  // libraries loaded, by content
};
Registry& Reg() {
  static Registry r;
  return r;
}

// Checks what the file declares; every problem names the line of its WS_KERNEL.
void CheckDescription(const std::string& file, const std::vector<DeclaredKernel>& kernels, const std::string& log) {
  std::vector<Diagnostic> problems;
  auto bad = [&](int line, std::string msg) { problems.push_back({line, 1, "error", std::move(msg)}); };
  if (kernels.empty())
    bad(0, "the file declares no kernel: describe one with WS_KERNEL(name, .title = \"...\") { ... } "
           "(warpscope new writes an example)");
  std::map<std::string, int> seen;
  for (const auto& k : kernels) {
    const std::string name = k.name;
    if (seen.count(name)) bad(k.line, "a second WS_KERNEL named '" + name + "' (the first is at line " +
                                      std::to_string(seen[name]) + ")");
    seen[name] = k.line;
    if (!k.info.title || !*k.info.title) bad(k.line, "WS_KERNEL(" + name + "): .title is missing or empty");
    if (k.info.teaching_n <= 0) bad(k.line, "WS_KERNEL(" + name + "): .teaching_n must be positive");
    if (k.info.max_n < k.info.teaching_n)
      bad(k.line, "WS_KERNEL(" + name + "): .max_n (" + std::to_string(k.info.max_n) +
                      ") is below .teaching_n (" + std::to_string(k.info.teaching_n) + ")");
    if (k.info.timing_n <= 0) bad(k.line, "WS_KERNEL(" + name + "): .timing_n must be positive");
  }
  if (!problems.empty())
    throw KernelFileError(Summary(file, problems, file + ": the description is malformed"), problems, log);
}

// ---- faults in a description ----
// A WS_KERNEL's body is host code of the user's, run in this process: a fault there (a null
// pointer, a division by zero) must not end warpscope. While a body runs, a sigsetjmp point is
// armed on this thread; the handler below first hands the signal to the engine's (which leaves
// the block when the fault is in kernel code), then jumps back to that point, and the
// simulation fails with a message. The body's own objects are abandoned (leaked), not unwound.
struct DescriptionGuard {
  sigjmp_buf jump;
  volatile sig_atomic_t armed;
  volatile int signo;
  void* volatile addr;
};
thread_local DescriptionGuard t_description{};
struct sigaction g_engine_action[NSIG];
struct sigaction g_own_action;

void OnDescriptionFault(int sig, siginfo_t* info, void* ctx) {
  const struct sigaction& engine = g_engine_action[sig];
  if ((engine.sa_flags & SA_SIGINFO) && engine.sa_sigaction) engine.sa_sigaction(sig, info, ctx);
  // The engine's handler returned: not a kernel's fault (it restored the program's first action).
  DescriptionGuard& g = t_description;
  if (g.armed) {
    g.armed = 0;
    g.signo = sig;
    g.addr = info->si_addr;
    sigaction(sig, &g_own_action, nullptr);
    siglongjmp(g.jump, 1);
  }
  signal(sig, SIG_DFL);  // neither: return, the fault repeats and ends the process as it would have
}

void InstallDescriptionGuard() {
  sim::InstallFaultHandlers();  // the engine's first, so that ours chains to them
  static std::once_flag once;
  std::call_once(once, [] {
    g_own_action.sa_sigaction = OnDescriptionFault;
    g_own_action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&g_own_action.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE}) sigaction(sig, &g_own_action, &g_engine_action[sig]);
  });
}

// Runs a kernel's description (and through it the simulation); a fault or an exception in the
// user's host code becomes a BadRequest naming the kernel and its WS_KERNEL line.
Check RunDescription(const DeclaredKernel& k, const std::string& file, sim::Engine& engine,
                     const RunRequest& request) {
  const std::string where = fs::path(file).filename().string() + ":" + std::to_string(k.line) + ": WS_KERNEL(" +
                            k.name + ")";
  InstallDescriptionGuard();
  DescriptionGuard& g = t_description;
  if (sigsetjmp(g.jump, 1) != 0) {
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", g.addr);
    throw BadRequest(where + ": the description's host code " +
                     (g.signo == SIGFPE ? std::string("divided an integer by zero")
                                        : std::string("faulted with ") + (g.signo == SIGBUS ? "SIGBUS" : "SIGSEGV") +
                                              " (an invalid pointer: address " + addr + ")") +
                     "; warpscope stopped it and goes on (a kernel's own faults are findings)");
  }
  g.armed = 1;
  try {
    Check c = k.simulate(engine, request);
    g.armed = 0;
    return c;
  } catch (const BadRequest& e) {
    g.armed = 0;
    throw;
  } catch (const std::bad_alloc&) {
    g.armed = 0;
    throw;
  } catch (const std::exception& e) {
    g.armed = 0;
    throw BadRequest(where + ": the description threw: " + e.what());
  } catch (...) {
    g.armed = 0;
    throw BadRequest(where + ": the description threw something that is not a std::exception");
  }
}

FamilyEntry MakeFamily(const std::string& file, std::shared_ptr<Library> lib) {
  FamilyEntry f;
  f.from_file = true;
  auto& info = f.info;
  info.name = file;
  info.title = fs::path(file).filename().string();
  info.story = "Your own kernel file, compiled at run time (" + file + ").";
  const auto& first = lib->kernels.front().info;
  info.teaching_n = first.teaching_n;
  info.timing_n = first.timing_n;
  info.size_meaning = first.size_meaning ? first.size_meaning : "n";
  for (const auto& k : lib->kernels) {
    info.max_sim_n = std::max(info.max_sim_n, k.info.max_n);
    if (k.info.family_title && *k.info.family_title && info.title == fs::path(file).filename().string())
      info.title = k.info.family_title;
    info.variants.push_back({k.name, k.info.title, k.info.watch ? k.info.watch : "", file, ""});
    info.variants.back().teaching_n = k.info.teaching_n;
    info.variants.back().timing_n = k.info.timing_n;
  }
  f.simulate = [lib, file](sim::Engine& engine, const std::string& variant, const RunRequest& request) -> Check {
    for (const auto& k : lib->kernels) {
      if (variant != k.name) continue;
      if (request.n > k.info.max_n)
        throw BadRequest("size n=" + std::to_string(request.n) + " is over " + variant + "'s .max_n of " +
                         std::to_string(k.info.max_n));
      return RunDescription(k, file, engine, request);
    }
    throw BadRequest("the file has no kernel '" + variant + "'");
  };
  return f;
}

}  // namespace

std::string KernelCacheDir() {
  if (const char* c = std::getenv("WARPSCOPE_CACHE"); c && *c) return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "warpscope").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "warpscope").string();
  return "/tmp/warpscope-" + std::to_string(getuid());
}

bool IsKernelFileRef(const std::string& id) {
  std::string file, kernel;
  SplitKernelFileRef(id, &file, &kernel);
  for (const char* ext : {".cu", ".cuh", ".cpp"}) {
    const std::string e = ext;
    if (file.size() > e.size() && file.compare(file.size() - e.size(), e.size(), e) == 0) return true;
  }
  return false;
}

void SplitKernelFileRef(const std::string& id, std::string* file, std::string* kernel) {
  // The last ':' after the last '/' separates a kernel name (a path may hold ':' elsewhere).
  const auto slash = id.rfind('/');
  const auto colon = id.rfind(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    *file = id.substr(0, colon);
    *kernel = id.substr(colon + 1);
  } else {
    *file = id;
    kernel->clear();
  }
}

std::string KernelFileKey(const std::string& file) {
  std::error_code ec;
  fs::path p = fs::absolute(file, ec);
  if (ec) return file;
  return p.lexically_normal().string();
}

LoadedKernelFile LoadKernelFile(const std::string& given) {
  const std::string file = KernelFileKey(given);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw BadRequest("no kernel file " + given + " (warpscope new " + given + " writes one)");
  const auto t0 = std::chrono::steady_clock::now();
  const std::string text = ReadText(file);
  const fs::path include = HeaderDir();
  // The compiled text starts with a #line, so that messages and the simulator's source
  // locations name the user's file and its own lines.
  std::string quoted;
  for (char c : file) { if (c == '"' || c == '\\') quoted += '\\'; quoted += c; }
  const std::string compiled = "#line 1 \"" + quoted + "\"\n" + text;
  const std::string hash = Hex(Fnv(compiled, Fnv(include.string())));
  LoadedKernelFile out;
  std::shared_ptr<Library> lib;
  {
    std::lock_guard lock(Reg().m);
    if (auto it = Reg().by_hash.find(hash); it != Reg().by_hash.end()) lib = it->second;
  }
  if (!lib) {
    const fs::path build = fs::path(KernelCacheDir()) / "build";
    fs::create_directories(build, ec);
    const fs::path so = build / ("kernel-" + hash + ".so");
    const fs::path log_path = build / ("kernel-" + hash + ".log");
    std::string log;
    if (fs::exists(so, ec)) {
      out.reused = true;
      if (fs::exists(log_path, ec)) log = ReadText(log_path);
    } else {
      const fs::path src = build / ("kernel-" + hash + ".cpp");
      const std::string tag = std::to_string(getpid()) + "-" + Hex(Fnv(std::to_string(
          std::chrono::steady_clock::now().time_since_epoch().count())));
      const fs::path tmp_so = so.string() + ".tmp" + tag, tmp_log = log_path.string() + ".tmp" + tag;
      WriteAtomically(src, compiled);
      std::vector<std::string> argv{Compiler()};
      argv.insert(argv.end(), std::begin(kFlags), std::end(kFlags));
      argv.insert(argv.end(), {"-shared", "-I" + include.string(), "-include", "kernels/user_kernel.h",
                               "-x", "c++", src.string(), "-o", tmp_so.string()});
      const int rc = RunProgram(argv, tmp_log);
      log = ReadText(tmp_log);
      fs::remove(tmp_log, ec);
      if (rc != 0) {
        fs::remove(tmp_so, ec);
        auto diags = ParseDiagnostics(log, file);
        if (std::none_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == "error"; }))
          diags.push_back({0, 0, "error", "the compiler failed (exit " + std::to_string(rc) + "): " + log.substr(0, 400)});
        throw KernelFileError(Summary(file, diags, given + " does not compile"), diags, log);
      }
      WriteAtomically(log_path, log);
      fs::rename(tmp_so, so, ec);
      if (ec) throw BadRequest("cannot store the compiled kernel in " + so.string() + ": " + ec.message());
    }
    for (auto& d : ParseDiagnostics(log, file))
      if (d.severity == "warning") out.warnings.push_back(std::move(d));
    void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) throw KernelFileError(given + ": cannot load the compiled kernel: " + dlerror(), {}, log);
    using Entry = const std::vector<DeclaredKernel>* (*)(int*);
    auto entry = reinterpret_cast<Entry>(dlsym(h, "warpscope_declared_kernels"));
    if (!entry) throw KernelFileError(given + ": the compiled library lists no kernels", {}, log);
    int version = 0;
    const auto* declared = entry(&version);
    if (version != kDeclaredKernelVersion)
      throw KernelFileError(given + ": compiled for another warpscope version", {}, log);
    CheckDescription(file, *declared, log);
    lib = std::make_shared<Library>();
    lib->handle = h;
    lib->kernels = *declared;
    std::lock_guard lock(Reg().m);
    Reg().by_hash[hash] = lib;
  } else {
    out.reused = true;
  }
  std::lock_guard lock(Reg().m);
  auto& reg = Reg();
  reg.families.push_back(MakeFamily(file, lib));
  reg.by_file[file] = &reg.families.back();
  reg.sources.push_back(text);
  reg.source_by_file[file] = &reg.sources.back();
  out.family = &reg.families.back();
  out.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

std::string BuildKernelFileForGpu(const std::string& given) {
  const std::string file = KernelFileKey(given);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw BadRequest("no kernel file " + given);
  const std::string text = ReadText(file);
  const fs::path include = HeaderDir();
  std::string quoted;
  for (char c : file) { if (c == '"' || c == '\\') quoted += '\\'; quoted += c; }
  const std::string compiled = "#include \"kernels/user_gpu_main.h\"\n#line 1 \"" + quoted + "\"\n" + text;
  const std::string hash = Hex(Fnv(compiled, Fnv(Nvcc(), Fnv(include.string()))));
  const fs::path build = fs::path(KernelCacheDir()) / "build";
  fs::create_directories(build, ec);
  const fs::path exe = build / ("kernel-" + hash + "-gpu");
  if (fs::exists(exe, ec)) return exe.string();
  const fs::path src = build / ("kernel-" + hash + "-gpu.cu");
  const std::string tag = std::to_string(getpid());
  const fs::path tmp_exe = exe.string() + ".tmp" + tag, log_path = build / ("kernel-" + hash + "-gpu.log" + tag);
  WriteAtomically(src, compiled);
  // One architecture, the device's own (a GPU build is only made where a device answers).
  const std::vector<std::string> argv{Nvcc(), "-std=c++20", "-O2", "-arch=native", "--expt-relaxed-constexpr",
                                      "-I" + include.string(), "-x", "cu", src.string(), "-o", tmp_exe.string()};
  int rc = 0;
  try {
    rc = RunProgram(argv, log_path);
  } catch (const BadRequest&) {
    throw BadRequest("no nvcc to build " + given + " for the GPU (set WARPSCOPE_NVCC to the CUDA compiler)");
  }
  const std::string log = ReadText(log_path);
  fs::remove(log_path, ec);
  if (rc != 0) {
    fs::remove(tmp_exe, ec);
    auto diags = ParseDiagnostics(log, file);
    if (std::none_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == "error"; }))
      diags.push_back({0, 0, "error", "nvcc failed (exit " + std::to_string(rc) + "): " + log.substr(0, 400)});
    throw KernelFileError(Summary(file, diags, given + " does not compile for the GPU"), diags, log);
  }
  fs::rename(tmp_exe, exe, ec);
  if (ec) throw BadRequest("cannot store the GPU build in " + exe.string() + ": " + ec.message());
  return exe.string();
}

int RunKernelFileProgram(const std::vector<std::string>& argv, const std::string& log) {
  return RunProgram(argv, log);
}

const FamilyEntry* LoadedKernelFamily(const std::string& file) {
  std::lock_guard lock(Reg().m);
  auto it = Reg().by_file.find(KernelFileKey(file));
  return it == Reg().by_file.end() ? nullptr : it->second;
}

const std::string* KernelFileSource(const std::string& path) {
  std::lock_guard lock(Reg().m);
  auto it = Reg().source_by_file.find(path);
  return it == Reg().source_by_file.end() ? nullptr : it->second;
}

VariantRef FindKernelFileVariant(const std::string& id) {
  std::string file, kernel;
  SplitKernelFileRef(id, &file, &kernel);
  const FamilyEntry* f = LoadedKernelFamily(file);
  if (!f) f = LoadKernelFile(file).family;
  if (kernel.empty()) {
    if (f->info.variants.size() == 1) return {f, &f->info.variants.front()};
    std::string names;
    for (const auto& v : f->info.variants) names += (names.empty() ? "" : ", ") + file + ":" + v.name;
    throw BadRequest(file + " has " + std::to_string(f->info.variants.size()) + " kernels: name one (" + names + ")");
  }
  std::string names;
  for (const auto& v : f->info.variants) {
    if (v.name == kernel) return {f, &v};
    names += (names.empty() ? "" : ", ") + v.name;
  }
  throw BadRequest(file + " has no kernel '" + kernel + "'; it has: " + names);
}

// ---- the template ----

void WriteKernelTemplate(const std::string& file) {
  std::error_code ec;
  if (fs::exists(file, ec)) throw BadRequest(file + " exists; warpscope new never overwrites a file (open it with "
                                             "warpscope open " + file + ")");
  const std::string name = [&] {
    std::string s = fs::path(file).stem().string(), out;
    for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "k_" + out;
    return out;
  }();
  std::string t = R"(// NAME.cu — a kernel for warpscope: `warpscope open NAME.cu` shows how its warps touch memory;
// the program recompiles it on every save. The kernel is CUDA with three differences:
//   const float* p              ->  Global<const float> p        (a pointer to global memory)
//   __shared__ float s[32][33]; ->  __shared__ Shared<float[32][33]> s;
//   reinterpret_cast<float4*>   ->  global_cast<float4>(p)
// No #include is needed. A file may hold several kernels, each with its own WS_KERNEL below;
// name one on the command line as NAME.cu:kernel_name.

// Each thread reads one float of x at a stride and writes it, scaled, to y.
// Try stride 1 (coalesced: a warp's 32 floats are 4 sectors) against 2 or 32.
__global__ void NAME(Global<float> y, Global<const float> x, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[(i * stride) % n];
}

// The description: what warpscope allocates, how it launches the kernel, and (optionally) what
// the CPU says the result must be. It runs on the host with `k` in scope; k.n is the size.
// Fields of WS_KERNEL, in this order, all but .title optional:
//   .title, .watch (what to look at), .teaching_n (n for pictures), .timing_n (n on the GPU),
//   .max_n (largest n simulated), .size_meaning, .family_title
WS_KERNEL(NAME, .title = "Scaled copy at a stride",
          .watch = "stride 1: 32 lanes read 4 sectors; stride 2: 8 sectors for the same 128 bytes",
          .teaching_n = 1000, .timing_n = 1 << 24, .max_n = 1 << 24, .size_meaning = "n floats") {
  const int n = k.n;
  const int stride = 2;
  auto x = k.Input<const float>("x", n);   // random floats in [0.25, 4), never zero
  auto y = k.Output<float>("y", n);        // filled with NaN before the launch
  const int block = 256;
  k.Launch(dim3((n + block - 1) / block), dim3(block), NAME, y, x, n, stride);

  // The CPU reference (optional): the run passes when y holds exactly this.
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = 2.0f * k.Host(x)[(i * stride) % n];
  k.Expect(y, want);
}
)";
  for (size_t p; (p = t.find("NAME")) != std::string::npos;) t.replace(p, 4, name);
  // The file's own name in the comments, as given.
  const std::string base = fs::path(file).filename().string();
  for (size_t p = 0; (p = t.find(name + ".cu", p)) != std::string::npos; p += base.size()) t.replace(p, name.size() + 3, base);
  // Created exclusively: a file that appears between the check and here is not overwritten.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) throw BadRequest("cannot create " + file + ": " + std::strerror(errno));
  const ssize_t w = ::write(fd, t.data(), t.size());
  ::close(fd);
  if (w != ssize_t(t.size())) throw BadRequest("cannot write " + file);
}

}  // namespace ws::kernels
