// The execution engine's block runner: a launch runs block after block; a block's threads are
// fibers, run warp by warp (sim/warp_scheduler.cpp) from one __syncthreads() to the next.
// The other parts of the SM model: sim/engine_impl.h lists them, one file each.
#include "sim/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <new>

#include <sys/resource.h>
#include <unistd.h>

#include "sim/device_profile.h"
#include "sim/engine_impl.h"
#include "sim/launch_limits.h"
#include "sim/parallel_run.h"
#include "sim/prefix_pass.h"

namespace ws::sim {
namespace detail {

constinit thread_local ThreadCtx* t_current = nullptr;

namespace {
std::atomic<uint64_t> g_generation{0};
std::atomic<uint64_t> g_block_serial{0};
}  // namespace

uint64_t NewGeneration() { return ++g_generation; }

// What the fault guard asks the engine (in a signal handler): a fault is the kernel's when a
// simulated thread runs (else it is the engine's own, and not hidden), and the watchdog watches
// that thread's progress.
void* KernelThread() { return t_current; }
WatchdogProbe KernelProgress() {
  ThreadCtx* t = t_current;
  if (!t) return {};
  std::atomic_signal_fence(std::memory_order_seq_cst);
  return {t, t->progress + t->size, t->in_engine != 0};
}

EngineImpl::EngineImpl(LaunchOptions o) : opt(std::move(o)), generation(NewGeneration()) {}
EngineImpl::~EngineImpl() = default;

uint32_t EngineImpl::InternSite(const char* file, uint32_t line, uint32_t column) {
  uint64_t key = reinterpret_cast<uintptr_t>(file) * 0x9E3779B97F4A7C15ull ^
                 (uint64_t(line) << 24 | column);
  auto it = site_index.find(key);
  if (it != site_index.end()) return it->second;
  uint32_t id = uint32_t(trace.sites.size());
  trace.sites.push_back({file, line, column});
  site_files.push_back(file);
  per_site.emplace_back();
  site_index.emplace(key, id);
  return id;
}

// ---- one block ----
void EngineImpl::RunBlock(const LaunchShape& s, uint32_t bx, uint32_t by, uint32_t bz) {
  const uint32_t n = uint32_t(s.block.Count());
  block_linear = uint32_t(s.BlockId({bx, by, bz}));
  block_serial = ++g_block_serial;
  barrier_epoch = 0;
  ++sync_era;
  const auto& sel = opt.selection;
  trace_block = sel.kind == Selection::Kind::All ||
                ((sel.kind == Selection::Kind::Block || sel.kind == Selection::Kind::Warp) &&
                 sel.block == block_linear);
  if (hierarchy) hierarchy->BeginBlock(block_linear, s.WarpsPerBlock(), shared.bytes());
  block_cut = cut_after && block_linear != 0 && block_linear != whole_block ? cut_after : 0;
  warp_cut.assign(s.WarpsPerBlock(), 0);
  threads.resize(n);
  fibers.resize(n);
  sinks.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    ThreadCtx& t = threads[i];
    t.thread_idx = {i % s.block.x, (i / s.block.x) % s.block.y, i / (s.block.x * s.block.y)};
    t.block_idx = {bx, by, bz};
    t.block_dim = {s.block.x, s.block.y, s.block.z};
    t.grid_dim = {s.grid.x, s.grid.y, s.grid.z};
    t.linear = i;
    t.lane = i % kWarpSize;
    t.warp = i / kWarpSize;
    t.engine = this;
    t.shadow = shadow;
    t.shadow_tag = ShadowWords::Tag(block_linear);
    t.epoch = t.line = 0;
    t.sites.Clear();
    t.last_loc = {};
    t.size = t.head = 0;
    t.progress = 0;
    t.in_engine = 0;
    t.pause = Pause::None;
    fibers[i] = ctx::fiber(std::allocator_arg, StackAllocator{&stacks, i},
                           [this, i](ctx::fiber&& sink) {
                             sinks[i] = std::move(sink);
                             ThreadCtx& me = threads[i];
                             try {
                               body();
                             } catch (const std::exception& e) {
                               EngineSection section(me);
                               findings.Add(FindingKind::KernelException, me, -1,
                                            std::string("the thread threw: ") + e.what(), -1, 0, 0);
                             }
                             me.pause = Pause::Done;
                             return std::move(sinks[i]);
                           });
  }
  // The block runs guarded: a fault, the watchdog, the progress budget or a cancel leaves it (see
  // sim/fault_guard.h), its fibers dropped without being resumed or unwound (their stacks belong
  // to the pool), and the launch stops, as a GPU context does after a fault.
  if (!guard->Run([&] { RunThreads(n); })) {
    t_current = nullptr;
    ReturnToThreadStack();
    Abandon();
    ReportLeave(*guard);
    abort = true;
    return;
  }
  if (block_cut && std::find(warp_cut.begin(), warp_cut.end(), 1) != warp_cut.end()) {
    // A prefix pass stopped the block: its unfinished warps' streams end early (their threads are
    // dropped as after a fault; the launch goes on).
    for (uint32_t w = 0; w < warp_cut.size(); ++w)
      if (warp_cut[w] && hierarchy) hierarchy->CutWarp(w);
    Abandon();
    return;
  }
  // fibers are all finished; release them
  for (auto& fb : fibers) fb = ctx::fiber();
}

// Drops every fiber of the block without resuming it: destroying a suspended ctx::fiber would
// resume it to unwind its stack, which after a fault is not safe. Their stacks stay in the pool.
void EngineImpl::Abandon() {
  alignas(ctx::fiber) static thread_local unsigned char dropped[sizeof(ctx::fiber)];
  for (auto* v : {&fibers, &sinks})
    for (auto& fb : *v) ::new (static_cast<void*>(dropped)) ctx::fiber(std::move(fb));
  stacks.Forget();
}

void EngineImpl::PublishSelected() {
  if (!opt.on_selected_final) return;
  Trace early = trace;
  if (hierarchy) CompleteL1Steps(early);
  early.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
  opt.on_selected_final(std::move(early));
}

void EngineImpl::PublishSelectedSteps() {
  if (!opt.on_selected_ran) return;
  Trace steps = trace;
  steps.caches = {};
  for (auto& ins : steps.instructions) ins.served = 0;
  steps.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
  opt.on_selected_ran(std::move(steps));
}

// Runs the block's threads to the end, barrier by barrier.
void EngineImpl::RunThreads(uint32_t n) {
  const uint32_t warps = trace.shape.WarpsPerBlock();
  for (;;) {
    for (uint32_t w = 0; w < warps; ++w)
      if (!warp_cut[w]) RunWarp(w * kWarpSize, std::min(n, (w + 1) * kWarpSize));
    if (block_cut && std::find(warp_cut.begin(), warp_cut.end(), 1) != warp_cut.end()) {
      // A warp of a prefix pass stopped: no barrier can be passed now; the warps that have not
      // finished stop too (those at a barrier before its record).
      for (uint32_t i = 0; i < n; ++i)
        if (threads[i].pause != Pause::Done || !threads[i].Empty()) warp_cut[i / kWarpSize] = 1;
      return;
    }
    // Every live thread now waits at a barrier.
    uint32_t waiting = 0, done = 0;
    const ThreadCtx* first = nullptr;
    bool same_site = true;
    uint32_t max_epoch = 0;
    for (auto& t : threads) {
      if (t.pause == Pause::Done) { ++done; continue; }
      ++waiting;
      if (!first) first = &t;
      else if (t.pend_loc.line() != first->pend_loc.line() ||
               t.pend_loc.column() != first->pend_loc.column())
        same_site = false;
      max_epoch = std::max(max_epoch, t.epoch);
    }
    if (waiting == 0) break;
    int site = InternSite(first->pend_loc);
    if (!same_site)
      findings.Add(FindingKind::BarrierDivergence, *first, site,
                   "threads of the block wait at different __syncthreads() calls; on a GPU this "
                   "hangs or gives undefined results",
                   -1, 0, 0, false, FindingScope::Block);
    else if (done > 0)
      findings.Add(FindingKind::BarrierDivergence, *first, site,
                   std::to_string(done) + " thread(s) of the block exited without reaching this "
                   "__syncthreads(); CUDA requires every thread of the block to reach it",
                   -1, 0, 0, false, FindingScope::Block);
    ++trace.barriers;
    if (hierarchy) hierarchy->Barrier();
    else if (out && opt.caches) LogBarrier();
    ++barrier_epoch;
    ++sync_era;
    for (auto& t : threads)
      if (t.pause == Pause::Barrier) {
        t.pause = Pause::None;
        t.epoch = max_epoch + 1;  // the warp reconverges at the barrier
      }
  }
}

// ---- the barrier hook ----
void SyncThreads(ThreadCtx& t, std::source_location loc) {
  ++t.progress;
  t.pend_key = NextKey(t, loc, kSyncCode);
  t.pend_loc = loc;
  t.pause = Pause::Barrier;
  t.engine->Yield(t);
  t.line = 0;  // after the barrier, grouping restarts in a fresh epoch
  t.sites.Clear();
}

}  // namespace detail

