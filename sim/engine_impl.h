// The engine's state, shared by the files that model the parts of an SM (the class is one, its
// file is split: each section below names the file that implements it).
// Section index: [SECTION] engine state · [SECTION] block runner · [SECTION] warp scheduler ·
// [SECTION] lane grouping · [SECTION] warp operations · [SECTION] faults as findings ·
// [SECTION] parallel launch
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <source_location>
#include <unordered_map>
#include <vector>

#include <boost/context/fiber.hpp>

#include "sim/cost_memo.h"
#include "sim/device_profile.h"
#include "sim/engine.h"
#include "sim/fault_guard.h"
#include "sim/fiber_stack.h"
#include "sim/findings.h"
#include "sim/hierarchy.h"
#include "sim/shared_memory.h"

namespace ws::sim { struct SectorList; }

namespace ws::sim::detail {

namespace ctx = boost::context;

struct BlockOut;
class GlobalShadow;
class ParallelRun;

// Marks engine code that runs on a kernel's fiber and may allocate: the watchdog does not leave
// the fiber there (see Watchdog in sim/fault_guard.h).
struct EngineSection {
  ThreadCtx& t;
  explicit EngineSection(ThreadCtx& c) : t(c) {
    t.in_engine = 1;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~EngineSection() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    t.in_engine = 0;
  }
};

// Puts a launch option (a callback a launch hides or wraps for a while) back as it was when the
// scope ends, an exception's way out included: a wrapper left behind would call into a finished
// launch's locals at the next launch.
template <class T>
struct RestoreOnExit {
  T& option;
  T saved;
  explicit RestoreOnExit(T& o) : option(o), saved(o) {}
  ~RestoreOnExit() { option = std::move(saved); }
  RestoreOnExit(const RestoreOnExit&) = delete;
  RestoreOnExit& operator=(const RestoreOnExit&) = delete;
};

class EngineImpl {
 public:
  explicit EngineImpl(LaunchOptions o);
  ~EngineImpl();

  // ---- [SECTION] engine state -------------------------------------------------------------
  LaunchOptions opt;
  // The device the launch is checked against and cached on: opt.device, or the H100 profile.
  const DeviceProfile& Device() const { return opt.device ? *opt.device : DeviceProfiles().front(); }
  Trace trace;
  FindingLog findings{trace.findings, opt.max_findings};
  uint64_t generation;
  uint64_t next_global_base = 0x7f0000000000ull;
  SharedLayout shared;
  bool abort = false;
  // While a launch runs: the guard each block runs in and its watchdog (engine.cpp).
  FaultGuard* guard = nullptr;
  const Watchdog* watchdog = nullptr;

  // current block
  std::vector<ThreadCtx> threads;
  std::vector<ctx::fiber> fibers;  // the thread's fiber, when the scheduler holds it
  std::vector<ctx::fiber> sinks;   // the scheduler, when the thread holds it
  std::function<void()> body;
  StackPool stacks;
  uint32_t block_linear = 0;
  uint64_t block_serial = 0;
  uint32_t barrier_epoch = 0;
  // Advances at every block start and barrier: a lane's warp clock from an older era is stale.
  uint64_t sync_era = 0;
  bool trace_block = false;
  std::chrono::steady_clock::time_point run_start;  // of the launch now running
  std::vector<Counters> per_site;
  std::unique_ptr<MemoryHierarchy> hierarchy;  // null: caches not modelled
  std::unordered_map<uint64_t, uint32_t> site_index;  // (file ptr ^ line/col) -> site
  std::vector<const char*> site_files;  // per site: the file name pointer it was interned by

  uint32_t InternSite(std::source_location loc) {
    return InternSite(loc.file_name(), loc.line(), loc.column());
  }
  uint32_t InternSite(const char* file, uint32_t line, uint32_t column);

  // Progress: `n` more accesses or synchronisations made by t; past the budget the block is left.
  void CountProgress(ThreadCtx& t, uint64_t n) {
    t.progress += n;
    if (t.progress > opt.progress_budget) [[unlikely]] guard->Leave(GuardExit::ProgressBudget, &t);
  }
  // A prefix pass (sim/prefix_pass.h) cuts every block but block 0 and `whole_block`: a warp stops
  // where a lane would go on past `cut_after` accesses and synchronisations (0: no cut), and the
  // block stops once none of its warps can go on (cut, done, or at a barrier a cut warp never
  // reaches). `block_cut`: the current block's cut (0: none); `warp_cut`: its warps that stopped
  // before they finished.
  uint64_t cut_after = 0, whole_block = 0, block_cut = 0;
  std::vector<uint8_t> warp_cut;
  bool Cancelled() const {
    return opt.control && opt.control->cancel.load(std::memory_order_relaxed);
  }

