// The GPU runner's logic that needs no GPU: the worker's life cycle, recorded results, and the
// transpose variant written for the GPU checked in the simulator.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"
#include "kernels/recorded.h"
#include "sim/metrics.h"

namespace ws::kernels {
namespace {

GpuRunner::Status WaitDone(const GpuRunner& r) {
  for (int i = 0; i < 2000; ++i) {
    auto s = r.Poll();
    if (!s.running) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return r.Poll();
}

TEST(Median, OddCountIsTheMiddleRunEvenCountTheMeanOfTheMiddleTwo) {
  EXPECT_EQ(Median({0.9, 0.3, 0.5}), 0.5);        // sorted 0.3 0.5 0.9
  EXPECT_EQ(Median({4.0, 1.0, 3.0, 2.0}), 2.5);   // sorted 1 2 3 4: (2 + 3) / 2
  EXPECT_EQ(Median({}), 0.0);                    // no runs
}

TEST(GpuRunner, WithoutDeviceReportsNoCudaDeviceAndFinishes) {
  std::string why;
  if (CudaAvailable(&why)) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(why.rfind("no CUDA device", 0), 0u) << why;
  GpuRunner r;
  r.Start({"transpose/copy"}, 64, 10);
  const auto s = WaitDone(r);
  EXPECT_FALSE(s.running);
  EXPECT_EQ(s.message.rfind("no CUDA device", 0), 0u) << s.message;
  EXPECT_TRUE(s.report.timings.empty());
}

TEST(GpuRunner, PollNeverBlocksAndCancelStops) {
  GpuRunner r;
  r.Start({"transpose/copy", "transpose/naive"}, 64, 10);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 100; ++i) r.Poll();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(500));
  r.Cancel();
  EXPECT_FALSE(WaitDone(r).running);
}

// Destroying the runner cancels its worker and joins it, within a deadline: the work started (every
// variant at its timing size, 1000 timed runs each) takes minutes on a GPU, so the runner may finish
// only the variant it is timing (transpose/copy, first: well under a second at 8192²) after the
// device opens. Without a device the worker stops at once. The deadline is missed by a destructor
// that waits for all the work, or hangs.
TEST(GpuRunner, DestroyingARunningWorkerJoinsIt) {
  std::vector<std::string> ids{"transpose/copy"};
  for (const auto& f : Catalog())
    for (const auto& v : f.info.variants) ids.push_back(f.info.name + "/" + v.name);
  auto r = std::make_unique<GpuRunner>();
  r->Start(ids, 0, 1000);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the worker is under way
  auto done = std::make_shared<std::atomic<bool>>(false);
  const auto t0 = std::chrono::steady_clock::now();
  std::thread destroy([runner = r.release(), done] {
    delete runner;
    done->store(true);
  });
  const auto deadline = t0 + std::chrono::seconds(15);
  while (!done->load() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!done->load()) {
    destroy.detach();  // still waiting: the test fails rather than hanging
    FAIL() << "destroying a running GpuRunner took longer than 15 s";
  }
  destroy.join();
  std::printf("destroying the running runner took %.2f s\n", s);
}

TEST(RecordedResults, SaveThenLoadKeepsEveryField) {
  BenchReport b;
  b.device = "Test GPU";
  b.driver = "CUDA driver 13.0, runtime 13.0";
  b.date = "2026-01-02";
  b.copy_gbps = 1234.5;
  b.sm_count = 7;
  b.clock_ghz = 1.5;
  b.fp32_lane_gops = 7 * 128 * 1.5;
  b.runs = 10;
  b.warmup = 2;
  b.l2_flushed = true;
  Timing t;
  t.variant = "transpose/naive";
  t.n = 8192;
  t.grid[0] = 256; t.grid[1] = 256;
  t.block[0] = 32; t.block[1] = 32;
  t.runs = 2;
  t.ms_runs = {1.5, 2.5};
  t.ms_median = 2.0; t.ms_min = 1.5; t.ms_max = 2.5;
  t.gbps = 268.4;
  t.pct_of_peak = 21.7;
  t.peak_meaning = "device-to-device cudaMemcpy bandwidth";
  t.speedup = 0.5;
  t.check.passed = true;
  t.check.detail = "matches the CPU reference";
  b.timings.push_back(t);
  const std::string path = ::testing::TempDir() + "/ws_recorded.json";
  std::string why;
  ASSERT_TRUE(SaveReport(b, path, &why)) << why;
  auto r = LoadRecorded(path, &why);
  ASSERT_TRUE(r) << why;
  EXPECT_TRUE(r->recorded);
  EXPECT_EQ(r->device, "Test GPU");
  EXPECT_EQ(r->date, "2026-01-02");
  EXPECT_DOUBLE_EQ(r->copy_gbps, 1234.5);
  EXPECT_EQ(r->sm_count, 7);
  ASSERT_EQ(r->timings.size(), 1u);
  const auto& x = r->timings[0];
  EXPECT_EQ(x.variant, "transpose/naive");
  EXPECT_EQ(x.n, 8192);
  EXPECT_EQ(x.grid[0], 256u);
  EXPECT_EQ(x.block[1], 32u);
  EXPECT_EQ(x.ms_runs.size(), 2u);
  EXPECT_DOUBLE_EQ(x.ms_median, 2.0);
  EXPECT_TRUE(x.check.passed);
  EXPECT_DOUBLE_EQ(x.speedup, 0.5);
  std::remove(path.c_str());
}

TEST(RecordedResults, MissingAndMalformedFilesSayWhy) {
  std::string why;
  EXPECT_FALSE(LoadRecorded("/nonexistent/ws.json", &why));
  EXPECT_NE(why.find("no recorded results"), std::string::npos) << why;
  const std::string path = ::testing::TempDir() + "/ws_bad.json";
  std::ofstream(path) << "{\"device\": 3";
  EXPECT_FALSE(LoadRecorded(path, &why));
  EXPECT_NE(why.find("malformed"), std::string::npos) << why;
  std::remove(path.c_str());
}

// One loader for both kinds of assets/recorded: a folder's *.json files by name, each that loads
// kept, each that does not named with its reason; other files ignored.
TEST(RecordedResults, AFolderKeepsWhatLoadsAndNamesWhatDoesNot) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "ws_recorded_folder";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "b_good.json") << R"({"device": "Test GPU", "date": "2026-01-02",
      "runs": [{"variant": "shortcut/v0", "n": 64, "metrics": {"dram__bytes_read.sum": 512, "note": "x"}}]})";
  std::ofstream(dir / "a_cut.json") << R"({"device": "Test GPU", "runs": [)";
  std::ofstream(dir / "c_no_date.json") << R"({"device": "Test GPU", "runs": []})";
  std::ofstream(dir / "notes.txt") << "not a recording";
  std::vector<std::string> problems;
  const auto ncu = LoadRecordedNcuFiles(dir, &problems);
  ASSERT_EQ(ncu.size(), 1u);
  EXPECT_EQ(ncu[0].path, (dir / "b_good.json").string());
  ASSERT_NE(ncu[0].Find("shortcut/v0", 64), nullptr);
  EXPECT_EQ(ncu[0].Find("shortcut/v0", 64)->metrics.size(), 1u);  // the text "x" is not a figure
  ASSERT_EQ(problems.size(), 2u);  // by file name: a_cut, then c_no_date
  EXPECT_EQ(problems[0].rfind("malformed recorded ncu figures in " + (dir / "a_cut.json").string() + ": ", 0), 0u) << problems[0];
  EXPECT_EQ(problems[1].rfind("malformed recorded ncu figures in " + (dir / "c_no_date.json").string() + ": ", 0), 0u) << problems[1];
  // As timing reports none of them loads (no "timings"): three reasons, none for notes.txt.
  problems.clear();
  EXPECT_TRUE(LoadRecordedResults(dir, &problems).empty());
  ASSERT_EQ(problems.size(), 3u);
  for (const auto& p : problems) EXPECT_EQ(p.rfind("malformed recorded results in ", 0), 0u) << p;
  EXPECT_TRUE(LoadRecordedNcuFiles(dir / "absent", &problems).empty());
  fs::remove_all(dir);
}

