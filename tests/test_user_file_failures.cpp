// Kernel files that fail once they compile: faults in a description's host code are errors at
// its lines, faults in kernels stay findings, endless loops are stopped, malformed fields and
// over-long names are refused at their kernel's line, and the user's folder is left untouched.
#include <gtest/gtest.h>

#include <string>

#include "kernels/catalog.h"
#include "kernels/user_file.h"
#include "kernels/variant_name.h"
#include "tests/kernel_file_support.h"

namespace fs = std::filesystem;
using namespace ws;
using namespace ws::test;

// ---- failures at run time: contained, at their lines, and the user's folder untouched ----

// Five ways to fail once the file compiles: three in the description's host code, two in kernels.
std::string FailingKernels() {
  return "// five ways to fail at run time\n"                                              // 1
         "__global__ void fill(Global<int> y, int n) {\n"                                  // 2
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                              // 3
         "  if (i < n) y[i] = i;\n"                                                        // 4
         "}\n"                                                                             // 5
         "__global__ void divide(Global<int> y, int n) {\n"                                // 6
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                              // 7
         "  if (i < n) y[i] = 100 / (i - i);\n"                                            // 8
         "}\n"                                                                             // 9
         "__global__ void spin(Global<int> y, int n) {\n"                                  // 10
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                              // 11
         "  while (i < n) y[0] = 1;\n"                                                     // 12
         "}\n"                                                                             // 13
         "WS_KERNEL(host_null, .title = \"null pointer on the host\", .teaching_n = 64) {\n"  // 14
         "  auto y = k.Output<int>(\"y\", k.n);\n"                                         // 15
         "  k.Launch(dim3(1), dim3(64), fill, y, k.n);\n"                                  // 16
         "  volatile int* p = nullptr;\n"                                                  // 17
         "  *p = 1;\n"                                                                     // 18
         "}\n"                                                                             // 19
         "WS_KERNEL(host_div, .title = \"division by zero on the host\", .teaching_n = 64) {\n"  // 20
         "  volatile int zero = 0;\n"                                                      // 21
         "  volatile int q = k.n / zero;\n"                                                // 22
         "  (void)q;\n"                                                                    // 23
         "}\n"                                                                             // 24
         "WS_KERNEL(host_throw, .title = \"exception on the host\", .teaching_n = 64) {\n"  // 25
         "  std::vector<int> v;\n"                                                         // 26
         "  (void)v.at(3);\n"                                                              // 27
         "}\n"                                                                             // 28
         "WS_KERNEL(kernel_div, .title = \"division by zero in a kernel\", .teaching_n = 64) {\n"  // 29
         "  auto y = k.Output<int>(\"y\", k.n);\n"                                         // 30
         "  k.Launch(dim3(1), dim3(64), divide, y, k.n);\n"                                // 31
         "}\n"                                                                             // 32
         "WS_KERNEL(endless, .title = \"endless loop\", .teaching_n = 64) {\n"              // 33
         "  auto y = k.Output<int>(\"y\", k.n);\n"                                         // 34
         "  k.Launch(dim3(1), dim3(64), spin, y, k.n);\n"                                  // 35
         "}\n";
}

std::string SimulationError(const std::string& id) {
  try {
    SimulateFile(id);
  } catch (const kernels::BadRequest& e) {
    return e.what();
  }
  return "(no error)";
}

// Simulates with warp 0 of block 0 recorded (so that findings have their source sites).
kernels::SimOutcome SimulateWarp(const std::string& id, uint64_t progress_budget = uint64_t(1) << 24) {
  const auto v = kernels::FindVariant(id);
  kernels::RunRequest r;
  r.n = v.family->info.teaching_n;
  sim::LaunchOptions opt;
  opt.progress_budget = progress_budget;
  return kernels::Simulate(v, r, opt);
}

bool HasFinding(const kernels::SimOutcome& o, sim::FindingKind kind, uint32_t line) {
  for (const auto& f : o.trace.findings)
    if (f.kind == kind && f.site >= 0 && size_t(f.site) < o.trace.sites.size() && o.trace.sites[f.site].line == line) return true;
  return false;
}

