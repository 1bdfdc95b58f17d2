// The simulation worker: runs kernels::Simulate on its own thread so the UI never waits. The
// newest request per pane wins (a newer one cancels the pane's running simulation); results
// are collected by Poll each frame. A simulation can always be cancelled, and the destructor
// cancels the running one, so the program can always exit.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernels/catalog.h"
#include "sim/engine.h"

namespace ws::app {

struct SimJob {
  int pane = 0;
  uint64_t generation = 0;
  std::string variant;  // "family/variant"
  int n = 0;
  uint32_t block = 0;   // the block whose warps are recorded
  bool caches = true;   // the cache model (sim/hierarchy.h) on
};

struct SimResult {
  SimJob job;
  std::shared_ptr<kernels::SimOutcome> outcome;  // null on error or when cancelled
  std::string error;
  bool cancelled = false;
};

// How far the pane's simulation has got: blocks of the launch now running.
struct SimProgress {
  bool running = false;  // false: nothing running or waiting for the pane
  uint64_t blocks_done = 0, blocks_total = 0;
};

class SimWorker {
 public:
  SimWorker();
  ~SimWorker();
  void Submit(SimJob job);
  // Drops the pane's waiting request and stops its running simulation (a result with
  // `cancelled` set comes back through Poll).
  void Cancel(int pane);
  SimProgress Progress(int pane) const;
  std::vector<SimResult> Poll();

 private:
  void Loop();
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<SimJob> queue_;
  std::vector<SimResult> done_;
  bool stop_ = false;
  int running_pane_ = -1;      // the pane whose job runs now, -1 when none
  sim::RunControl control_;    // of the running job
  std::thread thread_;
};

}  // namespace ws::app
