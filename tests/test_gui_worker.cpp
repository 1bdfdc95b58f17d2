// The GUI's simulation worker can always be stopped: Cancel ends a running simulation, and
// destroying the worker (closing the window) does too, so the program always exits; a job can
// turn the cache model off; A and B simulate at the same time, and stopping one leaves the other.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>

#include <sys/resource.h>

#include "app/cli.h"
#include "app/gui_worker.h"

namespace {
using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// shortcut/v1 at n=1024 simulates for many seconds: long enough to be caught running.
ws::app::SimJob LongJob() { return {.pane = 0, .generation = 1, .variant = "shortcut/v1", .n = 1024}; }

void WaitUntilBlocksRun(const ws::app::SimWorker& w, int pane = 0) {
  const auto t0 = Clock::now();
  while (w.Progress(pane).blocks_done == 0 && Since(t0) < 60)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}
// A picture before the one with every step's marks: the block's steps without marks
// (SimResult::marks_pending) or with the marks of its first steps (a prefix picture,
// sim/prefix_pass.h).
bool BeforeMarks(const ws::app::SimResult& r) {
  return r.marks_pending || (r.first_picture && r.outcome && r.outcome->trace.caches.final_steps != SIZE_MAX);
}
// The results Poll gives within `seconds` (empty if none came), but for a launch's pictures before
// its marks (BeforeMarks; ALaunchOfSeveralWaves... checks those).
std::vector<ws::app::SimResult> PollFor(ws::app::SimWorker& w, double seconds) {
  std::vector<ws::app::SimResult> got;
  const auto t0 = Clock::now();
  while (got.empty() && Since(t0) < seconds) {
    got = w.Poll();
    std::erase_if(got, BeforeMarks);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return got;
}
// The results Poll gives within `seconds`, but for every first picture: the whole launches'. (A
// launch without the caches gives its selected block's picture as soon as the block has run, and
// at n = 64 the whole launch may come in the same poll.)
std::vector<ws::app::SimResult> PollForWhole(ws::app::SimWorker& w, double seconds) {
  std::vector<ws::app::SimResult> got;
  const auto t0 = Clock::now();
  while (got.empty() && Since(t0) < seconds) {
    got = w.Poll();
    std::erase_if(got, [](const ws::app::SimResult& r) { return r.first_picture || r.marks_pending; });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return got;
}
}  // namespace

TEST(SimWorker, CancelStopsARunningSimulationAndSaysSo) {
  ws::app::SimWorker w;
  w.Submit(LongJob());
  WaitUntilBlocksRun(w);
  const auto p = w.Progress(0);
  ASSERT_TRUE(p.running);
  EXPECT_EQ(p.blocks_total, 64u * 64u);  // (1024/16)^2 blocks of 16x16
  EXPECT_LT(p.blocks_done, p.blocks_total);
  const auto t0 = Clock::now();
  w.Cancel(0);
  const auto got = PollFor(w, 30);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].cancelled);
  EXPECT_EQ(got[0].outcome, nullptr);
  EXPECT_NE(got[0].error.find("cancelled"), std::string::npos) << got[0].error;
  EXPECT_LT(Since(t0), 10.0);  // a generous bound: the engine checks the flag every warp step
  EXPECT_FALSE(w.Progress(0).running);
}

TEST(SimWorker, DestroyingTheWorkerStopsItsSimulation) {
  auto w = std::make_unique<ws::app::SimWorker>();
  w->Submit(LongJob());
  WaitUntilBlocksRun(*w);
  ASSERT_TRUE(w->Progress(0).running);
  const auto t0 = Clock::now();
  w.reset();
  EXPECT_LT(Since(t0), 10.0);
}

