// The execution engine: blocks run one after another; a block's threads are fibers.
// Section index: stacks · EngineImpl (state) · findings · warp scheduling and grouping ·
// hooks called by the dialect · Engine (public face).
#include "sim/engine.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include <boost/context/fiber.hpp>

#include "sim/rules.h"

namespace ws::sim {
namespace detail {

constinit thread_local ThreadCtx* t_current = nullptr;

namespace ctx = boost::context;

#ifndef WS_FIBER_STACK
#define WS_FIBER_STACK (64 * 1024)
#endif

// ---- stacks: one pool per engine, reused by every block ----------------------------------
class StackPool {
 public:
  ~StackPool() { for (void* p : free_) std::free(p); }
  ctx::stack_context Take() {
    void* p;
    if (free_.empty()) {
      p = std::aligned_alloc(64, WS_FIBER_STACK);
      if (!p) throw std::bad_alloc();
    } else {
      p = free_.back();
      free_.pop_back();
    }
    ctx::stack_context sc;
    sc.size = WS_FIBER_STACK;
    sc.sp = static_cast<char*>(p) + WS_FIBER_STACK;
    return sc;
  }
  void Give(ctx::stack_context& sc) { free_.push_back(static_cast<char*>(sc.sp) - sc.size); }
 private:
  std::vector<void*> free_;
};

struct PoolAllocator {
  StackPool* pool;
  ctx::stack_context allocate() { return pool->Take(); }
  void deallocate(ctx::stack_context& sc) noexcept { pool->Give(sc); }
};

std::atomic<uint64_t> g_generation{0};
std::atomic<uint64_t> g_block_serial{0};

constexpr size_t kSharedLimit = 48 * 1024;  // static shared memory per block

// ---- engine state ----------------------------------------------------------------------
class EngineImpl {
 public:
  explicit EngineImpl(LaunchOptions o) : opt(std::move(o)), generation(++g_generation) {}

  LaunchOptions opt;
  Trace trace;
  uint64_t generation;
  uint64_t next_global_base = 0x7f0000000000ull;
  uint64_t shared_bytes = 0;
  bool abort = false;

  // current block
  std::vector<ThreadCtx> threads;
  std::vector<ctx::fiber> fibers;  // the thread's fiber, when the scheduler holds it
  std::vector<ctx::fiber> sinks;   // the scheduler, when the thread holds it
  std::function<void()> body;
  StackPool stacks;
  uint32_t block_linear = 0;
  uint64_t block_serial = 0;
  uint32_t barrier_epoch = 0;
  bool trace_block = false;
  std::vector<Counters> per_site;
  std::unordered_map<uint64_t, uint32_t> site_index;  // (file ptr ^ line/col) -> site
  std::map<std::pair<int, int>, size_t> finding_index;  // (kind, site) -> finding

  uint32_t InternSite(std::source_location loc) {
    return InternSite(loc.file_name(), loc.line(), loc.column());
  }
  uint32_t InternSite(const char* file, uint32_t line, uint32_t column) {
    uint64_t key = reinterpret_cast<uintptr_t>(file) * 0x9E3779B97F4A7C15ull ^
                   (uint64_t(line) << 24 | column);
    auto it = site_index.find(key);
    if (it != site_index.end()) return it->second;
    uint32_t id = uint32_t(trace.sites.size());
    trace.sites.push_back({file, line, column});
    per_site.emplace_back();
    site_index.emplace(key, id);
    return id;
  }

  // True (and counted) when this kind of finding was already reported at this site, so that
  // the caller need not build the message again.
  bool Seen(FindingKind kind, int site) {
    auto it = finding_index.find(std::make_pair(int(kind), site));
    if (it == finding_index.end()) return false;
    ++trace.findings[it->second].occurrences;
    return true;
  }

