// A launch on several threads (see sim/parallel_run.h): a worker's block, the merge in block
// order, and the launch with its restart (the check that blocks do not see each other is
// sim/global_shadow.cpp).
// Section index: [SECTION] the workers · [SECTION] one block · [SECTION] the merge ·
// [SECTION] the launch
#include "sim/parallel_run.h"

#include <cstring>
#include <exception>
#include <stdexcept>
#include <system_error>

#include "sim/rules.h"

namespace ws::sim::detail {

// ---- [SECTION] the workers ----------------------------------------------------------------
struct ParallelRun::Worker {
  std::unique_ptr<EngineImpl> engine;
  std::vector<uint32_t> site_map;  // the worker's sites -> main's
  bool stale = false;              // its shared layout is not the launch's: runs no blocks
  // Before an attempt: what a restart puts back.
  std::vector<ArrayInfo> arrays;
  SharedLayout shared;
  std::unordered_map<const SharedSlot*, int> slot_array;
  // The thread and its job.
  std::thread thread;
  std::mutex mu;
  std::condition_variable cv;
  std::function<void(Worker&)> job;
  bool has_job = false, quit = false, done = false;
  std::exception_ptr error;

  void Loop() {
    for (;;) {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return has_job || quit; });
      if (!has_job) return;
      auto run = std::move(job);
      has_job = false;
      lock.unlock();
      try {
        run(*this);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      done = true;
      cv.notify_all();
    }
  }
  // Forgets the sites it interned that were never merged (blocks dropped or restarted).
  void TrimSites() {
    EngineImpl& e = *engine;
    const size_t n = site_map.size();
    if (e.trace.sites.size() == n) return;
    e.trace.sites.resize(n);
    e.site_files.resize(n);
    e.per_site.resize(n);
    for (auto it = e.site_index.begin(); it != e.site_index.end();)
      it = it->second >= n ? e.site_index.erase(it) : std::next(it);
    for (auto& slot : e.site_cache) slot = {};
  }
};

struct ParallelRun::AttemptState {
  LaunchShape shape;
  uint64_t total = 0, window = 0;
  GlobalShadow* shadow = nullptr;
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> stop_at{~0ull};  // the first block that stopped the launch
  std::atomic<uint64_t> last_run{0};      // the highest block run + 1
  std::mutex mu;  // guards merged, ready, owner
  std::condition_variable cv;
  uint64_t merged = 0;
  std::vector<BlockOut> outs;  // a ring of `window` blocks
  std::vector<Worker*> owner;
  std::vector<uint8_t> ready;
  std::mutex merge_mu;  // held by the thread that merges
  uint64_t shared_before = 0;
  std::vector<int64_t> trace_index;  // the merged block's trace indices in main's trace
  bool Stopping() const { return shadow && shadow->reason() != GlobalShadow::kNone; }
};

ParallelRun::ParallelRun(EngineImpl& main, uint32_t threads) : main_(main) {
  for (uint32_t i = 0; i < threads; ++i) {
    auto w = std::make_unique<Worker>();
    LaunchOptions o = main.opt;
    o.threads = 1;
    o.before_launch = nullptr;
    o.on_selected_final = nullptr;
    o.on_selected_ran = nullptr;
    w->engine = std::make_unique<EngineImpl>(std::move(o));
    w->engine->worker = true;
    w->site_map.clear();
    Worker* p = w.get();
    w->thread = std::thread([p] { p->Loop(); });
    workers_.push_back(std::move(w));
  }
}

ParallelRun::~ParallelRun() {
  if (disposer_.joinable()) disposer_.join();
  for (auto& w : workers_) {
    {
      std::lock_guard<std::mutex> lock(w->mu);
      w->quit = true;
    }
    w->cv.notify_all();
    w->thread.join();
  }
}