// The fallback to recorded figures: the first file (in the order given, by name as loaded) with
// the variant at n; at any n where n is 0; nothing where no file has it.
TEST(RecordedResults, TheRecordedRunIsTheFirstFilesWithTheVariantAtN) {
  RecordedNcu h100, h200;
  h100.device = "H100";
  h100.runs = {{"shortcut/v0", 512, {{"x", 1}}}};
  h200.device = "H200";
  h200.runs = {{"shortcut/v0", 64, {{"x", 2}}}, {"shortcut/v0", 512, {{"x", 3}}}};
  const std::vector<RecordedNcu> files = {h100, h200};
  const auto at64 = FindRecordedRun(files, "shortcut/v0", 64);  // only the second file has n = 64
  ASSERT_TRUE(at64);
  EXPECT_EQ(at64.file->device, "H200");
  EXPECT_EQ(at64.run->metrics.at("x"), 2);
  const auto at512 = FindRecordedRun(files, "shortcut/v0", 512);  // both have it: the first's
  ASSERT_TRUE(at512);
  EXPECT_EQ(at512.file->device, "H100");
  const auto any = FindRecordedRun(files, "shortcut/v0");
  ASSERT_TRUE(any);
  EXPECT_EQ(any.run->metrics.at("x"), 1);
  EXPECT_FALSE(FindRecordedRun(files, "shortcut/v0", 1024));
  EXPECT_FALSE(FindRecordedRun(files, "shortcut/v1"));
  EXPECT_FALSE(FindRecordedRun({}, "shortcut/v0"));
}

