// The command line as a user meets it: exit codes, one-line messages, JSON keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

namespace {

struct Result {
  int code = -1;
  std::string out;
};

Result RunCli(const std::string& args) {
  Result r;
  std::string cmd = std::string(WARPSCOPE_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace

TEST(Cli, UnknownVariantIsExitCode2WithOneLine) {
  auto r = RunCli("stats transpose/nonesuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("unknown variant 'transpose/nonesuch'"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(Cli, NonPositiveSizeIsExitCode2) {
  EXPECT_EQ(RunCli("stats transpose/naive --n 0").code, 2);
  EXPECT_EQ(RunCli("stats transpose/naive --n -5").code, 2);
}

TEST(Cli, SizeOverTheMemoryCapIsExitCode2) {
  auto r = RunCli("stats transpose/naive --n 100000000");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("limit"), std::string::npos) << r.out;
}

TEST(Cli, BlockShapeTheVariantCannotTakeIsExitCode2) {
  auto r = RunCli("stats transpose/shared --n 64 --block 16x16");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("32x32"), std::string::npos) << r.out;
  EXPECT_EQ(RunCli("stats transpose/shared --n 64 --block 0x4").code, 2);
  EXPECT_EQ(RunCli("stats transpose/shared --n 64 --block banana").code, 2);
}

TEST(Cli, TraceOfAWarpOutsideTheBlockIsExitCode2) {
  EXPECT_EQ(RunCli("trace transpose/naive --n 64 --block 0 --warp 32").code, 2);  // 1024 threads = 32 warps
  EXPECT_EQ(RunCli("trace transpose/naive --n 64 --block 4 --warp 0").code, 2);   // 2x2 grid
}

TEST(Cli, StatsJsonCarriesNsightComputeMetricNames) {
  auto r = RunCli("stats transpose/naive --n 64 --json");
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
  auto r = RunCli("trace transpose/copy --n 64 --block 0 --warp 0 --csv --steps 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3);  // header + ld + st
  EXPECT_NE(r.out.find("lane31"), std::string::npos);
}

TEST(Cli, ListNamesEveryTransposeVariant) {
  auto r = RunCli("list");
  ASSERT_EQ(r.code, 0);
  for (const char* v : {"transpose/copy", "transpose/naive", "transpose/shared", "transpose/shared_padded"})
    EXPECT_NE(r.out.find(v), std::string::npos) << v;
}
