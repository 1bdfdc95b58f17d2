// GPU tests (ctest label "gpu"): every catalog variant run on the device, its output compared
// with the family's CPU reference at two sizes. Skipped, with the reason, where no device is.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"

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
