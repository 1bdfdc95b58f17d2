// Building a kernel file for its listing (toolchain/compiled.h): nvcc -cubin -lineinfo with
// ptxas -v, then the disassembler, each output kept in the cache under its content key.
#include "toolchain/compiled.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "toolchain/build.h"
#include "toolchain/cache.h"
#include "toolchain/process.h"

namespace ws::toolchain {

namespace fs = std::filesystem;

std::string CudaToolsDir() {
  if (const char* d = std::getenv("WARPSCOPE_CUDA_TOOLS"); d && *d) return d;
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.local/share/warpscope/cuda-tools";
}

std::string FindCudaTool(const std::string& name) {
  std::string var = "WARPSCOPE_";
  for (char c : name) var += char(std::toupper(static_cast<unsigned char>(c)));
  if (const char* v = std::getenv(var.c_str()); v && *v) return v;
  std::error_code ec;
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    for (size_t a = 0; a <= p.size();) {
      size_t b = p.find(':', a);
      if (b == std::string::npos) b = p.size();
      const fs::path f = fs::path(p.substr(a, b - a)) / name;
      if (b > a && fs::is_regular_file(f, ec)) return f.string();
      a = b + 1;
    }
  }
  if (fs::is_regular_file("/usr/local/cuda/bin/" + name, ec)) return "/usr/local/cuda/bin/" + name;
  // pip's wheels put it under nvidia/cu12/bin, nvidia/cu13/bin, ...: the newest first
  std::string best;
  for (const auto& e : fs::directory_iterator(fs::path(CudaToolsDir()) / "nvidia", ec)) {
    const fs::path f = e.path() / "bin" / name;
    if (fs::is_regular_file(f, ec) && f.string() > best) best = f.string();
  }
  return best;
}

namespace {

// "sm_90" from "sm_90", "sm_90a", "90" or "9.0"; empty when it is none of these.
std::string NormalArch(const std::string& s) {
  std::string digits, suffix;
  size_t i = s.rfind("sm_", 0) == 0 ? 3 : 0;
  for (; i < s.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(s[i]))) digits += s[i];
    else if (s[i] == '.' && s.rfind("sm_", 0) != 0) continue;
    else break;
  }
  if (i < s.size() && (s.substr(i) == "a" || s.substr(i) == "f")) suffix = s.substr(i), ++i;
  if (i != s.size() || digits.size() < 2 || digits.size() > 3) return "";
  return "sm_" + digits + suffix;
}

// Runs argv for its text (stdout and stderr together); its exit status, -1 when it cannot start.
int RunForText(const std::vector<std::string>& argv, std::string* text) {
  const fs::path log = TempFor(BuildPath("tool-output"));
  int rc = -1;
  try {
    rc = RunProgram(argv, log);
    *text = ReadText(log);
  } catch (const ProgramNotStarted&) {
    rc = -1;
  }
  std::error_code ec;
  fs::remove(log, ec);
  return rc;
}

// A tool's listing of `input`, kept in the cache beside it.
std::string CachedListing(const std::vector<std::string>& argv, const fs::path& input, bool* reused) {
  std::string args;
  for (const auto& a : argv) args += a + '\n';
  const fs::path dest = input.string() + "-" + ContentKey({args}) + ".txt";
  std::error_code ec;
  if (fs::exists(dest, ec)) {
    *reused = true;
    return ReadText(dest);
  }
  *reused = false;
  std::vector<std::string> run = argv;
  run.push_back(input.string());
  std::string text;
  const int rc = RunForText(run, &text);
  if (rc != 0)
    throw kernels::BadRequest("'" + argv[0] + "' failed (exit " + std::to_string(rc) + ") on " + input.string() +
                              ": " + text.substr(0, 400));
  PutText(dest, text);
  return text;
}

}  // namespace

std::string TargetArch(const std::string& flag, const std::string& recorded) {
  if (!flag.empty()) {
    const std::string a = NormalArch(flag);
    if (a.empty()) throw kernels::BadRequest("--arch '" + flag + "' is not an architecture; e.g. sm_90, 90 or 9.0");
    return a;
  }
  std::string text;
  if (RunForText({"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"}, &text) == 0) {
    const std::string first = text.substr(0, text.find('\n'));
    if (std::string a = NormalArch(first); !a.empty()) return a;
  }
  return recorded;
}

CompiledFile CompileForListing(const std::string& file, const std::string& given, const std::string& text,
                               const std::string& arch) {
  CompiledFile out;
  out.module.arch = arch;
  CompileJob job = GpuJob(file, given, text);
  job.flags.insert(job.flags.end(), {"-arch=" + arch, "-cubin", "-lineinfo", "-Xptxas", "-v"});
  job.suffix = ".cubin";
  job.failure = "does not compile for " + arch;
  const CompileResult cubin = Compile(job);
  const sim::PtxasReport ptxas = sim::ParsePtxasOutput(cubin.log);
  out.module.messages = ptxas.messages;
  bool listing_reused = false;
  if (const std::string nvdisasm = FindCudaTool("nvdisasm"); !nvdisasm.empty()) {
    out.module.kind = sim::ListingKind::Sass;
    out.module.tool = "nvdisasm";
    out.module.kernels = sim::ParseNvdisasm(CachedListing({nvdisasm, "-c", "-gi"}, cubin.output, &listing_reused));
  } else if (const std::string cuobjdump = FindCudaTool("cuobjdump"); !cuobjdump.empty()) {
    out.module.kind = sim::ListingKind::SassNoLines;
    out.module.tool = "cuobjdump";
    out.module.kernels = sim::ParseCuobjdump(CachedListing({cuobjdump, "-sass"}, cubin.output, &listing_reused));
    out.note = "cuobjdump's SASS has no source lines; nvdisasm has them (tools/install-deps.sh installs it)";
  } else {
    CompileJob ptx = GpuJob(file, given, text);
    ptx.flags.insert(ptx.flags.end(), {"-arch=" + arch, "-ptx", "-lineinfo"});
    ptx.suffix = ".ptx";
    ptx.failure = job.failure;
    const CompileResult r = Compile(ptx);
    listing_reused = r.reused;
    out.module.kind = sim::ListingKind::Ptx;
    out.module.tool = "nvcc -ptx";
    out.module.kernels = sim::ParsePtx(ReadText(r.output));
    out.note = "no disassembler (nvdisasm or cuobjdump): PTX shown, which ptxas still rewrites; "
               "tools/install-deps.sh installs NVIDIA's";
  }
  for (auto& k : out.module.kernels) {
    for (const auto& [name, usage] : ptxas.usage)
      if (name == k.name) k.usage = usage;
    // ptxas accepts a larger stack frame; the launch is refused (CUDA C++ Programming Guide,
    // "Technical Specifications per Compute Capability": local memory per thread, 512 KB).
    constexpr int64_t kMaxLocalPerThread = 512 * 1024;
    if (k.is_entry && k.usage.stack_bytes > kMaxLocalPerThread)
      out.module.messages.push_back(
          {"error", k.name,
           sim::ShortName(k.demangled) + " uses " + std::to_string(k.usage.stack_bytes / 1024) +
               " KiB of local memory per thread; a GPU launches at most " +
               std::to_string(kMaxLocalPerThread / 1024) + " KiB"});
  }
  out.reused = cubin.reused && listing_reused;
  return out;
}

}  // namespace ws::toolchain