  void AddFinding(FindingKind kind, const ThreadCtx& t, int site, std::string message, int array,
                  uint64_t address, int64_t index) {
    auto key = std::make_pair(int(kind), site);
    auto it = finding_index.find(key);
    if (it != finding_index.end()) { ++trace.findings[it->second].occurrences; return; }
    if (trace.findings.size() >= opt.max_findings) return;
    Finding f;
    f.kind = kind;
    f.message = std::move(message);
    f.block = {t.block_idx.x, t.block_idx.y, t.block_idx.z};
    f.thread = {t.thread_idx.x, t.thread_idx.y, t.thread_idx.z};
    f.site = site;
    f.array = array;
    f.address = address;
    f.index = index;
    finding_index.emplace(key, trace.findings.size());
    trace.findings.push_back(std::move(f));
  }

  std::string Where(const ThreadCtx& t) const {
    char buf[96];
    std::snprintf(buf, sizeof buf, "thread (%u,%u,%u) of block (%u,%u,%u)", t.thread_idx.x,
                  t.thread_idx.y, t.thread_idx.z, t.block_idx.x, t.block_idx.y, t.block_idx.z);
    return buf;
  }

  // ---- fibers ----
  void Resume(ThreadCtx& t) {
    t_current = &t;
    fibers[t.linear] = std::move(fibers[t.linear]).resume();
    t_current = nullptr;
  }
  void Yield(ThreadCtx& t) {
    sinks[t.linear] = std::move(sinks[t.linear]).resume();
    t_current = &t;
  }

  void RunBlock(const LaunchShape& s, uint32_t bx, uint32_t by, uint32_t bz);
  void RunWarp(uint32_t first, uint32_t last);
  void Merge(uint32_t first, uint32_t last, uint32_t warp);
  void Emit(WarpInstruction& ins, const LaneEvent& e);
  void Exchange(uint32_t first, uint32_t last, uint64_t key);
  static constexpr size_t kSiteCache = 64;
  std::pair<const void*, uint32_t> site_cache[kSiteCache] = {};
};

// ---- one block -------------------------------------------------------------------------
void EngineImpl::RunBlock(const LaunchShape& s, uint32_t bx, uint32_t by, uint32_t bz) {
  const uint32_t n = uint32_t(s.block.Count());
  block_linear = bx + s.grid.x * (by + s.grid.y * bz);
  block_serial = ++g_block_serial;
  barrier_epoch = 0;
  const auto& sel = opt.selection;
  trace_block = sel.kind == Selection::Kind::All ||
                ((sel.kind == Selection::Kind::Block || sel.kind == Selection::Kind::Warp) &&
                 sel.block == block_linear);
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
    t.epoch = t.line = t.ord = 0;
    t.size = t.head = 0;
    t.pause = Pause::None;
    fibers[i] = ctx::fiber(std::allocator_arg, PoolAllocator{&stacks},
                           [this, i](ctx::fiber&& sink) {
                             sinks[i] = std::move(sink);
                             ThreadCtx& me = threads[i];
                             try {
                               body();
                             } catch (const std::exception& e) {
                               AddFinding(FindingKind::KernelException, me, -1,
                                          Where(me) + " threw: " + e.what(), -1, 0, 0);
                             }
                             me.pause = Pause::Done;
                             return std::move(sinks[i]);
                           });
  }
  const uint32_t warps = (n + kWarpSize - 1) / kWarpSize;
  for (;;) {
    for (uint32_t w = 0; w < warps; ++w) RunWarp(w * kWarpSize, std::min(n, (w + 1) * kWarpSize));
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
      AddFinding(FindingKind::BarrierDivergence, *first, site,
                 "threads of one block wait at different __syncthreads() calls; on a GPU this "
                 "hangs or gives undefined results",
                 -1, 0, 0);
    else if (done > 0)
      AddFinding(FindingKind::BarrierDivergence, *first, site,
                 std::to_string(done) + " thread(s) of the block exited without reaching this "
                 "__syncthreads(); CUDA requires every thread of the block to reach it",
                 -1, 0, 0);
    ++trace.barriers;
    ++barrier_epoch;
    for (auto& t : threads)
      if (t.pause == Pause::Barrier) {
        t.pause = Pause::None;
        t.epoch = max_epoch + 1;  // the warp reconverges at the barrier
      }
  }
  // fibers are all finished; release their stacks
  for (auto& f : fibers) f = ctx::fiber();
}

// Runs one warp until every live lane waits at a block barrier or has finished.
void EngineImpl::RunWarp(uint32_t first, uint32_t last) {
  const uint32_t warp = first / kWarpSize;
  auto waiting = [](const ThreadCtx& t) { return t.pause == Pause::Shared || t.pause == Pause::WarpSync; };
  for (;;) {
    for (uint32_t i = first; i < last; ++i) {
      ThreadCtx& t = threads[i];
      if (t.pause == Pause::None && t.Empty()) {
        t.size = t.head = 0;
        Resume(t);
      }
    }
    Merge(first, last, warp);
    bool runnable = false;
    uint64_t key = ~0ull;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      if (!t.Empty()) continue;
      if (t.pause == Pause::None) { runnable = true; break; }
      if (waiting(t) && t.pend_key < key) key = t.pend_key;
    }
    if (runnable) continue;
    if (key == ~0ull) {
      // Nothing pending: every lane is done or at a barrier, with its events emitted.
      for (uint32_t i = first; i < last; ++i)
        if (!threads[i].Empty())
          throw std::logic_error("warp scheduler: events left with no lane able to run");
      return;
    }
    // Issue the earliest pending shared access or warp operation: its lanes go together.
    bool sync = false;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      if (t.Empty() && waiting(t) && t.pend_key == key) sync |= t.pause == Pause::WarpSync;
    }
    if (sync) Exchange(first, last, key);
    for (uint32_t i = first; i < last; ++i) {
      ThreadCtx& t = threads[i];
      if (t.Empty() && waiting(t) && t.pend_key == key) t.pause = Pause::None;
    }
  }
}

