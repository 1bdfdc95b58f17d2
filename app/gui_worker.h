// The simulation worker: runs kernels::Simulate on its own thread so the UI never waits. The
// newest request per pane wins; results are collected by Poll each frame.
#pragma once
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernels/catalog.h"

namespace ws::app {

struct SimJob {
  int pane = 0;
  uint64_t generation = 0;
  std::string variant;  // "family/variant"
  int n = 0;
  uint32_t block = 0;   // the block whose warps are recorded
};

struct SimResult {
  SimJob job;
  std::shared_ptr<kernels::SimOutcome> outcome;  // null on error
  std::string error;
};

class SimWorker {
 public:
  SimWorker();
  ~SimWorker();
  void Submit(SimJob job);
  std::vector<SimResult> Poll();

 private:
  void Loop();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<SimJob> queue_;
  std::vector<SimResult> done_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace ws::app