// A family's table reads one file: the first with any of the family's variants (at any n), else
// the first file; none without files.
TEST(RecordedResults, AFamilysTableReadsTheFirstFileWithTheFamily) {
  RecordedNcu h100, h200;
  h100.device = "H100";
  h100.runs = {{"pairs/v1", 256, {}}};
  h200.device = "H200";
  h200.runs = {{"shortcut/v0", 64, {}}};
  const std::vector<RecordedNcu> files = {h100, h200};
  ASSERT_NE(FindRecordedFamily(files, "shortcut"), nullptr);
  EXPECT_EQ(FindRecordedFamily(files, "shortcut")->device, "H200");  // only the second has it
  EXPECT_EQ(FindRecordedFamily(files, "pairs")->device, "H100");
  EXPECT_EQ(FindRecordedFamily(files, "transpose")->device, "H100");  // none has it: the first
  EXPECT_EQ(FindRecordedFamily({}, "shortcut"), nullptr);
}

// The committed recorded results load and every variant in them passed its check.
TEST(RecordedResults, ShippedFilesLoadAndPassed) {
  const std::filesystem::path dir = WARPSCOPE_ASSETS "/recorded";
  std::error_code ec;
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".json") continue;
    ++files;
    std::string why;
    auto r = LoadRecorded(e.path().string(), &why);
    ASSERT_TRUE(r) << why;
    EXPECT_FALSE(r->device.empty());
    EXPECT_FALSE(r->timings.empty());
    for (const auto& t : r->timings) EXPECT_TRUE(t.check.passed) << t.variant << ": " << t.error;
  }
  if (files == 0) GTEST_SKIP() << "no recorded results in " << dir;
}