// Groups the lanes' buffered events into warp instructions: lanes whose next event has the
// same key (loop epoch, line, ordinal, column, op) form one instruction; the smallest key goes
// first. Stops where a lane's next step is not known yet.
void EngineImpl::Merge(uint32_t first, uint32_t last, uint32_t warp) {
  for (;;) {
    // Fast path, a converged warp: every lane has an event and all share the first one's key.
    // One pass takes each lane's event; a lane that differs undoes the pass.
    if (!threads[first].Empty()) {
      const LaneEvent& lead = threads[first].buf[threads[first].head];
      const uint64_t key = lead.key;
      WarpInstruction ins{WarpInstruction::Uninitialized{}};
      uint8_t atomic = 0;
      uint32_t i = first;
      for (; i < last; ++i) {
        ThreadCtx& t = threads[i];
        if (t.Empty() || t.buf[t.head].key != key) break;
        const LaneEvent& e = t.buf[t.head++];
        ins.addr[t.lane] = e.addr;
        atomic |= e.op() == Op::Atomic;
      }
      if (i == last) {
        ins.mask = last - first == 32 ? ~0u : (1u << (last - first)) - 1;
        for (uint32_t l = last - first; l < uint32_t(kWarpSize); ++l) ins.addr[l] = 0;
        if (atomic) ins.op = Op::Atomic;
        ins.warp = warp;
        Emit(ins, threads[first].buf[threads[first].head - 1]);
        continue;
      }
      for (uint32_t j = first; j < i; ++j) --threads[j].head;
    }
    uint64_t key = ~0ull;
    bool pending_min = false, any = false;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      uint64_t k;
      bool pending = false;
      if (!t.Empty()) {
        k = t.buf[t.head].key;
      } else if (t.pause == Pause::Shared || t.pause == Pause::WarpSync) {
        k = t.pend_key;
        pending = true;
      } else if (t.pause == Pause::None) {
        return;  // this lane's next step is unknown until it runs
      } else {
        continue;  // done, or at a block barrier
      }
      any = true;
      if (k < key) { key = k; pending_min = pending; }
      else if (k == key) pending_min |= pending;
    }
    if (!any || pending_min) return;
    WarpInstruction ins;
    ins.mask = 0;
    const LaneEvent* lead = nullptr;
    for (uint32_t i = first; i < last; ++i) {
      ThreadCtx& t = threads[i];
      if (t.Empty() || t.buf[t.head].key != key) continue;
      const LaneEvent& e = t.buf[t.head++];
      if (!lead) lead = &e;
      ins.mask |= 1u << t.lane;
      ins.addr[t.lane] = e.addr;
      if (e.op() == Op::Atomic) ins.op = Op::Atomic;
    }
    ins.warp = warp;
    Emit(ins, *lead);
  }
}

