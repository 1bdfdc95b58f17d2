// The generated notes of each class of difference between the source as simulated and nvcc's code
// (sim/compiled_notes.h), on small kernels built by the real nvcc and read by the real nvdisasm
// through `warpscope stats --json [--as-compiled]`; skipped, saying so, where either is missing.
// Each expected count is worked out from the kernel's source and its launch, by hand.
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
  if (!HaveNvccAndNvdisasm()) GTEST_SKIP() << "no nvcc or no nvdisasm: the compiled notes need both (tools/install-deps.sh)"

// One kernel per class of difference; the line numbers are the file's (the comments count them).
const char* kClasses = R"(__global__ void merged(Global<const float> x, Global<float> y) {
  __shared__ Shared<float[512]> s;
  for (int k = 0; k < 4; ++k) s[threadIdx.x + 128 * k] = x[threadIdx.x + 128 * k];
  __syncthreads();
  int t = threadIdx.x;
  y[t] = s[4 * t] + s[4 * t + 1] + s[4 * t + 2] + s[4 * t + 3];  // line 6
}
__global__ void hoisted(Global<const float> a, Global<const float> b, Global<float> y, int m) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int i = 0; i < m; ++i) sum += a[x] * b[i];  // line 11
  y[x] = sum;
}
__global__ void counted(Global<const int> v, Global<int> count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (v[i] > 0) atomicAdd(&count[0], 1);  // line 16
}
__global__ void divergent(Global<int> array, int nNumbers) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  for (int i = idx; i < nNumbers; i += blockDim.x*gridDim.x) {  // line 20
    if (array[i] % 2 == 0)
      array[i] *= 2;  // line 22
    else
      array[i] /= 2;  // line 24
  }
}
constexpr unsigned kBlock = 128;
__global__ void reduce4_plain(Global<const float> in, Global<float> out, unsigned n) {
  __shared__ Shared<float[kBlock]> sdata;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  float sum = (i < n) ? float(in[i]) : 0.0f;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    sdata[tid] += sdata[tid + 32];  // line 41
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];  // line 46
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
__global__ void moved(Global<const float2> x, Global<float2> y) {
  __shared__ Shared<float2[512]> s;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i];
  s[threadIdx.x + 256] = x[i];  // line 54
  __syncthreads();
  float2 v = s[(threadIdx.x * 2) % 512];  // line 56
  y[i] = v;
}
WS_KERNEL(merged, .title = "m", .teaching_n = 512, .timing_n = 512) {
  auto x = k.Input<const float>("x", 512);
  auto y = k.Output<float>("y", 128);
  k.Launch(dim3(1), dim3(128), merged, x, y);
}
WS_KERNEL(hoisted, .title = "h", .teaching_n = 256, .timing_n = 256) {
  auto a = k.Input<const float>("a", k.n);
  auto b = k.Input<const float>("b", 64);
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3(k.n / 128), dim3(128), hoisted, a, b, y, 64);
}
WS_KERNEL(counted, .title = "c", .teaching_n = 256, .timing_n = 256) {
  auto v = k.Input<const int>("v", k.n);
  auto c = k.Output<int>("count", 1);
  k.Launch(dim3(k.n / 128), dim3(128), counted, v, c);
}
WS_KERNEL(divergent, .title = "d", .teaching_n = 4096, .timing_n = 4096) {
  auto a = k.Input<int>("array", k.n);
  k.Launch(dim3(2), dim3(256), divergent, a, k.n);
}
WS_KERNEL(moved, .title = "v", .teaching_n = 4096, .timing_n = 4096) {
  std::vector<float2> pairs(k.n);
  for (int j = 0; j < k.n; ++j) pairs[j] = {float(j), float(-j)};
  auto x = k.InputFrom<const float2>("x", pairs);
  auto y = k.Output<float2>("y", k.n);
  k.Launch(dim3(k.n / 256), dim3(256), moved, x, y);
}
WS_KERNEL(reduce4_plain, .title = "r", .teaching_n = 10240, .timing_n = 10240) {
  auto in = k.Input<const float>("in", k.n);
  auto out = k.Output<float>("out", k.n / 256);
  k.Launch(dim3(k.n / 256), dim3(128), reduce4_plain, in, out, unsigned(k.n));
}
)";

