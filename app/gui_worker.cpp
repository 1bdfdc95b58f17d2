// Simulation worker (see gui_worker.h).
#include "app/gui_worker.h"

#include <utility>

namespace ws::app {

SimWorker::SimWorker() : thread_([this] { Loop(); }) {}

SimWorker::~SimWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  thread_.join();
}

void SimWorker::Submit(SimJob job) {
  {
    std::lock_guard lock(mutex_);
    // A newer request for the same pane replaces one still waiting.
    std::erase_if(queue_, [&](const SimJob& j) { return j.pane == job.pane; });
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
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
    }
    SimResult r;
    r.job = job;
    try {
      const auto ref = kernels::FindVariant(job.variant);
      kernels::RunRequest req;
      req.n = job.n;
      sim::LaunchOptions opt;
      opt.selection = {sim::Selection::Kind::Block, job.block, 0};
      r.outcome = std::make_shared<kernels::SimOutcome>(kernels::Simulate(ref, req, opt));
    } catch (const std::bad_alloc&) {
      r.error = "out of memory simulating " + job.variant + " at n=" + std::to_string(job.n) + "; try a smaller n";
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    std::lock_guard lock(mutex_);
    done_.push_back(std::move(r));
  }
}

}  // namespace ws::app
