// The live path of `warpscope sass`: real nvcc output (-cubin -lineinfo, ptxas -v) read by the
// real disassembler found as FindCudaTool finds it; skipped where there is no nvcc or no
// disassembler (tools/install-deps.sh installs NVIDIA's). Expected values are worked out from the
// kernels' source, never copied from the program's output.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/wait.h>

#include "app/sass_command.h"
#include "kernels/family.h"
#include "toolchain/build.h"
#include "toolchain/compiled.h"
#include "tests/cli_run.h"
#include "tests/cuda_tools.h"

namespace {

namespace fs = std::filesystem;
using ws::toolchain::CompileForListing;
using ws::toolchain::FindCudaTool;

using ws::test::HaveNvccAndNvdisasm;

// Line 2 reads a float4 (one 16-byte load per lane), line 3 stores a float per lane to shared
// memory, line 5 reads two neighbours from it after the barrier and line 6 stores the sum.
const char* kVectorFile = R"(#include <cstdint>
__global__ void vec(Global<float> y, Global<const float4> x) { float4 v = x[threadIdx.x];
  __shared__ float s[256]; s[threadIdx.x] = v.x + v.y + v.z + v.w;
  __syncthreads();
  float a = s[threadIdx.x] + s[(threadIdx.x + 1) % 256];
  y[threadIdx.x] = a;
}
WS_KERNEL(vec, .title = "v", .teaching_n = 256, .timing_n = 256, .max_n = 256, .size_meaning = "n") {
  auto x = k.InputFrom<const float4>("x", std::vector<float4>(256, float4{1, 2, 3, 4}));
  auto y = k.Output<float>("y", 256);
  k.Launch(dim3(1), dim3(256), vec, y, x);
}
)";

std::string WriteFile(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("ws-compiled-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

TEST(CompiledBuild, TargetArchTakesTheSpellingsOfOneArchitecture) {
  EXPECT_EQ(ws::toolchain::TargetArch("sm_90"), "sm_90");
  EXPECT_EQ(ws::toolchain::TargetArch("90"), "sm_90");
  EXPECT_EQ(ws::toolchain::TargetArch("8.6"), "sm_86");
  EXPECT_EQ(ws::toolchain::TargetArch("sm_90a"), "sm_90a");
  EXPECT_THROW(ws::toolchain::TargetArch("volta"), ws::kernels::BadRequest);
  EXPECT_THROW(ws::toolchain::TargetArch("sm_9"), ws::kernels::BadRequest);
}

TEST(CompiledBuild, SassOfAFileHasItsMemoryInstructionsAtTheirLinesAndIsCached) {
  if (!HaveNvccAndNvdisasm()) GTEST_SKIP() << "no nvcc or no nvdisasm";
  const std::string file = WriteFile("vec.cu", kVectorFile);
  for (const std::string arch : {"sm_90", "sm_75"}) {
    const auto built = CompileForListing(file, "vec.cu", kVectorFile, arch);
    ASSERT_EQ(built.module.kind, ws::sim::ListingKind::Sass) << arch;
    const ws::sim::CompiledKernel* k = nullptr;
    for (const auto& c : built.module.kernels)
      if (c.name == "_Z3vecPfPK6float4") k = &c;
    ASSERT_NE(k, nullptr) << arch;
    EXPECT_GT(k->usage.registers, 0) << arch;
    EXPECT_EQ(k->usage.shared_bytes, 1024) << arch;  // float s[256]
    // Per line of the file: the kind and width of each memory instruction.
    std::map<uint32_t, std::vector<std::string>> got;
    for (const auto& ins : k->instructions) {
      if (!ins.IsMemory()) continue;
      uint32_t line = 0;
      for (const auto& w : ins.where)
        if (w.file == file) { line = w.line; break; }
      got[line].push_back(std::string(ws::sim::ToString(ins.space)) + " " + ws::sim::ToString(ins.op) + " " +
                          std::to_string(ins.width));
    }
    EXPECT_EQ(got[2], std::vector<std::string>{"global ld 16"}) << arch;
    EXPECT_EQ(got[3], std::vector<std::string>{"shared st 4"}) << arch;
    ASSERT_EQ(got[5].size(), 2u) << arch;  // two 4-byte shared loads (neighbours: not one wider load)
    EXPECT_EQ(got[5][0], "shared ld 4") << arch;
    EXPECT_EQ(got[6], std::vector<std::string>{"global st 4"}) << arch;
    EXPECT_TRUE(CompileForListing(file, "vec.cu", kVectorFile, arch).reused) << arch;
  }
}

// 4 Mi floats of 4 bytes: a 16 MiB stack frame, which ptxas (CUDA 13) reports and accepts; the
// listing says that no GPU launches it (local memory per thread is at most 512 KiB).
TEST(CompiledBuild, ALocalArrayOverTheDevicesLimitIsSaid) {
  if (!HaveNvccAndNvdisasm()) GTEST_SKIP() << "no nvcc or no nvdisasm";
  const std::string text = R"(__global__ void big(Global<float> y) {
  float a[4 * 1024 * 1024];
  for (int j = 0; j < 4 * 1024 * 1024; ++j) a[j] = float(j * threadIdx.x);
  y[threadIdx.x] = a[(threadIdx.x * 7919) % (4 * 1024 * 1024)];
}
WS_KERNEL(big, .title = "b", .teaching_n = 32, .timing_n = 32, .max_n = 32, .size_meaning = "n") {
  auto y = k.Output<float>("y", 32);
  k.Launch(dim3(1), dim3(32), big, y);
}
)";
  const std::string file = WriteFile("big.cu", text);
  const auto built = CompileForListing(file, "big.cu", text, "sm_90");
  ASSERT_EQ(built.module.kernels.size(), 1u);
  EXPECT_EQ(built.module.kernels[0].usage.stack_bytes, 16777216);
  std::ostringstream out;
  EXPECT_EQ(ws::app::Sass(file, "sm_90", false, false, out), 1);
  EXPECT_NE(out.str().find("error: big uses 16384 KiB of local memory per thread; a GPU launches at most 512 KiB"),
            std::string::npos)
      << out.str();
}