void ParallelRun::Dispose(std::unique_ptr<MemoryHierarchy> hierarchy) {
  if (disposer_.joinable()) disposer_.join();
  try {
    disposer_ = std::thread([h = std::move(hierarchy)]() mutable { h.reset(); });
  } catch (const std::system_error&) {
    // Not started: the lambda that held it is gone, and the model with it, here.
  }
}

void ParallelRun::RunOn(const std::vector<Worker*>& team, const std::function<void(Worker&)>& job) {
  for (Worker* w : team) {
    std::lock_guard<std::mutex> lock(w->mu);
    w->job = job;
    w->has_job = true;
    w->done = false;
    w->error = nullptr;
    w->cv.notify_all();
  }
  std::exception_ptr error;
  for (Worker* w : team) {
    std::unique_lock<std::mutex> lock(w->mu);
    w->cv.wait(lock, [&] { return w->done; });
    if (w->error && !error) error = w->error;
  }
  if (error) std::rethrow_exception(error);
}

// ---- [SECTION] one block ------------------------------------------------------------------
namespace {
bool IsZero(const Counters& c) {
  static const Counters zero{};
  return std::memcmp(&c, &zero, sizeof c) == 0;
}

// Runs block b on the worker's engine and leaves its results in `out`.
void RunOne(EngineImpl& e, BlockOut& out, const LaunchShape& s, uint64_t b) {
  out.block = b;
  out.new_sites.clear();
  out.per_site.clear();
  out.instructions.clear();
  out.findings.clear();
  out.events.clear();
  out.warps.clear();
  if (e.opt.caches) out.warps.resize(s.WarpsPerBlock());
  e.out = &out;
  e.trace.instructions.clear();
  e.trace.findings.clear();
  e.findings.Reset();
  e.trace.barriers = 0;
  e.abort = false;
  out.first_site = uint32_t(e.trace.sites.size());
  const size_t arrays_before = e.trace.arrays.size();
  const uint64_t gx = s.grid.x, gy = s.grid.y;
  e.RunBlock(s, uint32_t(b % gx), uint32_t(b / gx % gy), uint32_t(b / (gx * gy)));
  out.encoded = !e.trace_block;
  for (size_t i = out.first_site; i < e.trace.sites.size(); ++i)
    out.new_sites.push_back({e.site_files[i], {e.trace.sites[i].line, e.trace.sites[i].column}});
  for (size_t i = 0; i < e.per_site.size(); ++i)
    if (!IsZero(e.per_site[i])) {
      out.per_site.push_back({uint32_t(i), e.per_site[i]});
      e.per_site[i] = Counters{};
    }
  out.instructions.swap(e.trace.instructions);
  out.findings.swap(e.trace.findings);
  out.barriers = e.trace.barriers;
  out.shared_bytes = e.shared.bytes();
  out.arrays.clear();
  if (e.trace.arrays.size() != arrays_before) out.arrays = e.trace.arrays;
  out.abort = e.abort;
  e.out = nullptr;
  if (e.shadow)
    for (const Finding& f : out.findings)
      if (f.kind == FindingKind::UninitializedShared) e.shadow->Flag(GlobalShadow::kUninitializedShared);
}
}  // namespace

void EngineImpl::LogGlobal(const WarpInstruction& ins, int64_t traced, const SectorList& distinct) {
  uint64_t found[kWarpSize];
  int n = distinct.n;
  const uint64_t* s = distinct.s;
  if (n < 0) n = DistinctSectors(ins, found), s = found;
  if (!trace_block) {  // encoded here, as MemoryHierarchy::Record would
    if (n > 0 && ins.warp < out->warps.size()) EncodeRecord(out->warps[ins.warp], ins.site, uint32_t(ins.op), -1, s, n);
    return;
  }
  auto& ev = out->events;
  ev.push_back(uint64_t(ins.warp) | uint64_t(ins.op) << 32 | uint64_t(n) << 40);
  ev.push_back(ins.site);
  ev.push_back(uint64_t(traced + 1));
  ev.insert(ev.end(), s, s + n);
}