  // Fibers: the scheduler resumes a lane; a lane yields back to the scheduler.
  void Resume(ThreadCtx& t) {
    t_current = &t;
    fibers[t.linear] = std::move(fibers[t.linear]).resume();
    t_current = nullptr;
  }
  void Yield(ThreadCtx& t) {
    sinks[t.linear] = std::move(sinks[t.linear]).resume();
    t_current = &t;
  }

  // ---- [SECTION] block runner (engine.cpp) ------------------------------------------------
  void RunBlock(const LaunchShape& s, uint32_t bx, uint32_t by, uint32_t bz);
  void RunThreads(uint32_t n);
  void Abandon();
  // LaunchOptions::on_selected_final with a copy of the trace as it stands.
  void PublishSelected();
  // LaunchOptions::on_selected_ran with a copy of the trace less the cache model's part.
  void PublishSelectedSteps();

  // ---- [SECTION] warp scheduler (warp_scheduler.cpp) ---------------------------------------
  void RunWarp(uint32_t first, uint32_t last);
  uint64_t Issuable(uint32_t first, uint32_t last, uint64_t key);
  void Meet(uint32_t first, uint32_t last, uint64_t key);

  // ---- [SECTION] lane grouping (lane_grouping.cpp) -----------------------------------------
  void GroupLanes(uint32_t first, uint32_t last, uint32_t warp);
  uint64_t BeforeSync(uint32_t first, uint32_t last, uint64_t key) const;
  bool Buried(uint32_t first, uint32_t last, uint64_t key) const;
  void Emit(WarpInstruction& ins, const LaneEvent& e);
  // Sites by (file name pointer, line, column), a small direct-mapped cache in front of
  // InternSite: the compiler gives every source_location of one file the same file_name().
  struct SiteSlot {
    const char* file = nullptr;
    uint32_t line = 0, column = 0, site = 0;
  };
  static constexpr size_t kSiteCache = 64;
  SiteSlot site_cache[kSiteCache] = {};
  CostMemo cost_memo;  // coalescing's results per site and shape (sim/cost_memo.h)

  // ---- [SECTION] warp operations (warp_ops.cpp) --------------------------------------------
  void Exchange(uint32_t first, uint32_t last, uint64_t key);

  // ---- [SECTION] faults as findings (findings.cpp) -----------------------------------------
  // The finding for the guard's leave (a fault, the watchdog, the progress budget or a cancel).
  void ReportLeave(const FaultGuard& g);

  // ---- [SECTION] parallel launch (parallel_run.cpp) ----------------------------------------
  // A worker's engine (one per thread of a parallel launch) leaves each block's results in `out`
  // for the merge, in block order, into the launch's engine (its trace, counters, findings and
  // hierarchy). `shadow`: the check that blocks do not see each other (null: not checked).
  BlockOut* out = nullptr;
  GlobalShadow* shadow = nullptr;
  std::vector<int> const_arrays;  // the launch's (Engine::Run): global arrays no block stores to
  bool worker = false;
  // A worker's shared arrays by slot (a slot is per OS thread): a slot it registered before keeps
  // its array when the generation changes (a launch restarted on one thread).
  std::unordered_map<const SharedSlot*, int> slot_array;
  std::vector<void*> array_data;  // per global array: its bytes (BindGlobal's data), or null
  std::unique_ptr<ParallelRun> parallel;  // the workers, once a launch ran on several threads
  // A worker's global instruction and barrier, for the cache model (sim/parallel_run.h, [SECTION]
  // a block's results).
  void LogGlobal(const WarpInstruction& ins, int64_t traced, const SectorList& distinct);
  void LogBarrier();
};

// What the fault guard asks the engine (engine.cpp): the simulated thread running, if any, and its
// progress for the watchdog. A fresh engine generation (shared arrays register again).
void* KernelThread();
WatchdogProbe KernelProgress();
uint64_t NewGeneration();

// Two lanes wait at the same warp operation: the same call in the source (warp_ops.cpp).
bool SameCall(const ThreadCtx& a, const ThreadCtx& b);

}  // namespace ws::sim::detail
