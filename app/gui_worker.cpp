// Simulation worker (see gui_worker.h).
#include "app/gui_worker.h"

#include <algorithm>
#include <utility>

namespace ws::app {

SimWorker::SimWorker() : thread_([this] { Loop(); }) {}

SimWorker::~SimWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    queue_.clear();
    control_.cancel = true;  // the engine checks it at every block, warp step and watchdog tick
  }
  wake_.notify_all();
  thread_.join();
}

void SimWorker::Submit(SimJob job) {
  {
    std::lock_guard lock(mutex_);
    // A newer request for the same pane replaces one still waiting and stops one running.
    std::erase_if(queue_, [&](const SimJob& j) { return j.pane == job.pane; });
    if (running_pane_ == job.pane) control_.cancel = true;
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void SimWorker::Cancel(int pane) {
  std::lock_guard lock(mutex_);
  std::erase_if(queue_, [&](const SimJob& j) { return j.pane == pane; });
  if (running_pane_ == pane) control_.cancel = true;
}

SimProgress SimWorker::Progress(int pane) const {
  std::lock_guard lock(mutex_);
  SimProgress p;
  if (running_pane_ == pane) {
    p.running = true;
    p.blocks_done = control_.blocks_done.load(std::memory_order_relaxed);
    p.blocks_total = control_.blocks_total.load(std::memory_order_relaxed);
  } else {
    p.running = std::any_of(queue_.begin(), queue_.end(), [&](const SimJob& j) { return j.pane == pane; });
  }
  return p;
}

std::vector<SimResult> SimWorker::Poll() {
  std::lock_guard lock(mutex_);
  return std::exchange(done_, {});
}

void SimWorker::Loop() {
  for (;;) {
    SimJob job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      running_pane_ = job.pane;
      control_.cancel = false;
      control_.blocks_done = 0;
      control_.blocks_total = 0;
    }
    SimResult r;
    r.job = job;
    try {
      const auto ref = kernels::FindVariant(job.variant);
      kernels::RunRequest req;
      req.n = job.n;
      sim::LaunchOptions opt;
      opt.selection = {sim::Selection::Kind::Block, job.block, 0};
      opt.control = &control_;
      opt.caches = job.caches;
      r.outcome = std::make_shared<kernels::SimOutcome>(kernels::Simulate(ref, req, opt));
    } catch (const std::bad_alloc&) {
      r.error = "out of memory simulating " + job.variant + " at n=" + std::to_string(job.n) + "; try a smaller n";
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    std::lock_guard lock(mutex_);
    running_pane_ = -1;
    if (control_.cancel) {
      r.cancelled = true;
      r.outcome.reset();
      r.error = "simulation of " + job.variant + " at n=" + std::to_string(job.n) + " cancelled";
      // Superseded by a newer request for the pane: that one's result is the one to show.
      if (stop_ || std::any_of(queue_.begin(), queue_.end(), [&](const SimJob& j) { return j.pane == job.pane; }))
        continue;
    }
    done_.push_back(std::move(r));
  }
}

}  // namespace ws::app