void EngineImpl::LogBarrier() {
  if (!trace_block) {
    for (WarpStream& w : out->warps) EncodeBarrier(w);
  } else {
    out->events.push_back(kBarrierEvent);
  }
}

// A worker takes the next block, runs it, and merges what is ready.
void ParallelRun::Work(Worker& w, AttemptState& a) {
  EngineImpl& e = *w.engine;
  FaultGuard guard(KernelThread);
  e.guard = &guard;
  Watchdog watchdog(guard, e.opt.watchdog_seconds, KernelProgress,
                    e.opt.control ? &e.opt.control->cancel : nullptr);
  e.watchdog = &watchdog;
  for (;;) {
    if (a.Stopping()) break;
    const uint64_t b = a.next.fetch_add(1);
    if (b >= a.total || b > a.stop_at.load()) break;
    {
      // At most `window` blocks ahead of the merge: their results wait in the ring.
      std::unique_lock<std::mutex> lock(a.mu);
      a.cv.wait(lock, [&] { return b < a.merged + a.window || b > a.stop_at.load() || a.Stopping(); });
      if (b > a.stop_at.load() || a.Stopping()) break;
    }
    BlockOut& out = a.outs[b % a.window];
    FollowNicer(e.opt.control);
    RunOne(e, out, a.shape, b);
    for (uint64_t seen = a.last_run.load(); seen < b + 1 && !a.last_run.compare_exchange_weak(seen, b + 1);) {}
    if (auto* c = e.opt.control) c->blocks_done.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(a.mu);
      a.owner[b % a.window] = &w;
      a.ready[b % a.window] = 1;
      if (out.abort && b < a.stop_at.load()) a.stop_at.store(b);
    }
    a.cv.notify_all();
    TryMerge(a);
  }
  e.watchdog = nullptr;
  e.guard = nullptr;
  a.cv.notify_all();
}

namespace {
bool IsPrefix(const std::vector<ArrayInfo>& p, const std::vector<ArrayInfo>& of);
}  // namespace

// ---- [SECTION] the merge ------------------------------------------------------------------
// Merges the ready blocks in order, if no other thread is merging; that one, before it stops,
// looks again for blocks that became ready meanwhile.
void ParallelRun::TryMerge(AttemptState& a) {
  for (;;) {
    std::unique_lock<std::mutex> merging(a.merge_mu, std::try_to_lock);
    if (!merging.owns_lock()) return;
    for (;;) {
      uint64_t b;
      Worker* w;
      {
        std::lock_guard<std::mutex> lock(a.mu);
        b = a.merged;
        if (b >= a.total || b > a.stop_at.load() || !a.ready[b % a.window]) break;
        w = a.owner[b % a.window];
      }
      if (!a.Stopping()) Merge(a, *w, a.outs[b % a.window]);
      {
        std::lock_guard<std::mutex> lock(a.mu);
        a.ready[b % a.window] = 0;
        a.merged = b + 1;
      }
      a.cv.notify_all();
    }
    merging.unlock();
    std::lock_guard<std::mutex> lock(a.mu);
    const uint64_t b = a.merged;
    if (b >= a.total || b > a.stop_at.load() || !a.ready[b % a.window]) return;
  }
}