// Figures follow from the recorded time and the family's work: a recorded file is read in each
// family's own unit. Times from assets/recorded/NVIDIA_H200.json.
TEST(RecordedResults, EachFamilyIsReadInItsOwnUnit) {
  BenchReport b;
  b.device = "Test GPU";
  b.copy_gbps = 4000;
  b.fp32_lane_gops = 33454.08;  // 132 SMs x 128 lanes x 1.98 GHz
  Timing pairs;
  pairs.variant = "pairs/v3";
  pairs.n = 16384;
  pairs.ms_median = 0.46532800793647766;
  pairs.peak = 4218.03;  // as the file stored it: pairs measured against the copy bandwidth
  pairs.peak_meaning = "device-to-device cudaMemcpy bandwidth";
  Timing naive;
  naive.variant = "transpose/naive";
  naive.n = 8192;
  naive.ms_median = 0.9611360132694244;
  naive.peak = 4207.7159355848735;  // the copy bandwidth measured beside it
  naive.peak_meaning = "device-to-device cudaMemcpy bandwidth";
  b.timings = {pairs, naive};
  const std::string path = ::testing::TempDir() + "/ws_units.json";
  std::string why;
  ASSERT_TRUE(SaveReport(b, path, &why)) << why;
  auto r = LoadRecorded(path, &why);
  ASSERT_TRUE(r) << why;
  ASSERT_EQ(r->timings.size(), 2u);
  // pairs: 2 x 16384^2 = 536,870,912 operations (a subtraction and an addition per pair) in
  // 0.465328 ms = 1153.7 Gop/s, 3.449% of 33454 Gop/s.
  const Timing& p = r->timings[0];
  EXPECT_EQ(p.rate_unit, "Gop/s");
  EXPECT_NEAR(p.rate, 1153.74, 0.01);
  EXPECT_NEAR(p.pct_of_peak, 3.4487, 0.001);
  EXPECT_EQ(p.peak_name, "FP32 peak 33454 Gop/s");
  // transpose: 2 x 8192^2 x 4 bytes = 536,870,912 bytes in 0.961136 ms = 558.58 GB/s, 13.28% of
  // the copy bandwidth measured with it (4207.7 GB/s, not the report's 4000).
  const Timing& t = r->timings[1];
  EXPECT_EQ(t.rate_unit, "GB/s");
  EXPECT_NEAR(t.rate, 558.58, 0.01);
  EXPECT_NEAR(t.pct_of_peak, 13.275, 0.001);
  EXPECT_EQ(t.peak_name, "copy 4208 GB/s");
  std::remove(path.c_str());
}

double MetricValue(const sim::Counters& c, const std::string& name) {
  for (const auto& m : sim::Metrics(c))
    if (m.name == name) return m.value;
  ADD_FAILURE() << "no metric " << name;
  return -1;
}

// 32x4 threads move a 32x32 tile, 8 rows each: at n=96 (3x3 tiles, 9 blocks of 4 warps) every
// warp issues 8 global loads and 8 stores, each one 128-byte line = 4 sectors, and 8 shared
// stores and loads, each conflict-free (row writes; column reads step 33 words: 32 banks).
TEST(TransposeSharedRows, CoalescedAndConflictFreeInTheSimulator) {
  RunRequest r;
  r.n = 96;
  sim::LaunchOptions opt;
  opt.selection.kind = sim::Selection::Kind::None;
  const auto o = Simulate(FindVariant("transpose/shared_rows"), r, opt);
  EXPECT_TRUE(o.check.passed) << o.check.detail;
  const auto& c = o.trace.total;
  const double warp_insts = 9 * 4 * 8;
  EXPECT_EQ(MetricValue(c, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), warp_insts);
  EXPECT_EQ(MetricValue(c, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), warp_insts);
  EXPECT_EQ(MetricValue(c, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 4 * warp_insts);
  EXPECT_EQ(MetricValue(c, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 4 * warp_insts);
  EXPECT_EQ(MetricValue(c, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), warp_insts);
  EXPECT_EQ(MetricValue(c, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), warp_insts);
  EXPECT_EQ(MetricValue(c, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 0);
  EXPECT_EQ(MetricValue(c, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 0);
  for (const auto& f : o.trace.findings) EXPECT_FALSE(sim::IsError(f.kind)) << f.message;
}

// A size that is not a multiple of the tile: the edge blocks mask lanes off, output still right.
TEST(TransposeSharedRows, RaggedEdgeMatchesReference) {
  RunRequest r;
  r.n = 70;
  sim::LaunchOptions opt;
  opt.selection.kind = sim::Selection::Kind::None;
  const auto o = Simulate(FindVariant("transpose/shared_rows"), r, opt);
  EXPECT_TRUE(o.check.passed) << o.check.detail;
  for (const auto& f : o.trace.findings) EXPECT_FALSE(sim::IsError(f.kind)) << f.message;
}

}  // namespace
}  // namespace ws::kernels