void EngineImpl::Emit(WarpInstruction& ins, const LaneEvent& e) {
  // A site is decoded once per (file, line, column); the source_location pointer is its identity,
  // kept in a small direct-mapped cache in front of the site table.
  const void* id = *reinterpret_cast<const void* const*>(&e.loc);
  auto& slot = site_cache[(reinterpret_cast<uintptr_t>(id) >> 3) % kSiteCache];
  if (slot.first != id) slot = {id, InternSite(e.loc)};
  ins.site = slot.second;
  ins.array = e.array();
  if (ins.op != Op::Atomic) ins.op = e.op();
  ins.space = e.space();
  ins.width = e.width();
  ins.block = block_linear;
  ins.epoch = KeyEpoch(e.key);
  Analyze(ins);
  per_site[ins.site].Add(ins);
  if (trace_block && (opt.selection.kind != Selection::Kind::Warp || opt.selection.warp == ins.warp)) {
    if (trace.instructions.size() < opt.max_trace_instructions) trace.instructions.push_back(ins);
    else trace.truncated = true;
  }
}

// Performs a shuffle, vote or __syncwarp for the lanes waiting at `key`.
void EngineImpl::Exchange(uint32_t first, uint32_t last, uint64_t key) {
  uint32_t present = 0;
  for (uint32_t i = first; i < last; ++i) {
    const ThreadCtx& t = threads[i];
    if (t.pause == Pause::WarpSync && t.Empty() && t.pend_key == key) present |= 1u << t.lane;
  }
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (!(present >> t.lane & 1)) continue;
    const int site = int(InternSite(t.pend_loc));
    const uint32_t voters = present & t.xchg_mask;
    if ((t.xchg_mask & present) != t.xchg_mask || !(t.xchg_mask >> t.lane & 1)) {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "mask 0x%08x names lanes that are not here (lanes present: 0x%08x)",
                    t.xchg_mask, present);
      AddFinding(FindingKind::ShuffleMask, t, site, Where(t) + ": " + buf, -1, 0, 0);
    }
    const int w = t.xchg_width;
    const int seg = int(t.lane) & ~(w - 1), pos = int(t.lane) & (w - 1);
    int src = int(t.lane);
    switch (t.xchg_mode) {
      case 0: src = seg + (t.xchg_arg & (w - 1)); break;                       // __shfl_sync
      case 1: src = pos >= t.xchg_arg ? int(t.lane) - t.xchg_arg : int(t.lane); break;  // up
      case 2: src = pos + t.xchg_arg < w ? int(t.lane) + t.xchg_arg : int(t.lane); break;  // down
      case 3: { int s = int(t.lane) ^ t.xchg_arg; src = (s & ~(w - 1)) == seg ? s : int(t.lane); break; }
      case 10: {  // vote all
        bool all = true;
        for (uint32_t j = first; j < last; ++j)
          if (voters >> threads[j].lane & 1) all &= threads[j].xchg_in != 0;
        t.xchg_out = all;
        continue;
      }
      case 11: {  // vote any
        bool any = false;
        for (uint32_t j = first; j < last; ++j)
          if (voters >> threads[j].lane & 1) any |= threads[j].xchg_in != 0;
        t.xchg_out = any;
        continue;
      }
      case 12: {  // ballot
        uint32_t b = 0;
        for (uint32_t j = first; j < last; ++j)
          if ((voters >> threads[j].lane & 1) && threads[j].xchg_in) b |= 1u << threads[j].lane;
        t.xchg_out = b;
        continue;
      }
      default: continue;  // __syncwarp
    }
    if (!(present >> src & 1)) {
      AddFinding(FindingKind::ShuffleMask, t, site,
                 Where(t) + " reads lane " + std::to_string(src) +
                     ", which is not taking part: the value is undefined",
                 -1, 0, 0);
      t.xchg_out = t.xchg_in;
    } else {
      t.xchg_out = threads[first + src].xchg_in;
    }
  }
}