TEST(KernelFileFailures, FaultsInTheDescriptionAreErrorsAtItsLineAndKernelFaultsStayFindings) {
  TempDir dir;
  const fs::path f = dir.path / "fails.cu";
  const std::string text = FailingKernels();
  Write(f, text);
  const std::string file = f.string();
  // Host code of the description: a message naming the file, the WS_KERNEL's line and what
  // happened; the program goes on.
  std::string e = SimulationError(file + ":host_null");
  EXPECT_NE(e.find("fails.cu:14: WS_KERNEL(host_null)"), std::string::npos) << e;
  EXPECT_NE(e.find("SIGSEGV"), std::string::npos) << e;
  e = SimulationError(file + ":host_div");
  EXPECT_NE(e.find("fails.cu:20: WS_KERNEL(host_div)"), std::string::npos) << e;
  EXPECT_NE(e.find("divided an integer by zero"), std::string::npos) << e;
  e = SimulationError(file + ":host_throw");
  EXPECT_NE(e.find("fails.cu:25: WS_KERNEL(host_throw): the description threw"), std::string::npos) << e;
  // After those, a kernel's own faults are still findings (the engine's handlers still come
  // first): the division on line 8 (before the thread's first memory access, so the finding has
  // no line), the endless loop on line 12 (a progress budget of 2^16 accesses per thread ends it).
  bool trap = false;
  for (const auto& finding : SimulateWarp(file + ":kernel_div").trace.findings)
    trap |= finding.kind == sim::FindingKind::ArithmeticTrap;
  EXPECT_TRUE(trap);
  EXPECT_TRUE(HasFinding(SimulateWarp(file + ":endless", uint64_t(1) << 16), sim::FindingKind::NoProgress, 12));
  // And a second fault in a description is caught like the first.
  e = SimulationError(file + ":host_null");
  EXPECT_NE(e.find("SIGSEGV"), std::string::npos) << e;
  // Nothing was written beside the user's file, and the file is as the user wrote it.
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path)) names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"fails.cu"});
  EXPECT_EQ(Read(f), text);
}

// A kernel's name is a variant's name in the toolbar: at most kernels::kMaxVariantName characters,
// the catalog's limit (kernels/discover_catalog.cmake's max_variant_name), which the toolbar shows
// whole. A name of exactly the limit loads; one character more is an error at its WS_KERNEL's line.
TEST(KernelFileFailures, AKernelNameLongerThanTheToolbarShowsIsAnErrorAtItsLine) {
  std::ifstream script(std::string(WARPSCOPE_SOURCE_DIR) + "/kernels/discover_catalog.cmake");
  const std::string cmake((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
  EXPECT_NE(cmake.find("set(max_variant_name " + std::to_string(kernels::kMaxVariantName) + ")"), std::string::npos)
      << "the catalog's limit and kernels::kMaxVariantName differ";
  const std::string at_limit(kernels::kMaxVariantName, 'm'), over = at_limit + "m";
  auto named = [](std::string text, const std::string& name) {
    for (size_t p = 0; (p = text.find("copy3", p)) != std::string::npos;) text.replace(p, 5, name);
    return text;
  };
  TempDir dir;
  const fs::path ok = dir.path / "at_limit.cu";
  Write(ok, named(CopyKernel(1), at_limit));
  EXPECT_NO_THROW(kernels::LoadKernelFile(ok.string()));
  const fs::path f = dir.path / "long_name.cu";
  Write(f, CopyKernel(1) + named(CopyKernel(1), over));  // 14 lines each: the second WS_KERNEL at line 21
  try {
    kernels::LoadKernelFile(f.string());
    FAIL() << "a kernel named with " << over.size() << " characters loaded";
  } catch (const kernels::KernelFileError& e) {
    std::map<int, std::string> at;
    for (const auto& d : e.diagnostics()) at[d.line] += d.message + " | ";
    EXPECT_NE(at[21].find("WS_KERNEL(" + over + "): the name has " + std::to_string(over.size()) +
                               " characters; the toolbar shows at most " + std::to_string(at_limit.size())),
              std::string::npos) << e.what();
    EXPECT_EQ(at.count(7), 0u) << "copy3 is well named";
  }
}

TEST(KernelFileFailures, EveryMalformedFieldIsReportedAtItsKernelsLine) {
  TempDir dir;
  const fs::path f = dir.path / "fields.cu";
  std::string text = CopyKernel(1);                                 // WS_KERNEL at line 7
  std::string second = text.substr(text.find("WS_KERNEL"));         // WS_KERNEL at line 15
  second.replace(second.find("copy3, .title = \"strided copy\""), 30, "copy_a, .title = \"\"");
  std::string third = text.substr(text.find("WS_KERNEL"));          // WS_KERNEL at line 23
  third.replace(third.find("copy3, .title"), 13, "copy_b, .title");
  third.replace(third.find(".teaching_n = 1000"), 18, ".teaching_n = 1000, .max_n = 10");
  Write(f, text + second + third);
  const std::string before = Read(f);
  try {
    kernels::LoadKernelFile(f.string());
    FAIL() << "a malformed description loaded";
  } catch (const kernels::KernelFileError& e) {
    std::map<int, std::string> at;
    for (const auto& d : e.diagnostics()) at[d.line] += d.message + " | ";
    // Line 15: an empty title; line 23: .max_n below .teaching_n. (The same name twice does not
    // get this far: the compiler refuses it at the second WS_KERNEL's line.)
    EXPECT_NE(at[15].find("WS_KERNEL(copy_a): .title is missing or empty"), std::string::npos) << e.what();
    EXPECT_NE(at[23].find(".max_n (10) is below .teaching_n (1000)"), std::string::npos) << e.what();
    EXPECT_EQ(at.count(7), 0u) << "the first kernel is well formed";
  }
  EXPECT_EQ(Read(f), before);
}