// ---- Engine ----
void FollowNicer(const RunControl* control) {
  static thread_local int taken = 0;
  if (!control) return;
  const int want = control->nicer.load(std::memory_order_relaxed);
  if (want <= taken) return;
  const id_t me = static_cast<id_t>(gettid());
  setpriority(PRIO_PROCESS, me, std::min(getpriority(PRIO_PROCESS, me) + want - taken, 19));
  taken = want;
}

Engine::Engine(LaunchOptions options) : impl_(std::make_unique<detail::EngineImpl>(std::move(options))) {}
Engine::~Engine() = default;

int Engine::BindGlobal(std::string name, std::string type, uint32_t elem_bytes, uint64_t count,
                       uint64_t rows, uint64_t cols, void* data) {
  auto& e = *impl_;
  ArrayInfo a;
  a.id = int(e.trace.arrays.size());
  a.name = std::move(name);
  a.type = std::move(type);
  a.elem_bytes = elem_bytes;
  a.count = count;
  a.rows = rows ? rows : 1;
  a.cols = cols ? cols : count;
  a.space = Space::Global;
  a.base = e.next_global_base;
  // Arrays start 512-byte aligned: a multiple of the 256 bytes the CUDA C++ Programming Guide
  // promises for cudaMalloc ("Device Memory Accesses": at least 256-byte aligned).
  e.next_global_base += (uint64_t(elem_bytes) * count + 511) & ~511ull;
  e.trace.arrays.push_back(a);
  e.array_data.resize(e.trace.arrays.size(), nullptr);
  e.array_data[a.id] = data;
  return a.id;
}

