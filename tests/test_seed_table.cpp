// `warpscope table`: the seed's rows per variant, simulated counters worked out by hand, and the
// shape of its text, CSV and JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "app/seed_table.h"
#include "tests/cli_run.h"

namespace {

using ws::test::Cli;

const nlohmann::json& Row(const nlohmann::json& j, const std::string& label) {
  for (const auto& r : j["rows"])
    if (r["label"] == label) return r;
  static const nlohmann::json none;
  ADD_FAILURE() << "no row " << label;
  return none;
}

}  // namespace

// n = 48 is not a multiple of the 32x32 tile: a 2x2 grid whose right and bottom blocks are half
// used. Rows of the matrix per block column: 32 + 16 = 48, two block columns: 96 warps that do
// anything, each one load and one store instruction.
TEST(SeedTable, TransposeAt48CountsOnlyWarpsWithActiveLanes) {
  auto r = Cli("table transpose --n 48 --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["variants"], nlohmann::json({"copy", "naive", "shared", "shared_padded", "shared_rows"}));
  for (const char* v : {"copy", "naive", "shared", "shared_padded"}) {
    EXPECT_EQ(Row(j, "L1 read requests")["sim"][v], 96) << v;
    EXPECT_EQ(Row(j, "L1 write requests")["sim"][v], 96) << v;
    EXPECT_EQ(Row(j, "Global load instructions")["sim"][v], 96) << v;
    // A row of 48 floats is 192 bytes = 6 sectors, so every row starts on a sector: a full warp
    // reads 128 bytes (4 sectors), a half warp 64 (2 sectors): 48 x 4 + 48 x 2 = 288.
    EXPECT_EQ(Row(j, "L1 read sectors")["sim"][v], 288) << v;
  }
  // Coalesced stores as the loads: 288. Naive stores go down a column: one sector per lane,
  // 48 warps of 32 lanes + 48 of 16 = 2304.
  EXPECT_EQ(Row(j, "L1 write sectors")["sim"]["copy"], 288);
  EXPECT_EQ(Row(j, "L1 write sectors")["sim"]["naive"], 2304);
  EXPECT_EQ(Row(j, "L1 write sectors")["sim"]["shared"], 288);
  // The tile is written by rows (1 wavefront per warp) and read by columns: every active lane in
  // bank tx*32 mod 32 = 0, so as many wavefronts as active lanes: 48 x 32 + 48 x 16 = 2304.
  // Padding to 33 columns spreads the column over 32 banks: 1 per warp, 96.
  EXPECT_EQ(Row(j, "Shared memory writes")["sim"]["shared"], 96);
  EXPECT_EQ(Row(j, "Shared memory reads")["sim"]["shared"], 2304);
  EXPECT_EQ(Row(j, "Shared memory reads")["sim"]["shared_padded"], 96);
  EXPECT_EQ(Row(j, "Shared load instructions")["sim"]["shared"], 96);
  EXPECT_EQ(Row(j, "Shared memory reads")["sim"]["copy"], 0);
  // Nothing was measured at n=48: the JSON says so instead of inventing a column.
  EXPECT_TRUE(j["recorded"].is_null());
  EXPECT_NE(j["notes"].dump().find("recorded sizes: 64, 4096"), std::string::npos) << j["notes"].dump();
}

// At the teaching size the recorded Nsight Compute figures sit beside the simulator's: a 64x64
// copy in 32x32 tiles is 4 blocks x 32 warps = 128 load requests of 4 sectors each, on the
// hardware as in the simulator.
TEST(SeedTable, RecordedNcuFiguresSitBesideTheSimulatorsAtTheTeachingSize) {
  auto r = Cli("table transpose --json", false);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["recorded"].is_null());
  EXPECT_NE(j["recorded"]["device"].get<std::string>().find("H100"), std::string::npos);
  EXPECT_EQ(Row(j, "L1 read requests")["sim"]["copy"], 128);
  EXPECT_EQ(Row(j, "L1 read requests")["ncu"]["copy"], 128);
  EXPECT_EQ(Row(j, "L1 read sectors")["ncu"]["copy"], 512);
  // A copy reads each sector once: the hardware's L1 cannot hit (every lookup a cold miss).
  EXPECT_EQ(Row(j, "L1 hit rate")["ncu"]["copy"], 0);
  // Duration has no simulated value: its sim entry is null, not zero.
  EXPECT_TRUE(Row(j, "Duration")["sim_metric"].is_null());
  EXPECT_TRUE(Row(j, "Duration")["sim"]["copy"].is_null());
  EXPECT_GT(Row(j, "Duration")["ncu"]["copy"].get<double>(), 0);
}

