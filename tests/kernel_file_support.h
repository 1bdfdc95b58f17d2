// What the kernel-file tests share: a temporary folder per test, files written and read whole,
// warpscope's command line run with its exit code and output, and a small kernel file (a strided
// copy) with the way to simulate a file's kernel.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kernels/catalog.h"
#include "tests/cli_run.h"

namespace ws::test {

namespace fs = std::filesystem;

// A folder of its own for each test's files; the compiled libraries go to the build tree's cache.
struct TempDir {
  fs::path path;
  TempDir() {
    const auto tick = std::chrono::steady_clock::now().time_since_epoch().count();
    path = fs::temp_directory_path() / ("ws-user-file-" + std::to_string(getpid()) + "-" + std::to_string(tick));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

inline void Write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// y[i] = 3 x[i * STRIDE % n], n = 1000 floats, 128-thread blocks: 8 blocks, 32 warps, the last
// with 8 active lanes (1000 = 31 * 32 + 8), so the launch is not a multiple of the block.
inline std::string CopyKernel(int stride) {
  return "// a strided copy\n"                                                          // 1
         "__global__ void copy3(Global<float> y, Global<const float> x, int n) {\n"     // 2
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                           // 3
         "  if (i < n)\n"                                                               // 4
         "    y[i] = 3.0f * x[(i * " + std::to_string(stride) + ") % n];\n"             // 5
         "}\n"                                                                          // 6
         "WS_KERNEL(copy3, .title = \"strided copy\", .teaching_n = 1000) {\n"          // 7
         "  auto x = k.Input<const float>(\"x\", k.n);\n"
         "  auto y = k.Output<float>(\"y\", k.n);\n"
         "  k.Launch(dim3((k.n + 127) / 128), dim3(128), copy3, y, x, k.n);\n"
         "  std::vector<float> want(k.n);\n"
         "  for (int i = 0; i < k.n; ++i) want[i] = 3.0f * k.Host(x)[(i * " + std::to_string(stride) + ") % k.n];\n"
         "  k.Expect(y, want);\n"
         "}\n";
}

inline kernels::SimOutcome SimulateFile(const std::string& id, int n = 0) {
  const auto v = kernels::FindVariant(id);
  kernels::RunRequest r;
  r.n = n ? n : v.TeachingN();
  r.seed = 7;
  sim::LaunchOptions opt;
  opt.selection.kind = sim::Selection::Kind::None;
  return kernels::Simulate(v, r, opt);
}

}  // namespace ws::test
