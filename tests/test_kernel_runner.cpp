// A student's kernel file can never take warpscope down: each way a file's own code kills its
// process (abort, exit, a corrupted heap, stack smashing, an endless loop in host code) is one
// error naming the file, the kernel and the line, and warpscope goes on with the same file; the
// memory errors the dialect cannot see (a local array or a new[] block overrun) are found at
// their lines; what a kernel prints comes back per launch.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "kernels/catalog.h"
#include "kernels/user_file.h"
#include "tests/kernel_file_support.h"
#include "toolchain/runner.h"
#include "toolchain/runner_protocol.h"
#include "toolchain/trace_codec.h"

using namespace ws;
using namespace ws::test;

namespace {

// One kernel per death; the line numbers in the comments are the file's.
const char* kDeaths =
    "// a student's file\n"                                                            // 1
    "__global__ void fill(Global<int> y, int n) {\n"                                   // 2
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                               // 3
    "  int local[4];\n"                                                                // 4
    "  for (int j = 0; j <= i % 8; ++j) local[j] = j;\n"                               // 5
    "  if (i < n) y[i] = local[0];\n"                                                  // 6
    "}\n"                                                                              // 7
    "__global__ void plain(Global<int> y, int n) {\n"                                  // 8
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                               // 9
    "  if (i < n) { y[i] = i; if (i == 1) printf(\"thread %d of %d\\n\", i, n); }\n"   // 10
    "}\n"                                                                              // 11
    "// the kernels' descriptions, one way to die each\n"                              // 12
    "WS_KERNEL(good, .title = \"a good kernel\", .teaching_n = 64) {\n"                // 13
    "  auto y = k.Output<int>(\"y\", k.n);\n"                                          // 14
    "  printf(\"before\\n\");\n"                                                       // 15
    "  k.Launch(dim3(1), dim3(64), plain, y, k.n);\n"                                  // 16
    "}\n"                                                                              // 17
    "WS_KERNEL(local_overrun, .title = \"a local array overrun\", .teaching_n = 64) {\n"  // 18
    "  auto y = k.Output<int>(\"y\", k.n);\n"                                          // 19
    "  k.Launch(dim3(1), dim3(64), fill, y, k.n);\n"                                   // 20
    "}\n"                                                                              // 21
    "WS_KERNEL(new_overrun, .title = \"a new[] overrun\", .teaching_n = 64) {\n"       // 22
    "  int* a = new int[4];\n"                                                         // 23
    "  for (int j = 0; j < 8; ++j) a[j] = j;\n"                                        // 24
    "  auto y = k.Output<int>(\"y\", k.n); k.Launch(dim3(1), dim3(64), plain, y, a[1]);\n"  // 25
    "}\n"                                                                              // 26
    "WS_KERNEL(aborts, .title = \"abort\", .teaching_n = 64) {\n"                      // 27
    "  abort();\n"                                                                     // 28
    "}\n"                                                                              // 29
    "WS_KERNEL(exits, .title = \"exit\", .teaching_n = 64) {\n"                        // 30
    "  exit(3);\n"                                                                     // 31
    "}\n"                                                                              // 32
    "WS_KERNEL(endless, .title = \"endless\", .teaching_n = 64) {\n"                   // 33
    "  volatile int s = 0;\n"                                                          // 34
    "  while (true) s = s + 1;\n"                                                      // 35
    "}\n"                                                                              // 36
    "WS_KERNEL(double_free, .title = \"double free\", .teaching_n = 64) {\n"           // 37
    "  volatile int* p = (int*)malloc(16);\n"                                          // 38
    "  p[0] = 1;\n"                                                                    // 39
    "  free((void*)p);\n"                                                              // 40
    "  free((void*)p);\n"                                                              // 41
    "}\n"                                                                              // 42
    "WS_KERNEL(smashing, .title = \"stack smashing\", .teaching_n = 64) {\n"           // 43
    "  char label[8];\n"                                                               // 44
    "  sprintf(label, \"kernel of size %d\", k.n);\n"                                   // 45
    "  auto y = k.Output<int>(\"y\", k.n);\n"                                          // 46
    "  k.Launch(dim3(1), dim3(64), plain, y, int(label[0]));\n"                                 // 47
    "}\n"                                                                              // 48
    "__global__ void big(Global<int> y, int n) {\n"                                     // 49
    "  int huge[4 << 20];\n"                                                           // 50
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                               // 51
    "  huge[i] = i;\n"                                                                 // 52
    "  if (i < n) y[i] = huge[(i * 7) % 64];\n"                                        // 53
    "}\n"                                                                              // 54
    "WS_KERNEL(big_local, .title = \"16 MB local array\", .teaching_n = 64) {\n"       // 55
    "  auto y = k.Output<int>(\"y\", k.n);\n"                                          // 56
    "  k.Launch(dim3(1), dim3(64), big, y, k.n);\n"                                    // 57
    "}\n";                                                                             // 58

struct File {
  TempDir dir;
  fs::path path = dir.path / "student.cu";
  File() { Write(path, kDeaths); }
  std::string Id(const std::string& kernel) const { return path.string() + ":" + kernel; }
};

kernels::SimOutcome RunKernel(const std::string& id) {
  const auto v = kernels::FindVariant(id);
  kernels::RunRequest r;
  r.n = v.TeachingN();
  sim::LaunchOptions opt;
  opt.watchdog_seconds = 1;  // the description's host code may run 4 s between launches
  return kernels::Simulate(v, r, opt);
}

// The error a run ends with, or "(none)".
std::string Death(const std::string& id) {
  try {
    RunKernel(id);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(none)";
}

bool FindingAt(const kernels::SimOutcome& o, const std::string& words, uint32_t line) {
  for (const auto& f : o.trace.findings)
    if (f.message.find(words) != std::string::npos && f.site >= 0 && size_t(f.site) < o.trace.sites.size() &&
        o.trace.sites[size_t(f.site)].line == line)
      return true;
  return false;
}

}  // namespace

TEST(KernelRunner, EachDeathOfTheRunnerIsOneErrorNamingFileKernelAndLineAndTheFileStillRuns) {
  File f;
  struct Case {
    const char* kernel;
    const char* head;   // the file, the WS_KERNEL's line, the kernel
    const char* what;   // what happened
    const char* line;   // where, when known
  };
  const Case cases[] = {
      {"aborts", "student.cu:27: WS_KERNEL(aborts)", "abort() was called", "at line 28"},
      {"exits", "student.cu:30: WS_KERNEL(exits)", "called exit(3)", "at line 31"},
      {"double_free", "student.cu:37: WS_KERNEL(double_free)", "a second free of a 16-byte block from malloc",
       "at line 41"},
      {"smashing", "student.cu:43: WS_KERNEL(smashing)", "stack was smashed", ""},
      {"endless", "student.cu:33: WS_KERNEL(endless)", "without launching a kernel", "at line 35"},
  };
  for (const auto& c : cases) {
    const std::string e = Death(f.Id(c.kernel));
    EXPECT_NE(e.find(c.head), std::string::npos) << e;
    EXPECT_NE(e.find(c.what), std::string::npos) << e;
    EXPECT_NE(e.find(c.line), std::string::npos) << e;
    EXPECT_NE(e.find("warpscope goes on"), std::string::npos) << e;
    // This process is alive, and the same file's good kernel still runs: 64 threads, 2 warps,
    // one store request each.
    const auto good = RunKernel(f.Id("good"));
    EXPECT_EQ(good.trace.total.global_requests[size_t(sim::Op::Store)], 2u) << c.kernel;
  }
}

TEST(KernelRunner, LocalArrayAndNewBlockOverrunsAreFoundAtTheirLines) {
  File f;
  // Thread 4 is the first whose loop reaches local[4] (j <= i % 8), on line 5: the launch stops
  // there with an out-of-bounds finding, as under compute-sanitizer.
  const auto local = RunKernel(f.Id("local_overrun"));
  EXPECT_TRUE(FindingAt(local, "indexed a local 'int [4]' array at 4", 5));
  // new int[4] on line 23 is 16 bytes; a[4] on line 24 is the first byte past it.
  const std::string e = Death(f.Id("new_overrun"));
  EXPECT_NE(e.find("student.cu:22: WS_KERNEL(new_overrun)"), std::string::npos) << e;
  EXPECT_NE(e.find("wrote past the end of a 16-byte block from new[] (allocated at line 23), 0 bytes after it at "
                   "line 24"),
            std::string::npos)
      << e;
}

TEST(KernelRunner, ALocalArrayNoGpuWouldAcceptIsAFindingNotAFault) {
  File f;
  // 4 Mi ints are 16 MiB of local memory, where a GPU allows 512 KiB per thread.
  const auto o = RunKernel(f.Id("big_local"));
  bool overflow = false;
  for (const auto& finding : o.trace.findings) overflow |= finding.kind == sim::FindingKind::StackOverflow;
  EXPECT_TRUE(overflow);
}

TEST(KernelRunner, WhatAKernelPrintsComesBackPerLaunch) {
  File f;
  const auto o = RunKernel(f.Id("good"));
  // The description printed "before" ahead of launch 1; thread 1 printed once in launch 1.
  ASSERT_EQ(o.printed.size(), 2u);
  EXPECT_EQ(o.printed[0].launch, 0);
  EXPECT_EQ(o.printed[0].text, "before\n");
  EXPECT_EQ(o.printed[1].launch, 1);
  EXPECT_EQ(o.printed[1].text, "thread 1 of 64\n");
}

// The command line shows what was printed in a section of its own after the counters, and its
// JSON carries it as a "printf" array, the output staying one JSON document; trace --csv leaves
// the CSV alone and prints it on stderr.
TEST(KernelRunnerCli, PrintfIsASectionOfItsOwnAndAnArrayInJson) {
  File f;
  const auto text = Cli("stats " + f.Id("good"), false);
  ASSERT_EQ(text.code, 0) << text.out;
  EXPECT_NE(text.out.find("printf output (in the order printed, per launch):\n  the description, between launches:\n    before\n"
                          "  launch 1:\n    thread 1 of 64\n"),
            std::string::npos)
      << text.out;
  const auto json = Cli("stats " + f.Id("good") + " --json", false);
  ASSERT_EQ(json.code, 0) << json.out;
  const auto j = nlohmann::json::parse(json.out);  // throws where printf text strayed into it
  ASSERT_EQ(j["printf"].size(), 2u) << json.out;
  EXPECT_EQ(j["printf"][0]["launch"], 0);
  EXPECT_EQ(j["printf"][0]["text"], "before\n");
  EXPECT_EQ(j["printf"][1]["launch"], 1);
  EXPECT_EQ(j["printf"][1]["text"], "thread 1 of 64\n");
  const auto trace = Cli("trace " + f.Id("good") + " --block 0 --warp 0 --json", false);
  ASSERT_EQ(trace.code, 0) << trace.out;
  EXPECT_EQ(nlohmann::json::parse(trace.out)["printf"].size(), 2u);
  const auto csv = Cli("trace " + f.Id("good") + " --block 0 --warp 0 --csv", false);
  ASSERT_EQ(csv.code, 0) << csv.out;
  EXPECT_EQ(csv.out.find("thread 1 of 64"), std::string::npos) << csv.out;
  EXPECT_EQ(Cli("stats transpose/naive --n 64 --json", false).out.find("\"printf\""), std::string::npos);
}

TEST(KernelRunnerCli, ADeathIsExitCode1WithOneLineAndJsonStaysJson) {
  File f;
  const auto r = Cli("stats " + f.Id("aborts") + " --json");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;  // one line
  EXPECT_EQ(r.out.rfind("warpscope: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("abort() was called at line 28"), std::string::npos) << r.out;
}

// What the runner sends back reads back as it was sent: a catalog kernel's whole-block trace with
// the L1's events, as the GUI asks for it (the L1 changes in the order the SM serves warps, not
// the order the trace lists them, so its per-instruction counts are not ascending).
TEST(KernelRunner, ABlocksTraceWithItsL1EventsCrossesTheBoundaryWhole) {
  const auto v = kernels::FindVariant("transpose/naive");
  kernels::RunRequest r;
  r.n = v.TeachingN();
  sim::LaunchOptions opt;
  opt.selection = {sim::Selection::Kind::Block, 0, 0};
  const auto sent = kernels::Simulate(v, r, opt).trace;
  ASSERT_FALSE(sent.caches.l1_events.empty());
  toolchain::wire::Writer w;
  toolchain::EncodeTrace(sent, w);
  toolchain::wire::Reader in(w.bytes());
  const auto got = toolchain::DecodeTrace(in);
  EXPECT_TRUE(in.AtEnd());
  ASSERT_EQ(got.instructions.size(), sent.instructions.size());
  EXPECT_EQ(got.caches.l1_events_until, sent.caches.l1_events_until);
  ASSERT_EQ(got.caches.l1_events.size(), sent.caches.l1_events.size());
  for (size_t i = 0; i < got.caches.l1_events.size(); ++i) {
    EXPECT_EQ(got.caches.l1_events[i].line, sent.caches.l1_events[i].line);
    EXPECT_EQ(got.caches.l1_events[i].slot, sent.caches.l1_events[i].slot);
  }
  // And the L2 lines of its steps (the naive transpose's loads and stores all reach L2).
  ASSERT_FALSE(sent.caches.l2_lines.empty());
  EXPECT_EQ(got.caches.l2_sets, sent.caches.l2_sets);
  EXPECT_EQ(got.caches.l2_ways, sent.caches.l2_ways);
  ASSERT_EQ(got.caches.l2_steps.size(), sent.caches.l2_steps.size());
  for (size_t i = 0; i < got.caches.l2_steps.size(); ++i) {
    EXPECT_EQ(got.caches.l2_steps[i].begin, sent.caches.l2_steps[i].begin);
    EXPECT_EQ(got.caches.l2_steps[i].end, sent.caches.l2_steps[i].end);
  }
  ASSERT_EQ(got.caches.l2_lines.size(), sent.caches.l2_lines.size());
  for (size_t i = 0; i < got.caches.l2_lines.size(); ++i) {
    const auto &a = got.caches.l2_lines[i], &b = sent.caches.l2_lines[i];
    EXPECT_TRUE(a.line == b.line && a.evicted == b.evicted && a.set == b.set && a.way == b.way && a.valid == b.valid &&
                a.hit == b.hit && a.dram == b.dram && a.merged == b.merged && a.ways_first == b.ways_first)
        << "L2 line " << i;
  }
  ASSERT_EQ(got.caches.l2_set_ways.size(), sent.caches.l2_set_ways.size());
  for (size_t i = 0; i < got.caches.l2_set_ways.size(); ++i)
    EXPECT_TRUE(got.caches.l2_set_ways[i].line == sent.caches.l2_set_ways[i].line &&
                got.caches.l2_set_ways[i].valid == sent.caches.l2_set_ways[i].valid) << "L2 set slot " << i;
  for (int op = 0; op < 4; ++op) {
    EXPECT_EQ(got.total.global_requests[op], sent.total.global_requests[op]);
    EXPECT_EQ(got.total.global_sectors[op], sent.total.global_sectors[op]);
  }
  EXPECT_EQ(got.per_line.size(), sent.per_line.size());
  EXPECT_EQ(got.findings.size(), sent.findings.size());
}

// The one description of the format reads back what it wrote: a block's trace decoded and encoded
// again gives the same bytes, and every cut of those bytes is a BadBytes error, never a crash or a
// trace made of what was left.
TEST(KernelRunner, ATraceReadBackWritesTheSameBytesAndEveryCutIsAnError) {
  const auto v = kernels::FindVariant("transpose/shared");
  kernels::RunRequest r;
  r.n = 48;  // not a multiple of the 32x32 tile: masked lanes
  sim::LaunchOptions opt;
  opt.selection = {sim::Selection::Kind::Block, 3, 0};
  const auto sent = kernels::Simulate(v, r, opt).trace;
  ASSERT_FALSE(sent.instructions.empty());
  toolchain::wire::Writer w;
  toolchain::EncodeTrace(sent, w);
  const std::string bytes = w.bytes();
  toolchain::wire::Reader in(bytes);
  const auto got = toolchain::DecodeTrace(in);
  EXPECT_TRUE(in.AtEnd());
  toolchain::wire::Writer again;
  toolchain::EncodeTrace(got, again);
  EXPECT_EQ(again.bytes(), bytes);
  for (size_t i = 0; i < got.instructions.size(); ++i) {
    EXPECT_EQ(got.instructions[i].mask, sent.instructions[i].mask) << i;
    for (int lane = 0; lane < sim::kWarpSize; ++lane)
      if (sent.instructions[i].mask >> lane & 1) EXPECT_EQ(got.instructions[i].addr[lane], sent.instructions[i].addr[lane]);
  }
  for (size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 500) {
    toolchain::wire::Reader part(std::string_view(bytes).substr(0, cut));
    EXPECT_THROW(toolchain::DecodeTrace(part), toolchain::wire::BadBytes) << "cut at " << cut << " of " << bytes.size();
  }
}

// The request and the reply are each written once (toolchain/runner_protocol.cpp): every field
// set away from its default comes back as it was sent, encoding what was decoded gives the same
// bytes, and every cut of them is a BadBytes error.
TEST(KernelRunner, ARequestAndItsRepliesReadBackAsSentAndEveryCutIsAnError) {
  toolchain::RunnerRequest q;
  q.op = toolchain::RunnerRequest::Op::Simulate;
  q.library = "/cache/ab12.so", q.file = "k.cu", q.text = "__global__ void k() {}\n", q.kernel = "k";
  q.run.n = -7, q.run.block = {64, 2, 3}, q.run.seed = 0x123456789abcdefull;
  q.options.selection = {sim::Selection::Kind::Block, 5, 6};
  q.options.max_trace_instructions = 11, q.options.max_findings = 12, q.options.progress_budget = 13;
  q.options.watchdog_seconds = 0.25, q.options.max_threads = 14, q.options.caches = false;
  q.device = "H200", q.options.registers_per_thread = 40;
  const std::string qb = toolchain::EncodeRequest(q);
  const auto gq = toolchain::DecodeRequest(qb);
  EXPECT_EQ(gq.op, q.op);
  EXPECT_EQ(gq.library + gq.file + gq.text + gq.kernel + gq.device, q.library + q.file + q.text + q.kernel + q.device);
  EXPECT_EQ(gq.run.n, -7);
  EXPECT_EQ(gq.run.block.x * 100 + gq.run.block.y * 10 + gq.run.block.z, 6423u);
  EXPECT_EQ(gq.run.seed, q.run.seed);
  EXPECT_EQ(gq.options.selection.kind, sim::Selection::Kind::Block);
  EXPECT_EQ(gq.options.selection.block, 5u);
  EXPECT_EQ(gq.options.selection.warp, 6u);
  EXPECT_EQ(gq.options.max_trace_instructions + gq.options.max_findings + gq.options.progress_budget + gq.options.max_threads,
            11u + 12 + 13 + 14);
  EXPECT_EQ(gq.options.watchdog_seconds, 0.25);
  EXPECT_FALSE(gq.options.caches);
  EXPECT_EQ(gq.options.registers_per_thread, 40u);
  EXPECT_EQ(toolchain::EncodeRequest(gq), qb);

  using Op = toolchain::RunnerRequest::Op;
  toolchain::RunnerReply described;
  described.kernels.push_back({"k", "A kernel", "watch", "n floats", "My file", 1000, 1 << 20, -3, 42});
  described.kernels.push_back({"k2", "", "", "", "", 0, 0, 0, 0});
  toolchain::RunnerReply simulated;
  simulated.outcome.check = {true, 1.5, 0.5, 9, "first at 3"};
  simulated.outcome.printed = {{0, "host\n"}, {2, "lane 0\n"}};
  simulated.outcome.printed_cut = true;
  simulated.outcome.trace.shape.grid = {4, 1, 1};
  simulated.outcome.trace.shape.block = {32, 1, 1};
  toolchain::RunnerReply failed;
  failed.error = "no kernel named x";
  failed.stopped = true;
  for (const auto& [op, sent] : {std::pair{Op::Describe, &described}, std::pair{Op::Simulate, &simulated},
                                 std::pair{Op::Simulate, &failed}}) {
    const std::string bytes = toolchain::EncodeReply(op, *sent);
    const auto got = toolchain::DecodeReply(op, bytes);
    EXPECT_EQ(got.error, sent->error);
    EXPECT_EQ(got.stopped, sent->stopped);
    EXPECT_EQ(toolchain::EncodeReply(op, got), bytes);
    for (size_t cut = 0; cut < bytes.size(); ++cut)
      EXPECT_THROW(toolchain::DecodeReply(op, bytes.substr(0, cut)), toolchain::wire::BadBytes) << "cut at " << cut;
  }
  const auto d = toolchain::DecodeReply(Op::Describe, toolchain::EncodeReply(Op::Describe, described));
  ASSERT_EQ(d.kernels.size(), 2u);
  EXPECT_EQ(d.kernels[0].name + "|" + d.kernels[0].title + "|" + d.kernels[0].watch + "|" + d.kernels[0].size_meaning +
                "|" + d.kernels[0].family_title,
            "k|A kernel|watch|n floats|My file");
  EXPECT_EQ(d.kernels[0].teaching_n, 1000);
  EXPECT_EQ(d.kernels[0].timing_n, 1 << 20);
  EXPECT_EQ(d.kernels[0].max_n, -3);
  EXPECT_EQ(d.kernels[0].line, 42);
  const auto s = toolchain::DecodeReply(Op::Simulate, toolchain::EncodeReply(Op::Simulate, simulated));
  EXPECT_TRUE(s.outcome.check.passed);
  EXPECT_EQ(s.outcome.check.max_abs_error, 1.5);
  EXPECT_EQ(s.outcome.check.max_rel_error, 0.5);
  EXPECT_EQ(s.outcome.check.mismatches, 9u);
  EXPECT_EQ(s.outcome.check.detail, "first at 3");
  ASSERT_EQ(s.outcome.printed.size(), 2u);
  EXPECT_EQ(s.outcome.printed[1].launch, 2);
  EXPECT_EQ(s.outcome.printed[1].text, "lane 0\n");
  EXPECT_TRUE(s.outcome.printed_cut);
  EXPECT_EQ(s.outcome.trace.shape.grid.x, 4u);
  // A reply that goes on after its end is refused.
  EXPECT_THROW(toolchain::DecodeReply(Op::Describe, toolchain::EncodeReply(Op::Describe, described) + "x"),
               toolchain::wire::BadBytes);
}