TEST(SeedTable, CsvHasAHeaderWithOneColumnPerVariantAndEqualFieldCounts) {
  auto r = Cli("table divergence --csv", false);
  ASSERT_EQ(r.code, 0) << r.out;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "row,unit,metric,source,divergent,split");
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    // Labels are quoted and have no commas: 4 fields before the 2 variant columns.
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 5) << line;
    EXPECT_TRUE(line.find(",sim,") != std::string::npos || line.find(",ncu,") != std::string::npos) << line;
  }
  EXPECT_GE(lines, int(ws::app::SeedTableRows().size()));
}

TEST(SeedTable, TextHasOneColumnPerVariantAndNamesTheRecordingDevice) {
  auto r = Cli("table pairs", false);
  ASSERT_EQ(r.code, 0) << r.out;
  std::istringstream in(r.out);
  std::string title, header;
  std::getline(in, title);
  std::getline(in, header);
  EXPECT_NE(title.find("Nsight Compute on NVIDIA H100"), std::string::npos) << title;
  for (const char* v : {"v1", "v2", "v2_diagonal", "v3"}) EXPECT_NE(header.find(v), std::string::npos) << v;
}

TEST(SeedTable, UnknownFamilyIsExitCode2WithTheKnownOnes) {
  auto r = Cli("table nonesuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("known: "), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(Cli("table transpose --json --csv").code, 2);
}

TEST(SeedTable, GpuFlagWithoutADeviceSaysSoAndStillPrintsTheTable) {
  auto r = Cli("table divergence --gpu");
  if (r.out.find("no live GPU figures") == std::string::npos) GTEST_SKIP() << "a GPU answered here";
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("L1 read requests"), std::string::npos) << r.out;
}

// The table reads the simulator's counters through sim::Metrics: a request count set by hand
// comes out in its row, and rows the simulator has no counter for stay empty and are named.
TEST(SeedTable, RowsReadTheSimulatorsMetricsAndNameWhatIsNotSimulated) {
  ws::sim::Counters c;
  c.global_requests[0] = 7;   // ld
  c.global_sectors[1] = 13;   // st
  c.shared_wavefronts[0] = 5;
  const auto t = ws::app::BuildSeedTable("toy", 1, {"a"}, {c}, nullptr, {}, "");
  auto sim = [&](const std::string& label) {
    for (size_t r = 0; r < t.rows.size(); ++r)
      if (t.rows[r].label == label) return t.cells[r][0].sim;
    ADD_FAILURE() << label;
    return std::optional<double>();
  };
  EXPECT_EQ(sim("L1 read requests"), 7);
  EXPECT_EQ(sim("Global load instructions"), 7);  // one request per warp instruction
  EXPECT_EQ(sim("L1 write sectors"), 13);
  EXPECT_EQ(sim("Shared memory reads"), 5);
  EXPECT_FALSE(sim("Duration").has_value());
  std::ostringstream out;
  ws::app::PrintSeedTable(out, t);
  EXPECT_EQ(out.str().find("ncu"), std::string::npos) << "no recorded file: no ncu lines";
}

// With live GPU figures the table keeps Nsight Compute's recorded lines: the Duration row shows
// ncu's 8100 ns as 0.0081 ms above the GPU's 0.0093 ms, and a counter row its ncu line (table
// shortcut --gpu on an H100 printed both; this holds it without a GPU).
TEST(SeedTable, LiveFiguresKeepTheRecordedNcuLines) {
  ws::sim::Counters c;
  c.global_requests[0] = 7;
  ws::kernels::RecordedNcu rec;
  rec.device = "NVIDIA H100 80GB HBM3";
  rec.date = "2026-11-22";
  rec.runs.push_back({"toy/a", 1, {{"gpu__time_duration.sum", 8100.0}, {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 7.0}}});
  const auto t = ws::app::BuildSeedTable("toy", 1, {"a"}, {c}, &rec, {0.0093}, "NVIDIA H100 80GB HBM3");
  std::ostringstream out;
  ws::app::PrintSeedTable(out, t);
  const std::string text = out.str();
  EXPECT_NE(text.find("; ncu = Nsight Compute on NVIDIA H100 80GB HBM3 (2026-11-22); gpu = measured now on"),
            std::string::npos) << text;
  std::istringstream lines(text);
  std::string line;
  bool duration_ncu = false, duration_gpu = false, requests_ncu = false, in_requests = false;
  while (std::getline(lines, line)) {
    if (line.rfind("L1 read requests", 0) == 0) in_requests = true;
    else if (!line.empty() && line[0] != ' ') in_requests = false;
    if (line.rfind("Duration (ms)", 0) == 0) duration_ncu = line.find("ncu") != std::string::npos && line.find("0.0081") != std::string::npos;
    if (line.find(" gpu ") != std::string::npos && line.find("0.0093") != std::string::npos) duration_gpu = true;
    if (in_requests && line.find(" ncu ") != std::string::npos && line.find(" 7") != std::string::npos) requests_ncu = true;
  }
  EXPECT_TRUE(duration_ncu) << text;
  EXPECT_TRUE(duration_gpu) << text;
  EXPECT_TRUE(requests_ncu) << text;
}
