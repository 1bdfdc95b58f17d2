// Building a kernel file (toolchain/build.h): the compilers, the one compile function, and the
// two builds made with it.
#include "toolchain/build.h"

#include <algorithm>
#include <cstdlib>

#include "toolchain/cache.h"
#include "toolchain/headers.h"
#include "toolchain/process.h"

namespace ws::toolchain {

namespace fs = std::filesystem;

std::string CompilerPath(Compiler compiler) {
  std::error_code ec;
  if (compiler == Compiler::Nvcc) {
    if (const char* c = std::getenv("WARPSCOPE_NVCC"); c && *c) return c;
#ifdef WARPSCOPE_NVCC
    if (fs::exists(WARPSCOPE_NVCC, ec)) return WARPSCOPE_NVCC;
#endif
    if (fs::exists("/usr/local/cuda/bin/nvcc", ec)) return "/usr/local/cuda/bin/nvcc";
    return "nvcc";
  }
  if (const char* c = std::getenv("WARPSCOPE_CXX"); c && *c) return c;
#ifdef WARPSCOPE_HOST_CXX
  if (fs::exists(WARPSCOPE_HOST_CXX, ec)) return WARPSCOPE_HOST_CXX;
#endif
  return "g++";
}

const std::vector<std::string>& HostFlags() {
  // -ffp-contract=off: host arithmetic as the GPU does it (as for the catalog's kernels).
  // For the memory errors the dialect cannot see (toolchain/memory_guard.h): -fsanitize=bounds
  // checks every index into an array of known size, _GLIBCXX_ASSERTIONS the standard
  // containers' operator[], -fstack-protector-strong a local array written past its end through a
  // pointer (found when its function returns); -g1 keeps the line table, to name the line of a fault.
  static const std::vector<std::string> flags{
      "-std=c++20", "-O1", "-fPIC", "-ffp-contract=off", "-fstack-clash-protection", "-fstack-protector-strong",
      "-DWS_USER_FILE", "-g1", "-fsanitize=bounds", "-D_GLIBCXX_ASSERTIONS", "-Wall", "-Wno-unused-parameter", "-Wno-unused-variable"};
  return flags;
}

namespace {

// How the simulator's build is linked: against nothing (its symbols are the runner's, warpscope's
// own, so no sanitizer library comes with the bounds checks), and with the file's own allocation
// calls sent to the runner's memory guard.
std::vector<std::string> SimulatorLinkFlags() {
  std::string wrap = "-Wl";
  for (const char* f : {"malloc", "calloc", "realloc", "free", "aligned_alloc", "memalign", "posix_memalign",
                        "_Znam", "_ZnamRKSt9nothrow_t", "_ZnamSt11align_val_t", "_ZnamSt11align_val_tRKSt9nothrow_t",
                        "_ZdaPv", "_ZdaPvm", "_ZdaPvRKSt9nothrow_t", "_ZdaPvSt11align_val_t", "_ZdaPvmSt11align_val_t",
                        "_ZdaPvSt11align_val_tRKSt9nothrow_t"})
    wrap += std::string(",--wrap=") + f;
  return {"-shared", "-nodefaultlibs", "-lgcc", wrap};
}

}  // namespace

int RunCompiler(Compiler compiler, const std::vector<std::string>& args, const fs::path& log, const std::string& given) {
  std::vector<std::string> argv{CompilerPath(compiler)};
  argv.insert(argv.end(), args.begin(), args.end());
  try {
    return RunProgram(argv, log);
  } catch (const ProgramNotStarted& e) {
    if (compiler == Compiler::Nvcc)
      throw kernels::BadRequest("no nvcc to build " + given + " for the GPU (set WARPSCOPE_NVCC to the CUDA compiler)");
    throw kernels::BadRequest("cannot run the compiler '" + argv[0] + "': " + e.reason +
                              " (set WARPSCOPE_CXX to a C++20 compiler)");
  }
}

CompileResult Compile(const CompileJob& job) {
  const std::string compiler = CompilerPath(job.compiler);
  std::string flags;
  for (const auto& f : job.flags) flags += f + '\n';
  const std::string key = ContentKey({compiler, flags, job.text});
  CompileResult out;
  out.output = BuildPath("kernel-" + key + job.suffix);
  const fs::path log_path = out.output.string() + ".log";
  std::error_code ec;
  if (fs::exists(out.output, ec)) {
    out.reused = true;
    if (fs::exists(log_path, ec)) out.log = ReadText(log_path);
  } else {
    const bool nvcc = job.compiler == Compiler::Nvcc;
    const fs::path src = BuildPath("kernel-" + key + (nvcc ? ".cu" : ".cpp"));
    PutText(src, job.text);
    const fs::path tmp_out = TempFor(out.output), tmp_log = TempFor(log_path);
    std::vector<std::string> args = job.flags;
    args.insert(args.end(), {"-x", nvcc ? "cu" : "c++", src.string(), "-o", tmp_out.string()});
    const int rc = RunCompiler(job.compiler, args, tmp_log, job.given);
    out.log = ReadText(tmp_log);
    if (rc != 0) {
      fs::remove(tmp_log, ec);
      fs::remove(tmp_out, ec);
      auto diags = ParseDiagnostics(out.log, job.file);
      AddDialectHints(diags, job.source);
      if (std::none_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == "error"; }))
        diags.push_back({0, 0, "error", std::string(nvcc ? "nvcc" : "the compiler") + " failed (exit " +
                                            std::to_string(rc) + "): " + out.log.substr(0, 400)});
      throw KernelFileError(Summary(job.file, diags, job.given + " " + job.failure), diags, out.log);
    }
    Put(tmp_log, log_path);  // first: an output in the cache always has its log
    Put(tmp_out, out.output);
  }
  for (auto& d : ParseDiagnostics(out.log, job.file))
    if (d.severity == "warning") out.warnings.push_back(std::move(d));
  return out;
}

std::string AtUsersLines(const std::string& file, const std::string& text) {
  std::string quoted;
  for (char c : file) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return "#line 1 \"" + quoted + "\"\n" + text;
}

CompileResult CompileForSimulator(const std::string& file, const std::string& given, const std::string& text) {
  CompileJob job;
  job.compiler = Compiler::Host;
  job.text = AtUsersLines(file, text);
  job.source = text;
  job.file = file;
  job.given = given;
  job.flags = HostFlags();
  const auto link = SimulatorLinkFlags();
  job.flags.insert(job.flags.end(), link.begin(), link.end());
  job.flags.insert(job.flags.end(), {"-I" + IncludeDir().string(), "-include", kKernelFileHeader});
  job.suffix = ".so";
  job.failure = "does not compile";
  return Compile(job);
}

CompileJob GpuJob(const std::string& file, const std::string& given, const std::string& text) {
  CompileJob job;
  job.compiler = Compiler::Nvcc;
  job.text = "#include \"" + std::string(kGpuMainHeader) + "\"\n" + AtUsersLines(file, text);
  job.source = text;
  job.file = file;
  job.given = given;
  job.flags = {"-std=c++20", "-O2", "--expt-relaxed-constexpr", "-I" + IncludeDir().string()};
  job.failure = "does not compile for the GPU";
  return job;
}

CompileResult CompileForGpu(const std::string& file, const std::string& given, const std::string& text,
                            const std::vector<std::string>& extra_flags) {
  CompileJob job = GpuJob(file, given, text);
  job.flags.push_back("-arch=native");
  job.flags.insert(job.flags.end(), extra_flags.begin(), extra_flags.end());
  job.suffix = "-gpu";
  return Compile(job);
}

}  // namespace ws::toolchain