// `warpscope gui --no-caches` reaches the simulation: the trace then carries no cache model, so
// the memory view draws no served-from marks and the L1 tab says there is none.
TEST(SimWorker, JobWithoutCachesSimulatesWithoutTheCacheModel) {
  for (const bool caches : {true, false}) {
    ws::app::SimWorker w;
    ws::app::SimJob job{.pane = 0, .generation = 1, .variant = "shortcut/v1", .n = 64};
    job.caches = caches;
    w.Submit(job);
    const auto got = PollForWhole(w, 60);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_NE(got[0].outcome, nullptr) << got[0].error;
    const auto& t = got[0].outcome->trace;
    EXPECT_EQ(t.caches.device.empty(), !caches);
    // Warp 0's first load of d comes from DRAM when the caches are modelled (they start cold).
    ASSERT_FALSE(t.instructions.empty());
    EXPECT_EQ(ws::sim::SectorServedFrom(t.instructions.front(), 0),
              caches ? ws::sim::ServedFrom::Dram : ws::sim::ServedFrom::None);
  }
}

// The two panes have a thread each: B's long simulation makes progress while A's runs (with one
// thread B would wait, 0 blocks done, until A ended), and cancelling A leaves B running.
TEST(SimWorker, APaneSimulatesWhileTheOtherDoesAndCancelsAlone) {
  ws::app::SimWorker w;
  ws::app::SimJob a = LongJob(), b = LongJob();
  b.pane = 1;
  w.Submit(a);
  w.Submit(b);
  WaitUntilBlocksRun(w, 0);
  WaitUntilBlocksRun(w, 1);
  const auto pa = w.Progress(0), pb = w.Progress(1);
  ASSERT_TRUE(pa.running);
  ASSERT_TRUE(pb.running);
  EXPECT_GT(pa.blocks_done, 0u);
  EXPECT_GT(pb.blocks_done, 0u);
  EXPECT_LT(pa.blocks_done, pa.blocks_total);  // A has not finished while B started
  w.Cancel(0);
  const auto got = PollFor(w, 30);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].job.pane, 0);
  EXPECT_TRUE(got[0].cancelled);
  EXPECT_FALSE(w.Progress(0).running);
  EXPECT_TRUE(w.Progress(1).running);  // B goes on; the destructor stops it
}

// A job for a pane that does not exist is an error result, not a crash or a lost request.
TEST(SimWorker, AJobForNoPaneComesBackAsAnError) {
  ws::app::SimWorker w;
  ws::app::SimJob j{.pane = 2, .generation = 1, .variant = "shortcut/v1", .n = 64};
  w.Submit(j);
  const auto got = w.Poll();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].outcome, nullptr);
  EXPECT_NE(got[0].error.find("no pane 2"), std::string::npos) << got[0].error;
  EXPECT_FALSE(w.Progress(2).running);
}

// The GUI's launch is the command line's (app/cli.h ConfigureCaches): shortcut/v5 was recorded
// by Nsight Compute with 128 registers per thread (assets/recorded/ncu/*.json,
// launch__registers_per_thread); registers alone then let 2 blocks of 256 threads share an SM (65536 / (128 *
// 256)), where the default 32 would fit 8; the cache counters, which depend on it, are the CLI's.
TEST(SimWorker, SimulatesTheLaunchAsTheCommandLineConfiguresIt) {
  ws::app::SimWorker w;
  ws::app::SimJob job{.pane = 0, .generation = 1, .variant = "shortcut/v5", .n = 256};
  w.Submit(job);
  const auto got = PollFor(w, 120);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_NE(got[0].outcome, nullptr) << got[0].error;
  const auto& gui = got[0].outcome->trace;
  EXPECT_EQ(gui.caches.registers_per_thread, 128u);
  EXPECT_EQ(gui.caches.blocks_per_sm, 2u);

  ws::sim::LaunchOptions opt;  // as `warpscope trace shortcut/v5 --n 256 --block 0` sets it up
  opt.selection = {ws::sim::Selection::Kind::Block, 0, 0};
  ws::app::ConfigureCaches(opt, "shortcut/v5", "");
  ws::kernels::RunRequest req;
  req.n = 256;
  const auto cli = ws::kernels::Simulate(ws::kernels::FindVariant("shortcut/v5"), req, opt).trace;
  EXPECT_EQ(gui.caches.device, cli.caches.device);
  EXPECT_EQ(gui.caches.registers_per_thread, cli.caches.registers_per_thread);
  EXPECT_EQ(gui.caches.blocks_per_sm, cli.caches.blocks_per_sm);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(gui.total.l1_hits[s], cli.total.l1_hits[s]) << "space " << s;
    EXPECT_EQ(gui.total.l2_sectors[s], cli.total.l2_sectors[s]) << "space " << s;
    EXPECT_EQ(gui.total.l2_hits[s], cli.total.l2_hits[s]) << "space " << s;
  }
  EXPECT_EQ(gui.total.dram_read_bytes, cli.total.dram_read_bytes);
}