// The test file, written once per test program.
const std::string& ClassesFile() {
  static const std::string path = [] {
    const fs::path dir = fs::temp_directory_path() / ("ws-compiled-notes-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "classes.cu") << kClasses;
    return (dir / "classes.cu").string();
  }();
  return path;
}

json Stats(const std::string& kernel, const std::string& flags = "") {
  const auto r = ws::test::Cli("stats " + ClassesFile() + ":" + kernel + " --json --no-caches " + flags, false);
  EXPECT_NE(r.out.find('{'), std::string::npos) << r.out;
  return json::parse(r.out.substr(r.out.find('{')));
}

// The notes at `line` of class `kind` ("merged", ...).
std::vector<json> Notes(const json& j, unsigned line, const std::string& kind) {
  std::vector<json> out;
  for (const auto& n : j["compiled"]["notes"])
    if (n["line"] == line && n["kind"] == kind) out.push_back(n);
  return out;
}

double LineMetric(const json& j, unsigned line, const std::string& metric) {
  const auto& l = j["per_line"][std::to_string(line)];
  return l.contains(metric) ? l[metric].get<double>() : 0.0;
}

TEST(CompiledNotes, FourReadsOfALanesOwn16BytesAreMergedIntoOneLds128) {
  SKIP_WITHOUT_TOOLS();
  const json sim = Stats("merged"), compiled = Stats("merged", "--as-compiled");
  ASSERT_TRUE(sim["compiled"]["available"]) << sim["compiled"]["status"];
  ASSERT_EQ(Notes(sim, 6, "merged").size(), 1u) << sim["compiled"].dump(1);
  EXPECT_NE(Notes(sim, 6, "merged")[0]["text"].get<std::string>().find("LDS.128"), std::string::npos);
  EXPECT_EQ(sim["compiled"]["emitted"]["6"], "LDS.128 ×1, STG ×1");
  // 4 warps x 4 loads simulated; compiled 1 LDS.128 per warp. s[4t]: lanes 8 apart share a bank,
  // 4 words each: 4 wavefronts per 4-byte load, 16 per warp; one LDS.128 of 32 x 16 contiguous
  // bytes is 4 wavefronts, 16 for the 4 warps.
  EXPECT_EQ(LineMetric(sim, 6, "smsp__sass_inst_executed_op_shared_ld.sum"), 16);
  EXPECT_EQ(LineMetric(compiled, 6, "smsp__sass_inst_executed_op_shared_ld.sum"), 4);
  EXPECT_EQ(LineMetric(sim, 6, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 64);
  EXPECT_EQ(LineMetric(compiled, 6, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 16);
  EXPECT_EQ(compiled["counted"], "as compiled");
}

TEST(CompiledNotes, ALoadTheSameInEveryIterationIsHoistedBeforeTheLoop) {
  SKIP_WITHOUT_TOOLS();
  const json sim = Stats("hoisted"), compiled = Stats("hoisted", "--as-compiled");
  ASSERT_EQ(Notes(sim, 11, "hoisted").size(), 1u) << sim["compiled"].dump(1);
  // 8 warps, 64 iterations, a[x] and b[i] each: 1024 loads simulated; compiled, b[i] in each
  // iteration and a[x] once per warp: 8 x (64 + 1) = 520.
  EXPECT_EQ(LineMetric(sim, 11, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 1024);
  EXPECT_EQ(LineMetric(compiled, 11, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 520);
}

TEST(CompiledNotes, AnIntegerAtomicOnOneAddressIsAggregatedByOneLane) {
  SKIP_WITHOUT_TOOLS();
  const json sim = Stats("counted");
  ASSERT_EQ(Notes(sim, 16, "aggregated").size(), 1u) << sim["compiled"].dump(1);
  EXPECT_NE(Notes(sim, 16, "aggregated")[0]["text"].get<std::string>().find("one lane of each warp"), std::string::npos);
  EXPECT_EQ(Notes(sim, 16, "aggregated")[0]["factor"], 1.0);  // the simulator counts it so already
}

TEST(CompiledNotes, APredicatedBranchStoresOnceForBothSidesAndRereadsNothing) {
  SKIP_WITHOUT_TOOLS();
  const json sim = Stats("divergent"), compiled = Stats("divergent", "--as-compiled");
  for (unsigned line : {22u, 24u}) {
    EXPECT_EQ(Notes(sim, line, "predicated").size(), 1u) << line << sim["compiled"].dump(1);
    EXPECT_EQ(Notes(sim, line, "kept in a register").size(), 1u) << line;  // array[i] of line 21's test
  }
  ASSERT_EQ(Notes(sim, 20, "predicated").size(), 1u) << sim["compiled"].dump(1);
  EXPECT_EQ(Notes(sim, 20, "predicated")[0]["from_lines"], json({22, 24}));
  // 16 warps x 4096 / 512 = 8 iterations: 128 warp-iterations, each loading array[i] once and,
  // as compiled, storing it once (random values: both parities in every warp, so the simulator
  // stores twice, 16 lanes each).
  const char* st = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
  const char* ld = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
  EXPECT_EQ(sim["metrics"][st], 256);
  EXPECT_EQ(compiled["metrics"][st], 128);
  EXPECT_EQ(sim["metrics"][ld], 384);
  EXPECT_EQ(compiled["metrics"][ld], 128);
}

TEST(CompiledNotes, Reduce4WithoutVolatileKeepsItsSumsInRegistersAndItsCheckIsQualified) {
  SKIP_WITHOUT_TOOLS();
  const json sim = Stats("reduce4_plain"), compiled = Stats("reduce4_plain", "--as-compiled");
  for (unsigned line = 41; line <= 45; ++line) {
    const auto kept = Notes(sim, line, "kept in a register");
    bool store = false;
    for (const auto& n : kept) store |= n["op"] == "st" && n.value("result_may_differ", false);
    EXPECT_TRUE(store) << "line " << line << ": " << sim["compiled"].dump(1);
  }
  EXPECT_TRUE(sim["check"]["gpu_result_may_differ"]);
  EXPECT_EQ(sim["check"]["text"].get<std::string>().rfind("passed in the simulator", 0), 0u);
  // 40 blocks of 4 warps. Loads per block: the loop's s = 64 (2 warps x 2), line 41 (2), lines
  // 42-46 (2 each), line 48 (1): 17; compiled, lines 42-46 read 1 each: 12. Stores: line 35 (4),
  // the loop (2), lines 41-46 (1 each): 12; compiled only line 46 stores: 7.
  const char* ld = "smsp__sass_inst_executed_op_shared_ld.sum";
  const char* st = "smsp__sass_inst_executed_op_shared_st.sum";
  EXPECT_EQ(sim["metrics"][ld], 17 * 40);
  EXPECT_EQ(compiled["metrics"][ld], 12 * 40);
  EXPECT_EQ(sim["metrics"][st], 12 * 40);
  EXPECT_EQ(compiled["metrics"][st], 7 * 40);
  // In text, stats does not let "check: passed" stand alone.
  const auto text = ws::test::Cli("stats " + ClassesFile() + ":reduce4_plain --no-caches", false);
  EXPECT_EQ(text.out.find("check: passed ("), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("check: passed in the simulator; on the GPU the result can differ"), std::string::npos);
}

// The LDS of line 56 sits at line 57 in the line table (where v is used): the same access, no
// note; x[i] read twice (lines 53, 54) is loaded once. 16 blocks of 8 warps: 128 loads as compiled
// (tests/fidelity/vectors.cu's shared_float2_stride: 128 measured on an H100).
TEST(CompiledNotes, AnAccessTheLineTablePutsAtTheNextLineIsTheSameAccess) {
  SKIP_WITHOUT_TOOLS();
  const json sim = Stats("moved"), compiled = Stats("moved", "--as-compiled");
  EXPECT_TRUE(Notes(sim, 56, "kept in a register").empty()) << sim["compiled"].dump(1);
  EXPECT_EQ(Notes(sim, 54, "kept in a register").size(), 1u) << sim["compiled"].dump(1);
  const char* ld = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
  EXPECT_EQ(sim["metrics"][ld], 256);
  EXPECT_EQ(compiled["metrics"][ld], 128);
  EXPECT_EQ(compiled["metrics"]["smsp__sass_inst_executed_op_shared_ld.sum"], 128);
}

TEST(CompiledNotes, TraceAndNoCompiledSayWhatTheyDo) {
  SKIP_WITHOUT_TOOLS();
  const auto trace = ws::test::Cli("trace " + ClassesFile() + ":merged --block 0 --warp 0", false);
  EXPECT_NE(trace.out.find("compiled: shared loads of 4 B merged into LDS.128"), std::string::npos) << trace.out;
  const auto off = ws::test::Cli("stats " + ClassesFile() + ":merged --no-caches --no-compiled", false);
  EXPECT_EQ(off.out.find("compiled:"), std::string::npos) << off.out;
  const auto both = ws::test::Cli("stats " + ClassesFile() + ":merged --as-compiled --no-compiled", true);
  EXPECT_NE(both.code, 0);
}

}  // namespace
