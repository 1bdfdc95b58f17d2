// Lane grouping: the lanes' buffered accesses become warp instructions. Lanes whose next event
// has the same grouping key (NextKey in sim/engine.h) issue together; the rest are masked off.
#include <cstdint>

#include "sim/engine_impl.h"
#include "sim/parallel_run.h"
#include "sim/rules.h"

namespace ws::sim::detail {

// Groups the lanes' buffered events into warp instructions: lanes whose next event has the
// same key (loop epoch, line, ordinal, column, op) form one instruction; the smallest key goes
// first. Stops where a lane's next step is not known yet.
void EngineImpl::GroupLanes(uint32_t first, uint32_t last, uint32_t warp) {
  for (;;) {
    // Fast path, a converged warp: every lane has an event and all share the first one's key.
    // One pass takes each lane's event; a lane that differs undoes the pass.
    if (!threads[first].Empty()) {
      const LaneEvent& lead = threads[first].buf[threads[first].head];
      const uint64_t key = lead.key;
      WarpInstruction ins{WarpInstruction::Uninitialized{}};
      // Lanes with one key have one op, but for a RED: MarkAtomicUsed makes some lanes ATOM.
      const bool reduction = (key & 3) == uint64_t(Op::Reduction);
      uint8_t atomic = 0;
      uint32_t i = first;
      for (; i < last; ++i) {
        ThreadCtx& t = threads[i];
        if (t.Empty() || t.buf[t.head].key != key) break;
        const LaneEvent& e = t.buf[t.head++];
        ins.addr[i - first] = e.addr;  // the lane
        if (reduction) atomic |= e.op() == Op::Atomic;
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
    if (!any) return;
    if (Buried(first, last, key)) {
      // Lanes that will reach the smallest key later (a path through the statement that others
      // skipped) issue their earlier accesses first: the smallest key no lane has further on.
      uint64_t next = ~0ull;
      bool next_pending = false;
      for (uint32_t i = first; i < last; ++i) {
        const ThreadCtx& t = threads[i];
        const bool pending = t.Empty() && (t.pause == Pause::Shared || t.pause == Pause::WarpSync);
        if (!t.Empty() || pending) {
          const uint64_t k = pending ? t.pend_key : t.buf[t.head].key;
          if (k == next) next_pending |= pending;
          else if (k > key && k < next && !Buried(first, last, k)) next = k, next_pending = pending;
        }
      }
      if (next != ~0ull) {
        key = next;
        pending_min = next_pending;
      }
    }
    if (pending_min && (key = BeforeSync(first, last, key)) == ~0ull) return;
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

// GroupLanes' counterpart of Issuable: where the earliest key is a warp operation whose mask
// names lanes that still have events buffered, the earliest of those events (~0 if none).
uint64_t EngineImpl::BeforeSync(uint32_t first, uint32_t last, uint64_t key) const {
  const ThreadCtx* lead = nullptr;
  for (uint32_t i = first; i < last && !lead; ++i) {
    const ThreadCtx& t = threads[i];
    if (t.Empty() && t.pause == Pause::WarpSync && t.pend_key == key) lead = &t;
  }
  uint64_t events = ~0ull;
  if (!lead) return events;
  for (uint32_t i = first; i < last; ++i) {
    const ThreadCtx& t = threads[i];
    if ((lead->xchg_mask >> t.lane & 1) && !t.Empty()) events = std::min(events, t.buf[t.head].key);
  }
  return events;
}

// True when a lane whose next step is not `key` has `key` further on: among its buffered events,
// or as the shared access or warp operation it waits at after them. Along one lane's events the
// epoch and line never decrease, so each search stops past key's.
bool EngineImpl::Buried(uint32_t first, uint32_t last, uint64_t key) const {
  const uint64_t where = KeyEpochLine(key);
  for (uint32_t i = first; i < last; ++i) {
    const ThreadCtx& t = threads[i];
    if (t.Empty() || t.buf[t.head].key == key) continue;
    bool past = false;
    for (uint32_t j = t.head + 1; j < t.size && !past; ++j) {
      if (t.buf[j].key == key) return true;
      past = KeyEpochLine(t.buf[j].key) > where;
    }
    if (!past && (t.pause == Pause::Shared || t.pause == Pause::WarpSync) && t.pend_key == key) return true;
  }
  return false;
}

// One warp instruction is complete: its site, the memory rules' cost, the counters, the trace
// and the cache model.
void EngineImpl::Emit(WarpInstruction& ins, const LaneEvent& e) {
  const char* file = e.loc.file_name();
  const uint32_t line = e.loc.line(), column = e.loc.column();
  // Line and column both pick the slot ((line * 64 + column) % 64 would be the column alone, and
  // two accesses at one column of neighbouring lines, as in `x = d[..]; y = d[..];`, would take
  // turns evicting each other).
  static_assert(kSiteCache == 64, "the slot is the top 6 bits of a 32-bit hash");
  auto& slot = site_cache[uint32_t(line * 0x9E3779B1u + column * 0x85EBCA77u) >> 26];
  if (slot.file != file || slot.line != line || slot.column != column)
    slot = {file, line, column, InternSite(file, line, column)};
  ins.site = slot.site;
  ins.array = e.array();
  if (ins.op != Op::Atomic) ins.op = e.op();
  ins.space = e.space();
  ins.is_volatile = e.is_volatile();
  ins.add = e.add();
  ins.width = e.width();
  ins.block = block_linear;
  ins.epoch = KeyEpoch(e.key);
  SectorList distinct;  // the sectors, when coalescing finds them, for the cache model
  const bool caches = hierarchy || (out && opt.caches);
  if (ins.space == Space::Global) cost_memo.Coalesce(ins, caches ? &distinct : nullptr);
  else BankConflicts(ins);
  per_site[ins.site].Add(ins);
  int64_t traced = -1;
  if (trace_block && (opt.selection.kind != Selection::Kind::Warp || opt.selection.warp == ins.warp)) {
    if (trace.instructions.size() < opt.max_trace_instructions) {
      traced = int64_t(trace.instructions.size());
      trace.instructions.push_back(ins);
    } else {
      trace.truncated = true;
    }
  }
  if (ins.space == Space::Global) {
    if (hierarchy) hierarchy->Record(ins, traced, distinct.s, distinct.n);
    else if (out && opt.caches) LogGlobal(ins, traced, distinct);
  }
}

// ---- hooks ----
void ChunkCheck(ThreadCtx& t) {
  t.engine->Yield(t);  // resumed only once the warp has consumed the buffer
  t.size = t.head = 0;
}

void MarkAtomicUsed(ThreadCtx& t) {
  // The key keeps its RED code, so lanes that use the result and lanes that do not still group.
  if (t.head < t.size && t.buf[t.size - 1].op() == Op::Reduction) t.buf[t.size - 1].SetOp(Op::Atomic);
}

}  // namespace ws::sim::detail