TEST(CompiledBuild, SassNamesTheKernelsThereAreForOneThatIsNot) {
  if (!HaveNvccAndNvdisasm()) GTEST_SKIP() << "no nvcc or no nvdisasm";
  const std::string file = WriteFile("vec.cu", kVectorFile);
  std::ostringstream out;
  try {
    ws::app::Sass(file + ":nope", "sm_90", false, false, out);
    FAIL() << "no error";
  } catch (const ws::kernels::BadRequest& e) {
    EXPECT_NE(std::string(e.what()).find("no __global__ function 'nope'; there are: vec"), std::string::npos) << e.what();
  }
  std::ostringstream listing;
  EXPECT_EQ(ws::app::Sass(file + ":vec", "sm_90", false, false, listing), 0);
  EXPECT_NE(listing.str().find("  line 2: __global__ void vec"), std::string::npos) << listing.str();
  EXPECT_NE(listing.str().find("16 B ld global"), std::string::npos) << listing.str();
}

}  // namespace

namespace {

// A catalog variant as warpscope's own GPU build has it (kernels/cuda_families.cu, which a test
// program leaves out: the command runs warpscope): transpose/shared_rows' tile is 32 x 33 floats,
// 4224 bytes; the kernel stores one float per lane into it and reads one back.
TEST(CompiledBuild, SassOfACatalogVariantListsItsOwnLines) {
#ifndef WARPSCOPE_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA: no GPU code of the catalog";
#endif
  if (FindCudaTool("nvdisasm").empty() || FindCudaTool("cuobjdump").empty()) GTEST_SKIP() << "no disassembler";
  const auto [rc, s] = ws::test::Cli("sass transpose/shared_rows --arch sm_90");
  EXPECT_EQ(rc, 0) << s;
  EXPECT_NE(s.find("kernels/transpose/shared_rows.cuh for sm_90: SASS by nvdisasm"), std::string::npos) << s;
  EXPECT_NE(s.find("transpose_rows_kernel(float const*, float*, int, int)"), std::string::npos) << s;
  EXPECT_NE(s.find("static shared 4224 B"), std::string::npos) << s;
  EXPECT_NE(s.find("4 B st shared"), std::string::npos) << s;
  EXPECT_NE(s.find("4 B ld shared"), std::string::npos) << s;
  const auto [bad_rc, bad] = ws::test::Cli("sass transpose/shared_rows --arch sm_70");
  EXPECT_EQ(bad_rc, 2) << bad;
  EXPECT_NE(bad.find("no GPU code of the catalog for sm_70; it has sm_75"), std::string::npos) << bad;
}

}  // namespace