// A launch of several waves comes back twice: the selected block's first picture once its wave is
// replayed (its steps and served-from marks already the whole launch's), then the whole launch.
// alignment/float4 at n = 2^20: 4096 blocks of 256 threads, 1056 a wave on the H100 (8 blocks
// per SM, 132 SMs): 4 waves, block 0 in the first.
TEST(SimWorker, ALaunchOfSeveralWavesShowsItsFirstPictureBeforeTheWholeLaunch) {
  ws::app::SimWorker w;
  w.Submit({.pane = 0, .generation = 1, .variant = "alignment/float4", .n = 1 << 20});
  std::vector<ws::app::SimResult> got;
  const auto t0 = Clock::now();
  while ((got.empty() || got.back().first_picture) && Since(t0) < 300) {
    for (auto& r : w.Poll()) got.push_back(std::move(r));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // The block's steps first (no cache model in them yet), then its marks, then the whole launch.
  ASSERT_EQ(got.size(), 3u);
  ASSERT_TRUE(got[0].first_picture && got[0].marks_pending);
  ASSERT_NE(got[0].outcome, nullptr);
  EXPECT_TRUE(got[0].outcome->trace.caches.device.empty());
  EXPECT_EQ(got[0].outcome->trace.instructions.size(), got[2].outcome ? got[2].outcome->trace.instructions.size() : 0u);
  got.erase(got.begin());
  ASSERT_TRUE(got[0].first_picture);
  ASSERT_FALSE(got[0].marks_pending);
  ASSERT_FALSE(got[1].first_picture);
  ASSERT_NE(got[0].outcome, nullptr) << got[0].error;
  ASSERT_NE(got[1].outcome, nullptr) << got[1].error;
  const auto& early = got[0].outcome->trace;
  const auto& whole = got[1].outcome->trace;
  EXPECT_EQ(early.total.mem_inst, 0u);  // the counters need every block
  EXPECT_GT(whole.total.mem_inst, 0u);
  EXPECT_TRUE(got[1].outcome->check.passed);
  EXPECT_EQ(whole.caches.waves, 4u);
  EXPECT_EQ(ws::app::LaunchSummary(whole), "4096 blocks in 4 waves on 1 thread");
  ASSERT_EQ(early.instructions.size(), whole.instructions.size());
  ASSERT_FALSE(early.instructions.empty());
  for (size_t i = 0; i < whole.instructions.size(); ++i) EXPECT_EQ(early.instructions[i].served, whole.instructions[i].served) << i;
  EXPECT_NE(got[0].compiled, nullptr);  // the compiler's notes come with the picture
}

// Whether a thread of this process runs at `nice` (/proc/self/task/TID/stat, field 19).
bool SomeThreadHasNice(int nice) {
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream rest(stat.substr(stat.rfind(')') + 2));  // after "pid (comm) "
    std::string field;
    for (int i = 3; i <= 19 && rest >> field; ++i)
      if (i == 19 && std::stoi(field) == nice) return true;
  }
  return false;
}

// Threads of this process at `nice`.
int ThreadsWithNice(int nice) {
  int n = 0;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream rest(stat.substr(stat.rfind(')') + 2));
    std::string field;
    for (int i = 3; i <= 19 && rest >> field; ++i)
      if (i == 19 && std::stoi(field) == nice) ++n;
  }
  return n;
}

