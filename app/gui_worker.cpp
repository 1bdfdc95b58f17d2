// Simulation worker (see gui_worker.h).
#include "app/gui_worker.h"

#include <algorithm>
#include <string>
#include <utility>

#include "app/cli.h"

namespace ws::app {

namespace {
// Once its first picture is on screen, a whole launch (minutes at the largest sizes) counts a few
// steps nicer than the thread that draws, so that the frames keep their time while the lecturer
// steps through the picture on busy cores (docs/PERFORMANCE.md). Linux's nice is per thread, and
// a thread may not take it back: each job runs on a thread of its own (see Loop), and the engine's
// threads of a launch on several are its own too (sim::FollowNicer: each takes it at its next
// block), so the next picture is simulated at the window's priority again. Where nice cannot be
// set, nothing changes.
constexpr int kNicer = 5;
}  // namespace

std::string LaunchSummary(const sim::Trace& whole) {
  const uint64_t blocks = whole.shape.grid.Count(), waves = whole.caches.waves;
  std::string s = std::to_string(blocks) + (blocks == 1 ? " block" : " blocks");
  if (!whole.caches.device.empty()) s += " in " + std::to_string(waves) + (waves == 1 ? " wave" : " waves");
  s += " on " + std::to_string(whole.threads) + (whole.threads == 1 ? " thread" : " threads");
  if (!whole.threads_note.empty()) s += " (" + whole.threads_note + ")";
  return s;
}

SimWorker::SimWorker(std::function<void()> on_result) : on_result_(std::move(on_result)) {
  for (int p = 0; p < kPanes; ++p) lanes_[p].thread = std::thread([this, p] { Loop(p); });
}

SimWorker::~SimWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    for (Lane& l : lanes_) {
      l.waiting.reset();
      l.control.cancel = true;  // the engine checks it at every block, warp step and watchdog tick
    }
  }
  wake_.notify_all();
  for (Lane& l : lanes_) l.thread.join();
}

void SimWorker::Submit(SimJob job) {
  if (job.pane < 0 || job.pane >= kPanes) {
    SimResult r;
    r.error = "no pane " + std::to_string(job.pane) + " to simulate " + job.variant + " for";
    r.job = std::move(job);
    {
      std::lock_guard lock(mutex_);
      done_.push_back(std::move(r));
    }
    if (on_result_) on_result_();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    // A newer request for the same pane replaces one still waiting and stops one running.
    Lane& l = lanes_[job.pane];
    if (l.running) l.control.cancel = true;
    l.waiting = std::move(job);
  }
  wake_.notify_all();
}

void SimWorker::Cancel(int pane) {
  if (pane < 0 || pane >= kPanes) return;
  std::lock_guard lock(mutex_);
  Lane& l = lanes_[pane];
  l.waiting.reset();
  if (l.running) l.control.cancel = true;
}

SimProgress SimWorker::Progress(int pane) const {
  SimProgress p;
  if (pane < 0 || pane >= kPanes) return p;
  std::lock_guard lock(mutex_);
  const Lane& l = lanes_[pane];
  if (l.running) {
    p.running = true;
    p.blocks_done = l.control.blocks_done.load(std::memory_order_relaxed);
    p.blocks_total = l.control.blocks_total.load(std::memory_order_relaxed);
  } else {
    p.running = l.waiting.has_value();
  }
  return p;
}

std::vector<SimResult> SimWorker::Poll() {
  std::lock_guard lock(mutex_);
  return std::exchange(done_, {});
}

