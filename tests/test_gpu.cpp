// GPU tests (ctest label "gpu"): every catalog variant run on the device, its output compared
// with the family's CPU reference at two sizes; kernel files built by nvcc and timed. Skipped, with the reason, where no device is.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"
#include "kernels/user_file.h"
#include "kernels/user_file_gpu.h"
#include "toolchain/new_file.h"

namespace ws::kernels {
namespace {

std::vector<std::string> AllVariants() {
  std::vector<std::string> ids;
  for (const auto& f : Catalog())
    for (const auto& v : f.info.variants) ids.push_back(f.info.name + "/" + v.name);
  return ids;
}

BenchReport RunAll(const std::vector<std::string>& ids, int n) {
  GpuRunner r;
  r.Start(ids, n, 1, /*single_launch=*/true);
  GpuRunner::Status s;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    s = r.Poll();
  } while (s.running);
  return s.report;
}

class GpuOutput : public ::testing::TestWithParam<std::string> {};

// Size 1: the family's teaching size. Size 2: teaching size + 37, which is a multiple of no
// block or tile, so edge blocks run with lanes masked off.
TEST_P(GpuOutput, EqualsCpuReferenceAtTwoSizes) {
  std::string why;
  if (!CudaAvailable(&why)) GTEST_SKIP() << why;
  const auto v = FindVariant(GetParam());
  for (int n : {v.family->info.teaching_n, v.family->info.teaching_n + 37}) {
    const auto rep = RunAll({GetParam()}, n);
    ASSERT_EQ(rep.timings.size(), 1u);
    const auto& t = rep.timings[0];
    if (t.error.find("this variant needs") != std::string::npos ||
        t.error.find("must be a multiple") != std::string::npos) {
      std::printf("[ note ] %s does not accept n=%d: %s\n", GetParam().c_str(), n, t.error.c_str());
      continue;
    }
    EXPECT_TRUE(t.check.passed) << GetParam() << " at n=" << n << ": " << t.check.detail << " " << t.error;
    EXPECT_TRUE(t.error.empty()) << t.error;
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, GpuOutput, ::testing::ValuesIn(AllVariants()),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (auto& c : s) if (c == '/') c = '_';
                           return s;
                         });

}  // namespace
}  // namespace ws::kernels

namespace ws::kernels {
namespace {

// ---- kernel files on the GPU (warpscope bench FILE.cu) ----

std::string TempKernelFile(const std::string& name, const std::string& text) {
  const std::string dir = ::testing::TempDir() + "ws-gpu-file-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::filesystem::remove(path);
  if (text.empty()) toolchain::WriteKernelTemplate(path);
  else std::ofstream(path) << text;
  return path;
}

// The template `warpscope new` writes, built by nvcc and timed: .timing_n = 1 << 24 floats,
// 256 threads a block, so (2^24 + 255) / 256 = 65536 blocks; 3 timed runs; the CPU's check.
TEST(GpuKernelFile, TemplateIsBuiltForTheGpuTimedAndChecked) {
  std::string why;
  if (!CudaAvailable(&why)) GTEST_SKIP() << why;
  const std::string file = TempKernelFile("scaled.cu", "");
  FindVariant(file);  // compiled for the simulator first, as warpscope bench does: the description is checked
  const BenchReport r = TimeKernelFileOnGpu(file, 0, 3);
  EXPECT_FALSE(r.device.empty());
  ASSERT_EQ(r.timings.size(), 1u);
  const Timing& t = r.timings[0];
  EXPECT_EQ(t.error, "");
  EXPECT_TRUE(t.check.passed) << t.check.detail;
  EXPECT_EQ(t.n, 1 << 24);
  EXPECT_EQ(t.grid[0], 65536u);
  EXPECT_EQ(t.block[0], 256u);
  EXPECT_EQ(t.runs, 3);
  EXPECT_GT(t.ms_median, 0);
  // The header's facts, and GB/s from the arrays the description declares: x and y, 2^24 floats
  // each, 2 x 64 MiB = 134217728 bytes over the median time; % of the copy bandwidth measured.
  EXPECT_EQ(r.driver.rfind("CUDA driver ", 0), 0u) << r.driver;
  EXPECT_GT(r.copy_gbps, 0);
  EXPECT_NEAR(t.gbps, 134217728.0 / (t.ms_median * 1e-3) / 1e9, 1e-9 * t.gbps);
  EXPECT_NEAR(t.pct_of_peak, 100.0 * t.gbps / r.copy_gbps, 1e-9 * t.pct_of_peak);
  std::printf("template at 2^24: %.4f ms, %.1f GB/s, %.1f%% of the copy's %.1f GB/s on %s (%s)\n", t.ms_median,
              t.gbps, t.pct_of_peak, r.copy_gbps, r.device.c_str(), r.driver.c_str());
}

// --single-launch: one plain launch per kernel, as for ncu: no warm-up and one timed run (a
// counter every launch adds one to, never restored in this mode, must read 1), no copy bandwidth.
TEST(GpuKernelFile, SingleLaunchLaunchesOnce) {
  std::string why;
  if (!CudaAvailable(&why)) GTEST_SKIP() << why;
  const std::string file = TempKernelFile("once.cu", R"(
__global__ void count(Global<int> c) {
  if (threadIdx.x == 0) atomicAdd(&c[0], 1);
}
WS_KERNEL(count, .title = "Counts its launches", .teaching_n = 32, .timing_n = 32) {
  auto c = k.InputFrom<int>("c", std::vector<int>{0});
  k.Launch(dim3(1), dim3(32), count, c);
  k.Expect(c, std::vector<int>{1});
}
)");
  FindVariant(file);
  const BenchReport r = TimeKernelFileOnGpu(file, 0, 5, true);
  ASSERT_EQ(r.timings.size(), 1u);
  const Timing& t = r.timings[0];
  EXPECT_EQ(t.error, "");
  EXPECT_TRUE(t.check.passed) << t.check.detail;
  EXPECT_EQ(t.runs, 1);
  EXPECT_EQ(r.warmup, 0);
  EXPECT_FALSE(r.l2_flushed);
  EXPECT_EQ(r.copy_gbps, 0);
  const BenchReport timed = TimeKernelFileOnGpu(file, 0, 5);  // restored before each of 2 + 5 runs
  ASSERT_EQ(timed.timings.size(), 1u);
  EXPECT_EQ(timed.timings[0].runs, 5);
  EXPECT_TRUE(timed.timings[0].check.passed) << timed.timings[0].check.detail;
}

// A kernel that writes far outside its array faults on the device: the child process that
// timed it reports the fault (or stops), and this process goes on.
TEST(GpuKernelFile, FaultOnTheDeviceIsAnErrorNotACrash) {
  std::string why;
  if (!CudaAvailable(&why)) GTEST_SKIP() << why;
  const std::string file = TempKernelFile("wild.cu", R"(
__global__ void wild(Global<float> y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i * 1048576] = 1.0f;  // 4 MiB apart: out of every allocation
}
WS_KERNEL(wild, .title = "Wild store", .teaching_n = 64, .timing_n = 1 << 20) {
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3((k.n + 255) / 256), dim3(256), wild, y, k.n);
}
)");
  const BenchReport r = TimeKernelFileOnGpu(file, 0, 1);
  ASSERT_FALSE(r.timings.empty());
  bool error = false;
  for (const auto& t : r.timings) error = error || !t.error.empty();
  EXPECT_TRUE(error) << "the fault should be reported";
}

}  // namespace
}  // namespace ws::kernels
