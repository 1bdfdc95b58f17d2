// The simulation worker: runs kernels::Simulate off the UI thread so the UI never waits, one
// thread per pane, so that A and B load side by side on a machine with two cores or more. The
// newest request per pane wins (a newer one cancels the pane's running simulation); results
// are collected by Poll each frame. A launch of several waves comes back twice: first the
// selected block's picture, as soon as its steps and served-from marks are final (the engine's
// on_selected_final: its wave has been replayed), then the whole launch; with the caches, the
// block's steps come before that still, once the block has run (on_selected_ran), without marks,
// or, first of all, with the marks of its first steps (on_selected_prefix, sim/prefix_pass.h:
// Trace::Caches::final_steps says which are final). A kernel file, run in
// a process of its own, comes back whole. A simulation can always be cancelled, and the destructor
// cancels the running ones, so the program can always exit.
#pragma once
#include <array>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/compiled_lines.h"
#include "kernels/catalog.h"
#include "sim/engine.h"

namespace ws::app {

struct SimJob {
  int pane = 0;         // 0 (A) or 1 (B)
  uint64_t generation = 0;
  std::string variant;  // "family/variant"
  int n = 0;
  std::string shape;    // block shape, as --shape; empty: the variant's own
  uint32_t block = 0;   // the block whose warps are recorded
  bool caches = true;   // the cache model (sim/hierarchy.h) on
  std::string device;   // --device's profile name; empty: as ConfigureCaches (app/cli.h) picks
  uint32_t threads = 1;  // CPU threads that simulate its blocks (LaunchOptions::threads)
  // The warp shown and its step whose served-from marks the first picture must have
  // (LaunchOptions::prefix_step).
  uint32_t warp = 0, step = 0;
};

struct SimResult {
  SimJob job;
  std::shared_ptr<kernels::SimOutcome> outcome;  // null on error or when cancelled
  // What nvcc made of the variant, compared line by line with the outcome (app/compiled_lines.h);
  // null with the outcome. Not available (its status says why) without a CUDA toolkit.
  std::shared_ptr<const CompilerView> compiled;
  std::string error;
  bool cancelled = false;
  // The first picture: the outcome's trace is complete for the selected block (its steps,
  // captions, served-from marks and L1 log are the whole launch's) but its totals, per-line
  // counters and check are not there yet: the whole launch is still running, and a second
  // result for the same job brings it (or says it was cancelled).
  bool first_picture = false;
  // A first picture whose served-from marks are still to come (on_selected_ran: the block has
  // run, its wave not yet): the trace carries no cache model; a later first picture has them.
  // A prefix picture (on_selected_prefix) is not one: its trace's first caches.final_steps steps
  // have their marks, and a later first picture brings the others.
  bool marks_pending = false;
};

// A whole launch in a few words, for --log-times: "4096 blocks in 4 waves on 2 threads". The
// waves are the cache model's (none without it); the threads are those that ran the launch, with
// why it ran on fewer than asked where it did (Trace::threads_note).
std::string LaunchSummary(const sim::Trace& whole);

// How far the pane's simulation has got: blocks of the launch now running.
struct SimProgress {
  bool running = false;  // false: nothing running or waiting for the pane
  uint64_t blocks_done = 0, blocks_total = 0;
};

class SimWorker {
 public:
  static constexpr int kPanes = 2;
  // `on_result`, if set, is called (on a worker thread) whenever a result is ready for Poll: the
  // GUI wakes its event loop with it instead of drawing frames while it waits.
  explicit SimWorker(std::function<void()> on_result = {});
  ~SimWorker();
  // A job for a pane outside 0..kPanes-1 comes back at once through Poll as an error.
  void Submit(SimJob job);
  // Drops the pane's waiting request and stops its running simulation (a result with
  // `cancelled` set comes back through Poll).
  void Cancel(int pane);
  SimProgress Progress(int pane) const;
  std::vector<SimResult> Poll();

 private:
  // One pane's thread: its waiting request (only the newest is kept) and its running one.
  struct Lane {
    std::optional<SimJob> waiting;
    bool running = false;
    sim::RunControl control;  // of the running job
    std::thread thread;
  };
  void Loop(int pane);
  std::function<void()> on_result_;
  // `first_picture` is called (on the pane's thread) with the first picture of a launch of
  // several waves, before Run returns the whole launch.
  static SimResult Run(const SimJob& job, sim::RunControl& control, std::mutex& file_runs,
                       const std::function<void(SimResult)>& first_picture = {});
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<SimResult> done_;
  bool stop_ = false;
  std::array<Lane, kPanes> lanes_;
  // Kernel files run one at a time: a file's host code may keep state in globals (a
  // `__device__` variable is one here), which two panes must not share while both run.
  std::mutex file_runs_;
};

}  // namespace ws::app
