// ptxas' figures used where a GPU would use them: a kernel whose local memory, registers or static
// shared memory a GPU refuses is an error finding at its line, also when only the simulator runs,
// and ptxas' registers per thread decide the cache model's residency (app/compiled_lines.h).
// Real nvcc and nvdisasm; skipped, saying so, where either is missing.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "toolchain/build.h"
#include "toolchain/compiled.h"
#include "tests/cli_run.h"
#include "tests/cuda_tools.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using ws::test::HaveNvccAndNvdisasm;
#define SKIP_WITHOUT_TOOLS() \
  if (!HaveNvccAndNvdisasm()) GTEST_SKIP() << "no nvcc or no nvdisasm: ptxas' limits need both (tools/install-deps.sh)"

std::string WriteFile(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("ws-compiled-limits-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

json Json(const std::string& args) {
  const auto r = ws::test::Cli(args, false);
  EXPECT_NE(r.out.find('{'), std::string::npos) << r.out;
  return json::parse(r.out.substr(r.out.find('{')));
}

// 150 Ki floats: a 600 KiB stack frame, which the simulator's 1 MiB fiber stacks hold and a GPU
// does not launch (512 KiB of local memory per thread at most).
TEST(CompiledLimits, ALocalArrayOver512KiBIsAnErrorAtItsKernelsLineThoughTheSimulatorRunsIt) {
  SKIP_WITHOUT_TOOLS();
  const std::string file = WriteFile("local.cu", R"(__global__ void local600(Global<float> y) {
  float a[150 * 1024];
  for (int j = 0; j < 150 * 1024; j += 1024) a[j] = float(j + threadIdx.x);
  y[threadIdx.x] = a[(threadIdx.x * 1024) % (150 * 1024)];
}
WS_KERNEL(local600, .title = "l", .teaching_n = 32, .timing_n = 32) {
  auto y = k.Output<float>("y", 32);
  k.Launch(dim3(1), dim3(32), local600, y);
}
)");
  const auto r = ws::test::Cli("stats " + file + ":local600 --no-caches", false);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("error [launch-limit] line 1: local600 uses 600 KiB of local memory per thread; a GPU "
                       "launches at most 512 KiB"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("[stack-overflow]"), std::string::npos) << r.out;  // the simulator itself ran it
}

// 96 values kept in registers per thread; a block of 512 threads is 16 warps, each allocated
// its registers per thread x 32 rounded up to 256.
TEST(CompiledLimits, ABlockOverTheRegistersABlockMayHaveIsRefusedWithPtxassFigure) {
  SKIP_WITHOUT_TOOLS();
  const std::string text = R"(__global__ void heavy(Global<const float> x, Global<float> y) {
  float a[96];
#pragma unroll
  for (int k = 0; k < 96; ++k) a[k] = x[threadIdx.x + k * 1024];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 96; ++k) s += a[k] * a[95 - k] / (a[(k * 7) % 96] + 1.0f);
#pragma unroll
  for (int k = 0; k < 96; ++k) y[threadIdx.x + k * 1024] = s * a[k];
}
WS_KERNEL(heavy, .title = "h", .teaching_n = 512, .timing_n = 512) {
  auto x = k.Input<const float>("x", 96 * 1024);
  auto y = k.Output<float>("y", 96 * 1024);
  k.Launch(dim3(1), dim3(k.n), heavy, x, y);
}
)";
  const std::string file = WriteFile("heavy.cu", text);
  const json sass = Json("sass " + file + " --arch sm_90 --json");
  const int regs = sass["kernels"][0]["usage"]["registers"];
  const int per_warp = (regs * 32 + 255) / 256 * 256;
  ASSERT_GT(per_warp * 16, 65536) << regs << " registers: the kernel no longer needs enough for the test";
  const auto r = ws::test::Cli("stats " + file + ":heavy --arch sm_90", false);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("a block of 512 threads at " + std::to_string(regs) + " registers per thread needs " +
                       std::to_string(per_warp * 16) + " registers, over the 65536 a block may have"),
            std::string::npos)
      << r.out;
  // 128 threads (4 warps) fit; the cache model places blocks with ptxas' figure.
  const json ok = Json("stats " + file + ":heavy --n 128 --arch sm_90 --json");
  EXPECT_EQ(ok["caches"]["registers_per_thread"], regs);
  // The H100's 65536 registers per SM hold 65536 / (4 x per_warp) such blocks.
  EXPECT_EQ(ok["caches"]["blocks_per_sm"], 65536 / (4 * per_warp));
  EXPECT_EQ(ok["caches"]["residency_limited_by"], "registers");
}

// A file whose other kernel ptxas refuses cannot be built for a GPU at all: the simulated
// kernel's stats say so, at the refused kernel's line.
TEST(CompiledLimits, PtxassRefusalOfAFileIsAnErrorAtTheRefusedKernelsLine) {
  SKIP_WITHOUT_TOOLS();
  const std::string file = WriteFile("refused.cu", R"(__global__ void fine(Global<float> y) { y[threadIdx.x] = 1; }

__global__ void bigshared(Global<float> y) {
  __shared__ Shared<float[20000]> s;
  s[threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x];
}
WS_KERNEL(fine, .title = "f", .teaching_n = 32, .timing_n = 32) {
  auto y = k.Output<float>("y", 32);
  k.Launch(dim3(1), dim3(32), fine, y);
}
WS_KERNEL(bigshared, .title = "s", .teaching_n = 32, .timing_n = 32) {
  auto y = k.Output<float>("y", 32);
  k.Launch(dim3(1), dim3(32), bigshared, y);
}
)");
  const auto r = ws::test::Cli("stats " + file + ":fine --no-caches", false);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("error [launch-limit] line 3: nvcc refuses the kernel"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("uses too much shared data"), std::string::npos) << r.out;
}

// The catalog's residency comes from this build's ptxas, as a file's does.
TEST(CompiledLimits, ACatalogVariantsRegistersAreItsSassListings) {
#ifndef WARPSCOPE_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA: no GPU code of the catalog";
#endif
  SKIP_WITHOUT_TOOLS();
  const json sass = Json("sass transpose/naive --arch sm_90 --json");
  const json stats = Json("stats transpose/naive --n 64 --arch sm_90 --json");
  EXPECT_EQ(stats["caches"]["registers_per_thread"], sass["kernels"][0]["usage"]["registers"]);
}

}  // namespace