SimResult SimWorker::Run(const SimJob& job, sim::RunControl& control, std::mutex& file_runs,
                         const std::function<void(SimResult)>& first_picture) {
  SimResult r;
  r.job = job;
  try {
    // Finding a kernel file's variant may compile and load it; a file's runs hold the lock.
    std::unique_lock files(file_runs);
    const auto ref = kernels::FindVariant(job.variant);
    if (!ref.family->from_file) files.unlock();
    kernels::RunRequest req;
    req.n = job.n;
    if (!job.shape.empty()) req.block = ParseBlock(job.shape);
    sim::LaunchOptions opt;
    opt.selection = {sim::Selection::Kind::Block, job.block, job.warp};
    opt.prefix_step = job.step;
    opt.control = &control;
    opt.caches = job.caches;
    opt.threads = std::max(1u, job.threads);
    // The launch as the command line configures it (device profile, registers per thread from
    // ptxas), so that the L1 view and the memory chart agree with `stats` and `table`.
    const CompiledListing listing = ListingFor(ref);
    ConfigureCaches(opt, ref.Id(), job.device, ListingRegisters(listing, ref));
    const auto early_result = [&](sim::Trace early, bool marks_pending) {
      SimResult f;
      f.job = job;
      f.first_picture = true;
      f.marks_pending = marks_pending;
      auto o = std::make_shared<kernels::SimOutcome>();
      o->trace = std::move(early);
      // The compiler's notes under the source lines are the picture's too; its counts as
      // compiled are the whole launch's, and come with it.
      auto compiled = std::make_shared<CompilerView>(Compare(listing, ref, o->trace));
      AddCompilerFindings(listing, *compiled, o->trace);
      f.outcome = std::move(o);
      f.compiled = std::move(compiled);
      first_picture(std::move(f));
    };
    if (first_picture) {
      opt.on_selected_ran = [&](sim::Trace steps) { early_result(std::move(steps), true); };
      opt.on_selected_final = [&](sim::Trace early) { early_result(std::move(early), false); };
      opt.on_selected_prefix = [&](sim::Trace early) { early_result(std::move(early), false); };
    }
    auto outcome = std::make_shared<kernels::SimOutcome>(kernels::Simulate(ref, req, opt));
    auto compiled = std::make_shared<CompilerView>(Compare(listing, ref, outcome->trace));
    AddCompilerFindings(listing, *compiled, outcome->trace);
    r.outcome = std::move(outcome);
    r.compiled = std::move(compiled);
  } catch (const std::bad_alloc&) {
    r.error = "out of memory simulating " + job.variant + " at n=" + std::to_string(job.n) + "; try a smaller n";
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

void SimWorker::Loop(int pane) {
  Lane& lane = lanes_[pane];
  for (;;) {
    SimJob job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || lane.waiting.has_value(); });
      if (stop_) return;
      job = std::move(*lane.waiting);
      lane.waiting.reset();
      lane.running = true;
      lane.control.cancel = false;
      lane.control.blocks_done = 0;
      lane.control.blocks_total = 0;
      lane.control.nicer = 0;
    }
    const auto first_picture = [&](SimResult f) {
      // A prefix picture has the marks of the first steps only: the launch keeps the window's
      // priority until every step's marks have come (the next ones are a few steps of the
      // lecture away).
      const bool marks_pending = f.marks_pending || (f.outcome && f.outcome->trace.caches.final_steps != SIZE_MAX);
      {
        std::lock_guard lock(mutex_);
        if (lane.control.cancel) return;  // superseded or stopped: the next result says so
        done_.push_back(std::move(f));
      }
      if (on_result_) on_result_();
      if (!marks_pending) {
        lane.control.nicer = kNicer;
        sim::FollowNicer(&lane.control);  // this thread at once (it simulates or merges the blocks)
      }
    };
    SimResult r;
    std::thread([&] { r = Run(job, lane.control, file_runs_, first_picture); }).join();
    {
      std::lock_guard lock(mutex_);
      lane.running = false;
      if (lane.control.cancel) {
        r.cancelled = true;
        r.outcome.reset();
        r.error = "simulation of " + job.variant + " at n=" + std::to_string(job.n) + " cancelled";
        // Superseded by a newer request for the pane: that one's result is the one to show.
        if (stop_ || lane.waiting.has_value()) continue;
      }
      done_.push_back(std::move(r));
    }
    if (on_result_) on_result_();
  }
}

}  // namespace ws::app