const ArrayInfo& Engine::Array(int id) const { return impl_->trace.arrays.at(id); }

bool Engine::Run(const LaunchShape& s, std::function<void()> body, const std::vector<int>& const_arrays) {
  auto& e = *impl_;
  e.const_arrays.clear();
  for (int id : const_arrays)
    if (id >= 0 && size_t(id) < e.trace.arrays.size() && e.trace.arrays[size_t(id)].space == Space::Global)
      e.const_arrays.push_back(id);
  const auto t0 = e.run_start = std::chrono::steady_clock::now();
  e.trace.shape = s;
  const DeviceProfile& device = e.Device();
  if (const std::string why = detail::LaunchRefusal(s, device, e.opt.max_threads, e.opt.registers_per_thread); !why.empty()) {
    char shape[160];
    std::snprintf(shape, sizeof shape, "the launch of grid (%u,%u,%u) x block (%u,%u,%u)", s.grid.x,
                  s.grid.y, s.grid.z, s.block.x, s.block.y, s.block.z);
    e.findings.Add(FindingKind::LaunchLimit, detail::ThreadCtx{}, -1,
                   std::string(shape) + " was refused: " + why, -1, 0, 0, false,
                   FindingScope::Launch);
    return false;
  }
  if (e.opt.before_launch) e.opt.before_launch(s);
  e.shared.SetDynamicBytes(s.dynamic_shared_bytes);
  e.body = std::move(body);
  if (auto* c = e.opt.control) {
    c->blocks_done.store(0);
    c->blocks_total.store(s.grid.Count());
  }
  // The selected block's first steps with their marks, before the launch (sim/prefix_pass.h): its
  // steps without marks then bring nothing new.
  detail::RestoreOnExit steps_then(e.opt.on_selected_ran);
  if (detail::RunPrefixPass(e, s)) e.opt.on_selected_ran = nullptr;
  auto make_hierarchy = [&] {
    e.hierarchy.reset();
    if (!e.opt.caches) return;
    const auto& sel = e.opt.selection;
    const bool one_block = sel.kind == Selection::Kind::Block || sel.kind == Selection::Kind::Warp;
    e.hierarchy = std::make_unique<MemoryHierarchy>(
        device, e.opt.registers_per_thread, s,
        &e.per_site, &e.trace, one_block ? int64_t(sel.block) : -1);
    if (e.opt.control) e.hierarchy->StopWhen(&e.opt.control->cancel);
    e.hierarchy->ReplayOn(e.opt.threads);
    e.hierarchy->ReadsCode(e.opt.code_bytes);
    if (one_block) e.hierarchy->WhenTracedFinal([&e] { e.PublishSelected(); });
  };
  make_hierarchy();
  if (e.opt.threads > 1 && !e.abort) {
    // Blocks on several threads, merged in block order (sim/parallel_run.h).
    if (!e.parallel) e.parallel = std::make_unique<detail::ParallelRun>(e, e.opt.threads);
    e.parallel->Run(s, make_hierarchy);
  } else {
    // Without the caches the selected block's part is final once it has run (if a block follows).
    const auto& sel = e.opt.selection;
    const bool publish_after_block = (sel.kind == Selection::Kind::Block || sel.kind == Selection::Kind::Warp) &&
                                     sel.block + uint64_t(1) < s.grid.Count();
    FaultGuard guard(detail::KernelThread);
    e.guard = &guard;
    Watchdog watchdog(guard, e.opt.watchdog_seconds, detail::KernelProgress,
                      e.opt.control ? &e.opt.control->cancel : nullptr);
    e.watchdog = &watchdog;
    for (uint32_t bz = 0; bz < s.grid.z && !e.abort; ++bz)
      for (uint32_t by = 0; by < s.grid.y && !e.abort; ++by)
        for (uint32_t bx = 0; bx < s.grid.x && !e.abort; ++bx) {
          FollowNicer(e.opt.control);
          e.RunBlock(s, bx, by, bz);
          if (auto* c = e.opt.control) c->blocks_done.fetch_add(1, std::memory_order_relaxed);
          if (publish_after_block && !e.abort && !e.Cancelled()) {
            // Without the caches, final once it has run. With them, its steps once the block after it
            // has run too (residency is known then): where its marks come before the launch's end.
            if (!e.hierarchy && e.block_linear == sel.block) e.PublishSelected();
            else if (e.hierarchy && e.block_linear == sel.block + 1 && e.hierarchy->TracedFinalToCome()) e.PublishSelectedSteps();
          }
        }
    e.watchdog = nullptr;
    e.guard = nullptr;
    e.trace.threads = 1;
    e.trace.threads_note.clear();
  }
  if (e.hierarchy) {
    e.hierarchy->Finish(e.shared.bytes());
    if (e.parallel) e.parallel->Dispose(std::move(e.hierarchy));
    else e.hierarchy.reset();
  }
  // Fold the per-site counters into the totals and the per-line view.
  for (size_t i = 0; i < e.per_site.size(); ++i) {
    if (e.per_site[i].mem_inst == 0) continue;  // a barrier's or a finding's site
    e.trace.total += e.per_site[i];
    e.trace.per_line[e.trace.sites[i].line] += e.per_site[i];
  }
  e.per_site.assign(e.per_site.size(), Counters{});
  e.trace.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return !e.abort;
}

const Trace& Engine::trace() const { return impl_->trace; }
Trace Engine::TakeTrace() { return std::move(impl_->trace); }
uint32_t Engine::threads() const { return impl_->opt.threads; }

}  // namespace ws::sim
