// Building a kernel file for its listing (toolchain/compiled.h): nvcc -cubin -lineinfo with
// ptxas -v, then the disassembler, each output kept in the cache under its content key.
#include "toolchain/compiled.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

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

// An error message for each entry whose figures exceed a limit ptxas does not check: ptxas
// accepts a larger stack frame, the launch is refused (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability": local memory per thread, 512 KB).
void SayLimits(sim::CompiledModule& m) {
  constexpr int64_t kMaxLocalPerThread = 512 * 1024;
  for (const auto& k : m.kernels)
    if (k.is_entry && k.usage.stack_bytes > kMaxLocalPerThread)
      m.messages.push_back({"error", k.name,
                            sim::ShortName(k.demangled) + " uses " + std::to_string(k.usage.stack_bytes / 1024) +
                                " KiB of local memory per thread; a GPU launches at most " +
                                std::to_string(kMaxLocalPerThread / 1024) + " KiB"});
}

}  // namespace

std::string TargetArch(const std::string& flag, const std::string& recorded) {
  if (!flag.empty()) {
    const std::string a = NormalArch(flag);
    if (a.empty()) throw kernels::BadRequest("--arch '" + flag + "' is not an architecture; e.g. sm_90, 90 or 9.0");
    return a;
  }
  // The GPU present does not change while the program runs: nvidia-smi is asked once, not at
  // every listing (the GUI's worker asks at every simulation).
  static const std::string present = [] {
    std::string text;
    if (RunForText({"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"}, &text) != 0) return std::string();
    return NormalArch(text.substr(0, text.find('\n')));
  }();
  return present.empty() ? recorded : present;
}

namespace {
CompiledFile ListCatalog(const std::string& arch) {
  const std::string cuobjdump = FindCudaTool("cuobjdump");
  if (cuobjdump.empty())
    throw kernels::BadRequest("listing the catalog's kernels needs cuobjdump (tools/install-deps.sh installs it)");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const auto size = fs::file_size(exe, ec);
  const auto mtime = fs::last_write_time(exe, ec).time_since_epoch().count();
  const std::string name = "cuda_families." + arch + ".cubin";
  const fs::path cubin = BuildPath("catalog-" + ContentKey({exe.string(), std::to_string(size),
                                                             std::to_string(mtime), name}) + ".cubin");
  CompiledFile out;
  out.module.arch = arch;
  bool cubin_reused = fs::exists(cubin, ec);
  if (!cubin_reused) {
    const fs::path dir = TempFor(cubin);
    fs::create_directories(dir, ec);
    auto quoted = [](const std::string& s) {
      std::string q = "'";
      for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
      return q + "'";
    };
    std::string text;
    RunForText({"/bin/sh", "-c", "cd " + quoted(dir.string()) + " && exec " + quoted(cuobjdump) + " -xelf " +
                                     quoted(name) + " " + quoted(exe.string())},
               &text);
    if (!fs::exists(dir / name, ec)) {
      fs::remove_all(dir, ec);
      std::string have;
      RunForText({cuobjdump, "-lelf", exe.string()}, &have);
      std::string archs;
      for (size_t p = have.find("cuda_families."); p != std::string::npos; p = have.find("cuda_families.", p + 1)) {
        const size_t a = p + 14, e = have.find(".cubin", a);
        if (e != std::string::npos) archs += (archs.empty() ? "" : ", ") + have.substr(a, e - a);
      }
      throw kernels::BadRequest("this warpscope has no GPU code of the catalog for " + arch +
                                (archs.empty() ? " (it was built without CUDA)" : "; it has " + archs));
    }
    Put(dir / name, cubin);
    fs::remove_all(dir, ec);
  }
  bool listing_reused = false;
  if (const std::string nvdisasm = FindCudaTool("nvdisasm"); !nvdisasm.empty()) {
    out.module.kind = sim::ListingKind::Sass;
    out.module.tool = "nvdisasm";
    out.module.kernels = sim::ParseNvdisasm(CachedListing({nvdisasm, "-c", "-gi"}, cubin, &listing_reused));
  } else {
    out.module.kind = sim::ListingKind::SassNoLines;
    out.module.tool = "cuobjdump";
    out.module.kernels = sim::ParseCuobjdump(CachedListing({cuobjdump, "-sass"}, cubin, &listing_reused));
    out.note = "cuobjdump's SASS has no source lines; nvdisasm has them (tools/install-deps.sh installs it)";
  }
  bool usage_reused = false;
  const auto usage = sim::ParseResUsage(CachedListing({cuobjdump, "-res-usage"}, cubin, &usage_reused));
  // cuobjdump's SHARED counts the 1 KiB the driver reserves per block from compute capability 8.0
  // on (transpose/shared_rows' 32 x 33 floats: 4224 B for sm_75, 5248 B for sm_90); ptxas -v's
  // figure, and this one, is the kernel's own.
  const bool reserves = std::atoi(arch.c_str() + 3) >= 80;
  for (auto& k : out.module.kernels)
    for (const auto& [fn, u] : usage)
      if (fn == k.name) {
        k.usage = u;
        if (reserves && k.usage.shared_bytes >= 1024) k.usage.shared_bytes -= 1024;
      }
  SayLimits(out.module);
  out.reused = cubin_reused && listing_reused && usage_reused;
  return out;
}
}  // namespace

// The running executable's code does not change: each architecture is listed (and its listing
// parsed: sim/sass_text.cpp says how long) once a process, where a stats command asked twice (the
// compiler's view and the code's bytes for the cache model).
CompiledFile CatalogListing(const std::string& arch) {
  static std::mutex mutex;
  static std::map<std::string, CompiledFile> listed;
  std::lock_guard lock(mutex);
  if (auto it = listed.find(arch); it != listed.end()) return it->second;
  return listed.emplace(arch, ListCatalog(arch)).first->second;
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
  for (auto& k : out.module.kernels)
    for (const auto& [name, usage] : ptxas.usage)
      if (name == k.name) k.usage = usage;
  SayLimits(out.module);
  out.reused = cubin.reused && listing_reused;
  return out;
}

}  // namespace ws::toolchain
