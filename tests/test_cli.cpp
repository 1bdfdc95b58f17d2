// The command line as a user meets it: exit codes, one-line messages, JSON keys.
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>
#include <sys/wait.h>

#include "app/cli.h"
#include "app/cli_commands.h"
#include "tests/cli_run.h"

namespace {

using ws::test::Cli;
using Result = ws::test::CliResult;

}  // namespace

TEST(Cli, DefaultThreadsAreTheCoresTheProcessMayRunOn) {
  // Pinned to one core (as `taskset -c 0` pins a run), the default is one thread: two threads on
  // one core only take turns.
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  int first = 0;
  while (!CPU_ISSET(first, &before)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const uint32_t pinned = ws::app::DefaultThreads();
  ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
  EXPECT_EQ(pinned, 1u);
  EXPECT_EQ(ws::app::DefaultThreads(), uint32_t(CPU_COUNT(&before)));
}

TEST(Cli, UnknownVariantIsExitCode2WithOneLine) {
  auto r = Cli("stats transpose/nonesuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown variant 'transpose/nonesuch'"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(Cli, NonPositiveSizeIsExitCode2) {
  EXPECT_EQ(Cli("stats transpose/naive --n 0").code, 2);
  EXPECT_EQ(Cli("stats transpose/naive --n -5").code, 2);
}

TEST(Cli, SizeOverTheMemoryCapIsExitCode2) {
  auto r = Cli("stats transpose/naive --n 100000000");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("limit"), std::string::npos) << r.out;
}

TEST(Cli, BlockShapeTheVariantCannotTakeIsExitCode2) {
  auto r = Cli("stats transpose/shared --n 64 --shape 16x16");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("32x32"), std::string::npos) << r.out;
  EXPECT_EQ(Cli("stats transpose/shared --n 64 --shape 0x4").code, 2);
  EXPECT_EQ(Cli("stats transpose/shared --n 64 --shape banana").code, 2);
}

TEST(Cli, TraceOfAWarpOutsideTheBlockIsExitCode2) {
  EXPECT_EQ(Cli("trace transpose/naive --n 64 --block 0 --warp 32").code, 2);  // 1024 threads = 32 warps
  EXPECT_EQ(Cli("trace transpose/naive --n 64 --block 4 --warp 0").code, 2);   // 2x2 grid
}

TEST(Cli, StatsJsonCarriesNsightComputeMetricNames) {
  auto r = Cli("stats transpose/naive --n 64 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  const auto& m = j["metrics"];
  for (const char* name :
       {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"})
    EXPECT_TRUE(m.contains(name)) << name;
  // 64x64 floats, 32x32 blocks: 4 blocks x 32 warps = 128 load and 128 store requests.
  EXPECT_EQ(m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].get<double>(), 128);
  EXPECT_EQ(m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"].get<double>(), 128);
  // Each store writes a column: 32 lanes in 32 different rows -> 32 sectors.
  EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"].get<double>(), 128 * 32);
  EXPECT_EQ(j["launch"]["block"][0], 32);
  EXPECT_TRUE(j["per_line"].is_object());
  EXPECT_TRUE(j["check"]["passed"].get<bool>());
}

TEST(Cli, TraceCsvHasOneRowPerInstruction) {
  auto r = Cli("trace transpose/copy --n 64 --block 0 --warp 0 --csv --steps 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3);  // header + ld + st
  EXPECT_NE(r.out.find("lane31"), std::string::npos);
}

TEST(Cli, ListNamesEveryTransposeVariant) {
  auto r = Cli("list");
  ASSERT_EQ(r.code, 0);
  for (const char* v : {"transpose/copy", "transpose/naive", "transpose/shared", "transpose/shared_padded"})
    EXPECT_NE(r.out.find(v), std::string::npos) << v;
}

// ---- edge cases: each one line on stderr and exit code 2, before anything is simulated ----

namespace {
int Lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }
bool Has(const Result& r, const std::string& part) { return r.out.find(part) != std::string::npos; }
}  // namespace

TEST(Cli, WarpIndexThatWouldWrapAroundIsRefused) {
  // 134217728 x 32 = 2^32: as a 32-bit thread index it wrapped to warp 0.
  auto r = Cli("trace transpose/naive --n 64 --block 0 --warp 134217728");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(Lines(r.out), 1) << r.out;
  EXPECT_TRUE(Has(r, "--warp 134217728 is outside a block of 1024 threads (warps 0 to 31)")) << r.out;
}

TEST(Cli, BlockIndexOutsideTheGridNamesTheGrid) {
  // shortcut v0 at n=1024: 16x16 blocks, a 64x64 grid of 4096 blocks. The refusal comes as the
  // launch starts (ReportTest's LaunchHook tests show no block runs before it).
  auto r = Cli("trace shortcut/v0 --n 1024 --block 999999 --warp 0");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(Lines(r.out), 1) << r.out;
  EXPECT_TRUE(Has(r, "--block 999999 is outside the grid of 4096 blocks (0 to 4095)")) << r.out;
}

TEST(Cli, EmptyValuesAreRefusedNotReplacedByDefaults) {
  for (const char* args : {"stats transpose/naive --n ''", "trace transpose/naive --block '' --warp 0",
                           "trace transpose/naive --block 0 --warp ''", "stats transpose/naive --shape ''",
                           "trace transpose/naive --block 0 --warp 0 --steps ''"}) {
    auto r = Cli(args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_EQ(Lines(r.out), 1) << args << ": " << r.out;
    EXPECT_TRUE(Has(r, "''")) << args << ": " << r.out;
  }
}

TEST(Cli, NumbersMustBeDecimalIntegers) {
  auto hex = Cli("stats transpose/naive --n 0x40");
  EXPECT_EQ(hex.code, 2);
  EXPECT_TRUE(Has(hex, "--n '0x40' is not a decimal integer")) << hex.out;
  auto exponent = Cli("trace transpose/naive --block 0 --warp 0 --steps 1e20");
  EXPECT_EQ(exponent.code, 2);
  EXPECT_TRUE(Has(exponent, "--steps '1e20' is not a decimal integer")) << exponent.out;
  EXPECT_EQ(Cli("stats transpose/naive --n 64.0").code, 2);
  EXPECT_EQ(Cli("stats transpose/naive --n ' 64'").code, 2);
}

TEST(Cli, NegativeStepsAreOutOfRangeNotAll) {
  auto r = Cli("trace transpose/naive --block 0 --warp 0 --steps -1");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(Lines(r.out), 1) << r.out;
  EXPECT_TRUE(Has(r, "--steps -1 is out of range: it must be from 1 to 1000000000")) << r.out;
}

TEST(Cli, BenchRunsOutOfRangeGivesAShortMessageInIntegers) {
  auto r = Cli("bench --runs 0");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "warpscope: --runs 0 is out of range: it must be from 1 to 1000\n");
  EXPECT_EQ(Cli("bench --runs 1001").code, 2);
}

TEST(Cli, RecordedBenchAtASizeNeverRecordedNamesTheRecordedSizes) {
  // assets/recorded/NVIDIA_H200.json holds n = 4096, 8192, 16384 (matrices) and 16777216,
  // 67108864 (element counts); transpose/naive only at 8192.
  auto all = Cli("bench --recorded --n 7");
  EXPECT_EQ(all.code, 2);
  EXPECT_EQ(all.out, "warpscope: no recorded result for any variant at n=7; recorded sizes: 4096, 8192, 16384, "
                     "16777216, 67108864\n");
  auto one = Cli("bench transpose/naive --recorded --n 7");
  EXPECT_EQ(one.code, 2);
  EXPECT_TRUE(Has(one, "no recorded result for transpose/naive at n=7; recorded sizes: 8192")) << one.out;
}

TEST(Cli, BlockIsAnIndexAndShapeIsAShapeInEveryCommand) {
  auto old = Cli("stats transpose/naive --n 64 --block 16x16");
  EXPECT_EQ(old.code, 2);
  EXPECT_TRUE(Has(old, "--shape")) << old.out;
  // The same shape flag in stats and trace. transpose/shared_rows at n=64: 32x4 threads per
  // 32x32 tile, a 2x2 grid of 4 blocks of 128 threads (4 warps each).
  EXPECT_EQ(Cli("stats transpose/shared_rows --n 64 --shape 32x4").code, 0);
  auto trace = Cli("trace transpose/shared_rows --n 64 --shape 32x4 --block 3 --warp 3 --steps 1 --csv");
  EXPECT_EQ(trace.code, 0) << trace.out;
  EXPECT_TRUE(Has(Cli("trace transpose/shared_rows --n 64 --shape 32x4 --block 4 --warp 0"),
                  "--block 4 is outside the grid of 4 blocks"));
  EXPECT_TRUE(Has(Cli("trace transpose/shared_rows --n 64 --shape 32x4 --block 0 --warp 4"),
                  "--warp 4 is outside a block of 128 threads"));
}

// `warpscope gui --help` is the GUI's own help: every flag a scripted run or a lecturer uses,
// printed without opening a window (no display is needed).
TEST(Cli, GuiHelpListsEveryGuiFlag) {
  if (Cli("--help").out.find(" gui") == std::string::npos) GTEST_SKIP() << "built without the GUI";
  auto r = Cli("gui --help");
  EXPECT_EQ(r.code, 0) << r.out;
  for (const char* flag : {"--variant", "--compare", "--no-compare", "--n", "--block", "--warp", "--step", "--iteration",
                           "--whole-block", "--focus", "--keys", "--scale", "--size", "--fullscreen", "--screenshot",
                           "--layout-out", "--frames", "--quit", "--benchmark-frames", "--no-settings", "--present"})
    EXPECT_NE(r.out.find(std::string(flag) + " "), std::string::npos) << flag << " missing from:\n" << r.out;
}

TEST(Cli, BudgetFlagsAreStrictIntegers) {
  for (const char* flag : {"--progress-budget", "--step-budget", "--watchdog", "--max-threads"}) {
    EXPECT_EQ(Cli(std::string("stats transpose/naive --n 64 ") + flag + " ''").code, 2) << flag;
    EXPECT_EQ(Cli(std::string("stats transpose/naive --n 64 ") + flag + " 0").code, 2) << flag;
  }
}

TEST(Cli, LaunchOverMaxThreadsIsRefusedWithItsSize) {
  // transpose at n=64 launches 2x2 blocks of 32x32 threads: 4096 threads, over a limit of 100.
  auto r = Cli("stats transpose/naive --n 64 --max-threads 100");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(Has(r, "4096 threads are over the simulator's limit of 100")) << r.out;
}

TEST(Cli, CtrlCStopsASimulationAndSaysWhere) {
  // shortcut/v0 at n=1024 runs for tens of seconds; SIGINT after 1 s must end it at once.
  const auto t0 = std::chrono::steady_clock::now();
  auto r = Cli("stats shortcut/v0 --n 1024 2>&1 & pid=$!; sleep 1; kill -INT $pid; wait $pid; echo exit=$?");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(Has(r, "interrupted: the simulation of shortcut/v0 stopped after")) << r.out;
  EXPECT_TRUE(Has(r, "exit=1")) << r.out;
  EXPECT_LT(s, 10.0) << r.out;
}

// Without the cache model there is nothing to report for L1, L2 and DRAM: those counters are left
// out of the JSON and the text, not printed as zeros, and the text says why. With it they are there.
// transpose/copy at n=64 reads 64*64 floats = 16 KiB once, a cold L2 misses every sector:
// dram__bytes_read.sum = 16384.
TEST(Cli, CacheCountersOnlyWhenTheCachesAreSimulated) {
  const auto off = Cli("stats transpose/copy --n 64 --no-caches --json");
  ASSERT_EQ(off.code, 0) << off.out;
  const auto joff = nlohmann::json::parse(off.out, nullptr, false);
  ASSERT_TRUE(joff.is_object()) << off.out;
  EXPECT_TRUE(joff["metrics"].contains("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
  for (const char* name : {"l1tex__t_sector_hit_rate.pct", "lts__t_sectors_srcunit_tex_op_read.sum", "dram__bytes_read.sum"})
    EXPECT_FALSE(joff["metrics"].contains(name)) << name;
  const auto text = Cli("stats transpose/copy --n 64 --no-caches");
  EXPECT_NE(text.out.find("caches: not simulated"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("dram__bytes_read.sum"), std::string::npos) << text.out;

  const auto on = Cli("stats transpose/copy --n 64 --json");
  const auto jon = nlohmann::json::parse(on.out, nullptr, false);
  ASSERT_TRUE(jon.is_object()) << on.out;
  // in: 64 x 64 floats = 512 sectors, read from DRAM in 256 pairs of 64 B, the launch's own
  // 2512 B (parameters, constants) and the kernel's code: copy_kernel's SASS through its last
  // instruction before the padding NOPs, as `warpscope sass --all` lists it (48 B, an empty
  // kernel's, where this build has no GPU code).
  uint32_t code = 48;
  const auto sass = Cli("sass transpose/copy --all --json");
  if (const auto js = nlohmann::json::parse(sass.out, nullptr, false); sass.code == 0 && js.is_object()) {
    const auto& ins = js["kernels"][0]["instructions"];
    for (const auto& i : ins)
      if (i["opcode"].get<std::string>().rfind("NOP", 0) != 0) code = i["offset"].get<uint32_t>() + 16;
  }
  EXPECT_EQ(jon["caches"].value("code_bytes", 0u), code);
  EXPECT_EQ(jon["metrics"].value("dram__bytes_read.sum", -1.0), 256.0 * 64 + 2512 + code);
}

// `warpscope --version` prints one line, "warpscope VERSION (commit C)", exit 0, where C is the
// source tree's commit as git names it (the test's own checkout, built with it).
TEST(Cli, VersionPrintsTheVersionAndTheCommit) {
  auto r = Cli("--version");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(r.out.rfind("warpscope 0.1.0 (commit ", 0), 0u) << r.out;
  FILE* git = popen("git -C " WARPSCOPE_SOURCE_DIR " rev-parse --short=12 HEAD 2>/dev/null", "r");
  char head[64] = {};
  const bool have = git && std::fgets(head, sizeof head, git) != nullptr;
  if (git) pclose(git);
  if (!have) GTEST_SKIP() << "the source tree is not a git checkout";
  std::string commit(head);
  commit.erase(commit.find_last_not_of("\n") + 1);
  ASSERT_EQ(commit.size(), 12u) << commit;
  EXPECT_NE(r.out.find(commit), std::string::npos) << r.out << " (HEAD is " << commit << ")";
}

// A bench report names only what it knows: no "(, date)" where the driver is not known, and "-"
// for GB/s without the bytes moved and for % peak without a ceiling (a single launch measures no
// copy bandwidth); the figures it knows as they are.
TEST(Cli, BenchTableSaysDashForWhatItDoesNotKnow) {
  ws::kernels::BenchReport r;
  r.device = "NVIDIA H200";
  r.date = "2026-11-27";
  r.runs = 1;
  ws::kernels::Timing t;
  t.variant = "/tmp/a.cu:scale";
  t.n = 1000;
  t.runs = 1;
  t.ms_median = t.ms_min = t.ms_max = 0.5;
  t.check.passed = true;
  r.timings.push_back(t);
  t.variant = "/tmp/a.cu:copy";
  t.gbps = 12.5;  // 6.25 MB in 0.5 ms
  t.peak = 250;
  t.pct_of_peak = 5;
  r.timings.push_back(t);
  std::ostringstream out;
  ws::app::cli::PrintBench(out, r);
  const std::string text = out.str();
  EXPECT_EQ(text.substr(0, text.find('\n')), "measured on NVIDIA H200 (2026-11-27)") << text;
  std::istringstream lines(text);
  std::string line, scale, copy;
  while (std::getline(lines, line)) {
    if (line.rfind("/tmp/a.cu:scale", 0) == 0) scale = line;
    if (line.rfind("/tmp/a.cu:copy", 0) == 0) copy = line;
  }
  std::istringstream a(scale), b(copy);
  std::vector<std::string> wa{std::istream_iterator<std::string>(a), {}}, wb{std::istream_iterator<std::string>(b), {}};
  // variant n ms spread GB/s Gop/s %peak speed-up check
  ASSERT_EQ(wa.size(), 9u) << scale;
  EXPECT_EQ(wa[4], "-");
  EXPECT_EQ(wa[6], "-");
  ASSERT_EQ(wb.size(), 9u) << copy;
  EXPECT_EQ(wb[4], "12.5");
  EXPECT_EQ(wb[6], "5.0%");
  EXPECT_NE(text.find("GB/s of a kernel file: the bytes of the arrays its description declares"), std::string::npos);
  r.driver = "CUDA driver 13.0, runtime 13.0";
  std::ostringstream with_driver;
  ws::app::cli::PrintBench(with_driver, r);
  EXPECT_EQ(with_driver.str().rfind("measured on NVIDIA H200 (CUDA driver 13.0, runtime 13.0, 2026-11-27)\n", 0), 0u);
  r.device = r.driver = "";
  std::ostringstream unnamed;
  ws::app::cli::PrintBench(unnamed, r);
  EXPECT_EQ(unnamed.str().rfind("measured on a device that was not named (the GPU program stopped first) (2026-11-27)\n", 0), 0u)
      << unnamed.str();
}