// One block's results into the launch's engine, as the serial run would have left them.
void ParallelRun::Merge(AttemptState& a, Worker& w, BlockOut& b) {
  EngineImpl& m = main_;
  w.site_map.resize(b.first_site + b.new_sites.size());
  for (size_t k = 0; k < b.new_sites.size(); ++k) {
    const auto& [file, lc] = b.new_sites[k];
    w.site_map[b.first_site + k] = m.InternSite(file, lc.first, lc.second);
  }
  const auto site = [&](uint32_t s) { return w.site_map[s]; };
  for (const auto& [s, c] : b.per_site) m.per_site[site(s)] += c;
  a.trace_index.assign(b.instructions.size(), -1);
  for (size_t i = 0; i < b.instructions.size(); ++i) {
    if (m.trace.instructions.size() >= m.opt.max_trace_instructions) {
      m.trace.truncated = true;
      continue;
    }
    a.trace_index[i] = int64_t(m.trace.instructions.size());
    m.trace.instructions.push_back(b.instructions[i]);
    m.trace.instructions.back().site = site(b.instructions[i].site);
  }
  for (Finding& f : b.findings) {
    if (f.site >= 0) f.site = int(site(uint32_t(f.site)));
    m.findings.Merge(std::move(f));
  }
  m.trace.barriers += b.barriers;
  if (m.hierarchy) {
    m.hierarchy->BeginBlock(b.block, m.trace.shape.WarpsPerBlock(), a.shared_before);
    if (b.encoded) m.hierarchy->AdoptBlock(std::move(b.warps), w.site_map);
    WarpInstruction ins{WarpInstruction::Uninitialized{}};
    const auto& ev = b.events;
    for (size_t i = 0; i < ev.size();) {
      if (ev[i] == kBarrierEvent) {
        m.hierarchy->Barrier();
        ++i;
        continue;
      }
      ins.warp = uint32_t(ev[i]);
      ins.op = Op((ev[i] >> 32) & 0xff);
      const int n = int(ev[i] >> 40);
      ins.site = site(uint32_t(ev[i + 1]));
      const int64_t traced = ev[i + 2] ? a.trace_index[ev[i + 2] - 1] : -1;
      m.hierarchy->Record(ins, traced, &ev[i + 3], n);
      i += 3 + size_t(n);
    }
  }
  a.shared_before = b.shared_bytes;
  // The shared arrays the block placed, for an early copy of the trace (the launch's layout is
  // settled at its end).
  if (b.arrays.size() > m.trace.arrays.size() && IsPrefix(m.trace.arrays, b.arrays)) m.trace.arrays = b.arrays;
  if (b.abort) m.abort = true;
  // Without the caches the selected block's part is final once it has run (if a block follows);
  // with them its steps once the block after it has run too, where its marks come before the
  // launch's end (as the serial run gives them, engine.cpp).
  const auto& sel = m.opt.selection;
  if ((sel.kind == Selection::Kind::Block || sel.kind == Selection::Kind::Warp) && !b.abort && !m.Cancelled()) {
    if (!m.hierarchy && b.block == sel.block && b.block + 1 < a.total) m.PublishSelected();
    else if (m.hierarchy && b.block == sel.block + 1 && m.hierarchy->TracedFinalToCome()) m.PublishSelectedSteps();
  }
}

// ---- [SECTION] the launch -----------------------------------------------------------------
bool ParallelRun::RunAttempt(const LaunchShape& s, const std::vector<Worker*>& team, GlobalShadow* shadow) {
  AttemptState a;
  a.shape = s;
  a.total = s.grid.Count();
  a.window = 8 * team.size();
  a.shadow = shadow;
  a.outs.resize(a.window);
  a.owner.assign(a.window, nullptr);
  a.ready.assign(a.window, 0);
  a.shared_before = main_.shared.bytes();
  for (Worker* w : team) w->engine->shadow = shadow;
  RunOn(team, [&](Worker& w) { Work(w, a); });
  TryMerge(a);
  for (Worker* w : team) {
    w->engine->shadow = nullptr;
    w->TrimSites();
  }
  // Whether no block past the one that stopped the launch ran (its writes would stay).
  return a.stop_at.load() == ~0ull || a.last_run.load() <= a.stop_at.load() + 1;
}

namespace {
bool SameArray(const ArrayInfo& x, const ArrayInfo& y) {
  return x.id == y.id && x.name == y.name && x.type == y.type && x.elem_bytes == y.elem_bytes &&
         x.count == y.count && x.rows == y.rows && x.cols == y.cols && x.space == y.space && x.base == y.base;
}
bool IsPrefix(const std::vector<ArrayInfo>& p, const std::vector<ArrayInfo>& of) {
  if (p.size() > of.size()) return false;
  for (size_t i = 0; i < p.size(); ++i)
    if (!SameArray(p[i], of[i])) return false;
  return true;
}
}  // namespace