// ---- hooks -----------------------------------------------------------------------------
void ChunkCheck(ThreadCtx& t) {
  t.engine->Yield(t);  // resumed only once the warp has consumed the buffer
  t.size = t.head = 0;
}

void ReportOutOfBounds(ThreadCtx& t, std::source_location loc, int array, int64_t index) {
  EngineImpl& e = *t.engine;
  int site = int(e.InternSite(loc.file_name(), loc.line(), loc.column()));
  const ArrayInfo* a = nullptr;
  if (array >= 0 && array < int(e.trace.arrays.size())) a = &e.trace.arrays[array];
  std::string name = a ? a->name : "?";
  uint64_t count = a ? a->count : 0;
  uint64_t addr = a ? a->base + uint64_t(index) * a->elem_bytes : 0;
  e.AddFinding(FindingKind::OutOfBounds, t, site,
               e.Where(t) + " accesses " + name + "[" + std::to_string(index) + "], outside its " +
                   std::to_string(count) + " elements (line " + std::to_string(loc.line()) +
                   "); the access was skipped",
               array, addr, index);
}

void ReportMisaligned(ThreadCtx& t, std::source_location loc, int array, uint64_t addr,
                      uint32_t width) {
  EngineImpl& e = *t.engine;
  int site = int(e.InternSite(loc.file_name(), loc.line(), loc.column()));
  std::string name = array >= 0 ? e.trace.arrays[array].name : "?";
  char buf[64];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
  e.AddFinding(FindingKind::Misaligned, t, site,
               e.Where(t) + " makes a " + std::to_string(width) + "-byte access to " + name +
                   " at " + buf + ", not a multiple of " + std::to_string(width) +
                   ": a GPU faults (misaligned address); the access was skipped",
               array, addr, 0);
}

void MarkAtomicUsed(ThreadCtx& t) {
  // The key keeps its RED code, so lanes that use the result and lanes that do not still group.
  if (t.head < t.size && t.buf[t.size - 1].op() == Op::Reduction) t.buf[t.size - 1].SetOp(Op::Atomic);
}

uint64_t Generation(ThreadCtx& t) { return t.engine->generation; }