// A pane's launch on two threads (the engine's workers, sim/parallel_run.h) shows its first steps
// with their marks (the prefix pass, sim/prefix_pass.h), then every step's marks, before the whole
// launch, as on one; once the picture shows, both workers count the rest 5 nicer than the window,
// each from its next block. shortcut/v1 at n = 1024: 4 waves.
TEST(SimWorker, OnTwoThreadsTheFirstPictureComesFirstAndBothWorkersCountNicer) {
  ws::app::SimWorker w;
  auto job = LongJob();
  job.threads = 2;
  const int nicer = std::min(getpriority(PRIO_PROCESS, 0) + 5, 19);
  const int before = ThreadsWithNice(nicer);
  w.Submit(job);
  std::vector<ws::app::SimResult> got;
  auto t0 = Clock::now();
  while ((got.empty() || BeforeMarks(got.back())) && Since(t0) < 600) {
    for (auto& r : w.Poll()) got.push_back(std::move(r));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(got.size(), 2u);
  ASSERT_TRUE(got[0].first_picture && !got[0].marks_pending && got[0].outcome);
  const auto& prefix = got[0].outcome->trace;
  EXPECT_GT(prefix.caches.final_steps, 0u);  // step 0 of warp 0 (the job's) has its marks
  EXPECT_LT(prefix.caches.final_steps, prefix.instructions.size());
  ASSERT_TRUE(got[1].first_picture && !got[1].marks_pending) << got[1].error;
  ASSERT_NE(got[1].outcome, nullptr);
  EXPECT_FALSE(got[1].outcome->trace.caches.device.empty());  // the marks came
  EXPECT_LT(w.Progress(0).blocks_done, 4096u);
  t0 = Clock::now();
  while (ThreadsWithNice(nicer) < before + 2 && Since(t0) < 30) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_GE(ThreadsWithNice(nicer), before + 2);
  w.Cancel(0);
  got = PollFor(w, 30);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].cancelled);
}

// Stopping a launch after its first picture: the result says it was cancelled (the GUI keeps the
// picture). shortcut/v1 at n = 1024: 4096 blocks, 4 waves; the first picture after 1056 blocks,
// a quarter of the launch's time.
TEST(SimWorker, CancelAfterTheFirstPictureStopsTheWholeLaunch) {
  ws::app::SimWorker w;
  w.Submit({.pane = 0, .generation = 1, .variant = "shortcut/v1", .n = 1024});
  auto got = PollFor(w, 600);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_TRUE(got[0].first_picture) << got[0].error;
  EXPECT_TRUE(w.Progress(0).running);
  EXPECT_EQ(w.Progress(0).blocks_total, 4096u);
  EXPECT_LT(w.Progress(0).blocks_done, 4096u);
  // The whole launch counts 5 nicer than the window (this thread): one of the process's threads
  // has that nice now.
  EXPECT_TRUE(SomeThreadHasNice(std::min(getpriority(PRIO_PROCESS, 0) + 5, 19)));
  const auto t0 = Clock::now();
  w.Cancel(0);
  got = PollFor(w, 30);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].cancelled);
  EXPECT_FALSE(got[0].first_picture);
  EXPECT_LT(Since(t0), 10.0);
}

// --log-times' whole-launch line says what the launch was. shortcut/v0 at n = 64: 4x4 blocks of
// 16x16, one wave (16 blocks for 132 SMs), on the two threads asked for; without the cache model
// there are no waves to speak of.
TEST(SimWorker, TheWholeLaunchSaysItsBlocksWavesAndThreads) {
  ws::app::SimWorker w;
  w.Submit({.pane = 0, .generation = 1, .variant = "shortcut/v0", .n = 64, .threads = 2});
  auto got = PollForWhole(w, 120);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_NE(got[0].outcome, nullptr) << got[0].error;
  EXPECT_EQ(ws::app::LaunchSummary(got[0].outcome->trace), "16 blocks in 1 wave on 2 threads");
  w.Submit({.pane = 0, .generation = 2, .variant = "shortcut/v0", .n = 64, .caches = false});
  got = PollForWhole(w, 120);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_NE(got[0].outcome, nullptr) << got[0].error;
  EXPECT_EQ(ws::app::LaunchSummary(got[0].outcome->trace), "16 blocks on 1 thread");
  // A launch that ran again on one thread says why.
  ws::sim::Trace t = got[0].outcome->trace;
  t.threads_note = "its blocks communicate through global memory";
  EXPECT_EQ(ws::app::LaunchSummary(t), "16 blocks on 1 thread (its blocks communicate through global memory)");
}