void ParallelRun::Run(const LaunchShape& s, const std::function<void()>& make_hierarchy) {
  EngineImpl& m = main_;
  // The team: workers whose arrays are a prefix of the launch's. Global arrays bound since their
  // last launch are theirs too, unless they lack a shared array placed before them (then their
  // ids would differ: the worker runs no more blocks). A worker that lacks only shared arrays at
  // the end places them where they are if it meets them (the layout check below sees it did).
  // Those that hold every array come first: a launch on one thread runs on one of them.
  std::vector<Worker*> team, partial;
  for (auto& w : workers_) {
    if (w->stale) continue;
    auto& arrays = w->engine->trace.arrays;
    bool missing_shared = false;
    for (size_t i = arrays.size(); i < m.trace.arrays.size() && !w->stale; ++i) {
      if (m.trace.arrays[i].space == Space::Shared) missing_shared = true;
      else if (missing_shared) w->stale = true;
      else arrays.push_back(m.trace.arrays[i]);
    }
    if (w->stale) continue;
    (arrays.size() == m.trace.arrays.size() ? team : partial).push_back(w.get());
  }
  if (team.empty()) throw std::logic_error("no worker holds the launch's shared layout");
  team.insert(team.end(), partial.begin(), partial.end());
  for (Worker* w : team) {
    EngineImpl& e = *w->engine;
    e.trace.shape = s;
    e.body = m.body;
    e.shared.SetDynamicBytes(s.dynamic_shared_bytes);
    w->arrays = e.trace.arrays;
    w->shared = e.shared;
    w->slot_array = e.slot_array;
  }
  // Several threads only where a restart is possible: every array's bytes are known.
  const uint64_t blocks = s.grid.Count();
  bool have_data = true;
  uint64_t lo = ~0ull, hi = 0;
  for (const ArrayInfo& arr : m.trace.arrays)
    if (arr.space == Space::Global) {
      have_data = have_data && size_t(arr.id) < m.array_data.size() && m.array_data[size_t(arr.id)];
      lo = std::min(lo, arr.base);
      hi = std::max(hi, arr.base + uint64_t(arr.elem_bytes) * arr.count);
    }
  const bool parallel = team.size() > 1 && blocks > 1 && blocks < (1ull << 30) && have_data;
  m.trace.threads = 1;
  m.trace.threads_note.clear();
  if (!parallel) {
    if (team.size() > 1 && blocks > 1 && !have_data)
      m.trace.threads_note = "the launch's arrays were bound without their bytes";
    RunAttempt(s, {team.front()}, nullptr);
  } else {
    // What a restart puts back: the arrays' bytes, and the engine as it was.
    std::vector<std::vector<unsigned char>> bytes;
    for (const ArrayInfo& arr : m.trace.arrays)
      if (arr.space == Space::Global) {
        const auto* p = static_cast<const unsigned char*>(m.array_data[size_t(arr.id)]);
        bytes.emplace_back(p, p + uint64_t(arr.elem_bytes) * arr.count);
      }
    Trace trace = m.trace;
    const auto per_site = m.per_site;
    const auto site_index = m.site_index;
    const auto site_files = m.site_files;
    const FindingLog findings = m.findings;
    std::vector<size_t> site_maps;
    for (Worker* w : team) site_maps.push_back(w->site_map.size());

    // The selected block's early copies are given by the merge while no block has found the
    // launch order-dependent (parallel_run.h says why they are the serial run's then).
    GlobalShadow shadow(lo == ~0ull ? 0 : lo, hi > lo ? hi - lo : 0);
    shadow.SetConst(m.trace.arrays, m.const_arrays);
    shadow.Commit(m.trace.arrays);
    const auto publish = m.opt.on_selected_final;
    const auto publish_steps = m.opt.on_selected_ran;
    // The wrappers below capture this scope: whatever leaves it puts the callbacks back.
    RestoreOnExit keep_final(m.opt.on_selected_final);
    RestoreOnExit keep_steps(m.opt.on_selected_ran);
    bool gave = false, gave_steps = false;
    if (publish)
      m.opt.on_selected_final = [&](Trace t) {
        if (shadow.reason() != GlobalShadow::kNone) return;
        gave = true;
        publish(std::move(t));
      };
    if (publish_steps)
      m.opt.on_selected_ran = [&](Trace t) {
        if (shadow.reason() != GlobalShadow::kNone) return;
        gave_steps = true;
        publish_steps(std::move(t));
      };
    const bool clean = RunAttempt(s, team, &shadow);
    m.opt.on_selected_final = publish;
    m.opt.on_selected_ran = publish_steps;
    GlobalShadow::Reason why = shadow.reason();
    const bool cancelled = m.opt.control && m.opt.control->cancel.load();
    if (why == GlobalShadow::kNone && !clean && !cancelled) why = GlobalShadow::kStopped;
    if (why == GlobalShadow::kNone) {
      const std::vector<ArrayInfo>* longest = &team.front()->engine->trace.arrays;
      for (Worker* w : team)
        if (w->engine->trace.arrays.size() > longest->size()) longest = &w->engine->trace.arrays;
      for (Worker* w : team)
        if (!IsPrefix(w->engine->trace.arrays, *longest)) why = GlobalShadow::kLayout;
      if (!IsPrefix(m.trace.arrays, *longest)) why = GlobalShadow::kLayout;
    }
    if (why == GlobalShadow::kNone) {
      m.trace.threads = uint32_t(team.size());
    } else {
      // Again on one thread, from the beginning.
      size_t k = 0;
      for (const ArrayInfo& arr : m.trace.arrays)
        if (arr.space == Space::Global)
          std::memcpy(m.array_data[size_t(arr.id)], bytes[k].data(), bytes[k].size()), ++k;
      m.trace = std::move(trace);
      m.per_site = per_site;
      m.site_index = site_index;
      m.site_files = site_files;
      m.findings = findings;
      for (auto& slot : m.site_cache) slot = {};
      m.abort = false;
      if (auto* c = m.opt.control) c->blocks_done.store(0);
      make_hierarchy();
      for (size_t i = 0; i < team.size(); ++i) {
        Worker& w = *team[i];
        EngineImpl& e = *w.engine;
        e.trace.arrays = w.arrays;
        e.shared = w.shared;
        e.slot_array = w.slot_array;
        e.generation = NewGeneration();  // every slot looks itself up again
        w.site_map.resize(site_maps[i]);
        w.TrimSites();
      }
      // What was given is the serial run's, unless the shared layout differed (see above).
      if (why != GlobalShadow::kLayout) {
        if (gave) m.opt.on_selected_final = nullptr;
        if (gave_steps) m.opt.on_selected_ran = nullptr;
      }
      RunAttempt(s, {team.front()}, nullptr);
      m.opt.on_selected_final = publish;
      m.opt.on_selected_ran = publish_steps;
      m.trace.threads_note = ToString(why);
    }
  }
  // The launch's shared layout is the longest of the team's (the others are its prefixes); a
  // worker that lacks some of it runs no more blocks.
  Worker* longest = team.front();
  for (Worker* w : team)
    if (w->engine->trace.arrays.size() > longest->engine->trace.arrays.size()) longest = w;
  m.trace.arrays = longest->engine->trace.arrays;
  m.shared = longest->engine->shared;
  for (auto& w : workers_)
    if (!IsPrefix(w->engine->trace.arrays, m.trace.arrays)) w->stale = true;
}

}  // namespace ws::sim::detail