// The variable a subscript belongs to: `column` is the closing ']' of its last subscript.
std::string SharedNameAt(const std::string& text, uint32_t line_no, uint32_t column) {
  size_t pos = 0;
  for (uint32_t l = 1; l < line_no; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  const std::string line = text.substr(pos, text.find('\n', pos) - pos);
  int c = int(column) - 1;
  while (c >= 0 && c < int(line.size()) && line[c] == ']') {
    for (int depth = 0; c >= 0; --c) {
      if (line[c] == ']') ++depth;
      else if (line[c] == '[' && --depth == 0) break;
    }
    --c;
    while (c >= 0 && line[c] == ' ') --c;
  }
  const int end = c + 1;
  while (c >= 0 && (std::isalnum(static_cast<unsigned char>(line[c])) || line[c] == '_')) --c;
  return end > c + 1 ? line.substr(c + 1, end - c - 1) : std::string();
}

void RegisterShared(ThreadCtx& t, SharedSlot& slot, std::source_location loc,
                    uint32_t elem_bytes, uint64_t count, const char* type) {
  EngineImpl& e = *t.engine;
  uint64_t base = (e.shared_bytes + 15) & ~15ull;
  e.shared_bytes = base + elem_bytes * count;
  ArrayInfo a;
  a.id = int(e.trace.arrays.size());
  a.type = type;
  a.elem_bytes = elem_bytes;
  a.count = count;
  a.cols = count;
  a.space = Space::Shared;
  a.base = base;
  // Name it after the variable in the source: the column is the closing ']' of the subscript.
  a.name = "shared" + std::to_string(a.id);
  if (e.opt.source_text) {
    std::string name = SharedNameAt(e.opt.source_text(loc.file_name()), loc.line(), loc.column());
    if (!name.empty()) a.name = name;
  }
  e.trace.arrays.push_back(a);
  slot.generation = e.generation;
  slot.array = a.id;
  slot.base = base;
  if (e.shared_bytes > kSharedLimit && !e.abort) {
    e.abort = true;
    e.AddFinding(FindingKind::LaunchLimit, t, int(e.InternSite(loc.file_name(), loc.line(), loc.column())),
                 "the kernel's shared arrays need " + std::to_string(e.shared_bytes) +
                     " bytes, over the 48 KiB of static shared memory a block may have; the "
                     "launch stops after this block",
                 a.id, 0, 0);
  }
}

bool SharedAccess(ThreadCtx& t, const SharedSlot& slot, std::source_location loc,
                  uint64_t index, uint64_t count, uint32_t elem_bytes, uint32_t piece_bytes,
                  uint32_t pieces, Op op, uint64_t* shadow) {
  EngineImpl& e = *t.engine;
  if (index >= count) {
    ReportOutOfBounds(t, loc, slot.array, int64_t(index));
    return false;
  }
  const uint64_t addr = slot.base + index * elem_bytes;
  for (uint32_t p = 0; p < pieces; ++p) {
    // Wait for the warp: lanes at the same shared access issue it together. The lane is
    // resumed only with an empty buffer, so the event has room.
    t.pend_key = NextKey(t, loc, OpCode(op, Space::Shared));
    t.pend_loc = loc;
    t.pause = Pause::Shared;
    e.Yield(t);
    t.size = t.head = 0;
    LaneEvent& ev = t.buf[t.size++];
    ev.key = t.pend_key;
    ev.addr = addr + p * piece_bytes;
    ev.loc = loc;
    ev.meta = LaneEvent::Meta(slot.array, piece_bytes, op, Space::Shared);
  }
  // Race check, one shadow word per element: block serial, barrier epoch, writer + 1.
  const uint64_t stamp = (e.block_serial << 32) | (uint64_t(e.barrier_epoch & 0xfffff) << 12);
  uint64_t& sh = shadow[index];
  if (op == Op::Load) {
    if ((sh & ~0xfffull) == stamp && (sh & 0xfff) != 0 && (sh & 0xfff) - 1 != t.linear) {
      const uint32_t writer = uint32_t(sh & 0xfff) - 1;
      const bool same_warp = writer / kWarpSize == t.warp;
      const FindingKind kind = same_warp ? FindingKind::WarpSyncRace : FindingKind::SharedRace;
      const int site = int(e.InternSite(loc));
      if (e.Seen(kind, site)) return true;
      const auto& a = e.trace.arrays[slot.array];
      std::string msg = e.Where(t) + " reads " + a.name + "[" + std::to_string(index) +
                        "], written by thread " + std::to_string(writer) +
                        " of the block with no barrier in between";
      if (same_warp)
        msg += ". Both are in one warp, which the simulator (like a converged warp) runs in "
               "lockstep, so the value is right here; CUDA does not promise it since Volta: "
               "add __syncwarp() or __syncthreads()";
      else
        msg += ". They are in different warps: the value read depends on timing";
      e.AddFinding(kind, t, site, msg, slot.array, addr, int64_t(index));
    }
  } else {
    sh = stamp | (t.linear + 1);
  }
  return true;
}

void SyncThreads(ThreadCtx& t, std::source_location loc) {
  t.pend_key = NextKey(t, loc, kSyncCode);
  t.pend_loc = loc;
  t.pause = Pause::Barrier;
  t.engine->Yield(t);
  t.line = 0;  // after the barrier, grouping restarts in a fresh epoch
  t.ord = 0;
}

namespace {
uint64_t WarpOp(ThreadCtx& t, uint32_t mask, uint64_t value, int mode, int arg, int width,
                std::source_location loc) {
  t.pend_key = NextKey(t, loc, kSyncCode);
  t.pend_loc = loc;
  t.xchg_in = value;
  t.xchg_mask = mask;
  t.xchg_mode = mode;
  t.xchg_arg = arg;
  t.xchg_width = (width > 0 && width <= 32 && (width & (width - 1)) == 0) ? width : 32;
  t.pause = Pause::WarpSync;
  t.engine->Yield(t);
  return t.xchg_out;
}
}  // namespace

void SyncWarp(ThreadCtx& t, uint32_t mask, std::source_location loc) {
  WarpOp(t, mask, 0, 99, 0, 32, loc);
}
uint64_t Shuffle(ThreadCtx& t, uint32_t mask, uint64_t value, int mode, int arg, int width,
                 std::source_location loc) {
  return WarpOp(t, mask, value, mode, arg, width, loc);
}
uint32_t Vote(ThreadCtx& t, uint32_t mask, bool pred, int mode, std::source_location loc) {
  return uint32_t(WarpOp(t, mask, pred, 10 + mode, 0, 32, loc));
}

}  // namespace detail

// ---- Engine -----------------------------------------------------------------------------
Engine::Engine(LaunchOptions options) : impl_(std::make_unique<detail::EngineImpl>(std::move(options))) {}
Engine::~Engine() = default;

int Engine::BindGlobal(std::string name, std::string type, uint32_t elem_bytes, uint64_t count,
                       uint64_t rows, uint64_t cols) {
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
  e.next_global_base += (uint64_t(elem_bytes) * count + 511) & ~511ull;  // cudaMalloc aligns to 256+
  e.trace.arrays.push_back(a);
  return a.id;
}

const ArrayInfo& Engine::Array(int id) const { return impl_->trace.arrays.at(id); }

bool Engine::Run(const LaunchShape& s, std::function<void()> body) {
  auto& e = *impl_;
  auto t0 = std::chrono::steady_clock::now();
  e.trace.shape = s;
  detail::ThreadCtx probe;
  auto refuse = [&](const std::string& why) {
    e.AddFinding(FindingKind::LaunchLimit, probe, -1, why, -1, 0, 0);
    return false;
  };
  if (s.block.Count() == 0 || s.grid.Count() == 0) return refuse("the launch has an empty grid or block");
  if (s.block.Count() > 1024)
    return refuse("a block of " + std::to_string(s.block.Count()) +
                  " threads is over the 1024 a block may have");
  if (s.block.x > 1024 || s.block.y > 1024 || s.block.z > 64)
    return refuse("block dimensions are over 1024 x 1024 x 64");
  if (s.grid.y > 65535 || s.grid.z > 65535 || s.grid.x > 0x7fffffffu)
    return refuse("grid dimensions are over 2^31-1 x 65535 x 65535");
  if (e.opt.before_launch) e.opt.before_launch(s);
  e.body = std::move(body);
  for (uint32_t bz = 0; bz < s.grid.z && !e.abort; ++bz)
    for (uint32_t by = 0; by < s.grid.y && !e.abort; ++by)
      for (uint32_t bx = 0; bx < s.grid.x && !e.abort; ++bx) e.RunBlock(s, bx, by, bz);
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

}  // namespace ws::sim
