// Warp scheduling: runs a warp's lanes (fibers) until each waits at a block barrier or is done,
// and decides which pending shared access or warp operation the warp issues next.
#include <algorithm>
#include <stdexcept>

#include "sim/engine_impl.h"

namespace ws::sim::detail {

// Runs one warp until every live lane waits at a block barrier or has finished.
void EngineImpl::RunWarp(uint32_t first, uint32_t last) {
  const uint32_t warp = first / kWarpSize;
  auto waiting = [](const ThreadCtx& t) { return t.pause == Pause::Shared || t.pause == Pause::WarpSync; };
  for (;;) {
    if (Cancelled()) [[unlikely]] guard->Leave(GuardExit::Cancel, nullptr);
    for (uint32_t i = first; i < last; ++i) {
      ThreadCtx& t = threads[i];
      if (t.pause == Pause::None && t.Empty()) {
        if (block_cut && t.progress + t.size > block_cut) [[unlikely]] {
          warp_cut[warp] = 1;  // a prefix pass stops the warp here (engine_impl.h)
          return;
        }
        CountProgress(t, t.size);
        t.size = t.head = 0;
        Resume(t);
      }
    }
    GroupLanes(first, last, warp);
    bool runnable = false;
    uint64_t key = ~0ull;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      if (!t.Empty()) continue;
      if (t.pause == Pause::None) { runnable = true; break; }
      if (waiting(t) && t.pend_key < key) key = t.pend_key;
    }
    if (runnable) continue;
    if (key != ~0ull && Buried(first, last, key)) {  // lanes still on their way to it: the next one
      uint64_t next = ~0ull;
      for (uint32_t i = first; i < last; ++i) {
        const ThreadCtx& t = threads[i];
        if (t.Empty() && waiting(t) && t.pend_key > key && t.pend_key < next && !Buried(first, last, t.pend_key))
          next = t.pend_key;
      }
      if (next != ~0ull) key = next;
    }
    if (key == ~0ull) {
      // Nothing pending: every lane is done or at a barrier, with its events emitted.
      for (uint32_t i = first; i < last; ++i)
        if (!threads[i].Empty())
          throw std::logic_error("warp scheduler: events left with no lane able to run");
      return;
    }
    // Issue the earliest pending shared access or warp operation: its lanes go together.
    key = Issuable(first, last, key);
    bool sync = false;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      if (t.Empty() && waiting(t) && t.pend_key == key) sync |= t.pause == Pause::WarpSync;
    }
    if (sync) {
      Meet(first, last, key);
      Exchange(first, last, key);
    }
    for (uint32_t i = first; i < last; ++i) {
      ThreadCtx& t = threads[i];
      if (t.Empty() && waiting(t) && t.pend_key == key) t.pause = Pause::None;
    }
  }
}

// The key to issue instead of the earliest, `key`, where that is a warp operation whose mask
// names lanes still waiting at an access or another call (a path the others skipped): a *_sync
// call waits for the lanes it names, so theirs goes first.
uint64_t EngineImpl::Issuable(uint32_t first, uint32_t last, uint64_t key) {
  const uint64_t earliest = key;
  for (int guard = 0; guard < kWarpSize; ++guard) {
    const ThreadCtx* lead = nullptr;
    for (uint32_t i = first; i < last && !lead; ++i) {
      const ThreadCtx& t = threads[i];
      if (t.Empty() && t.pause == Pause::WarpSync && t.pend_key == key) lead = &t;
    }
    if (!lead || lead->xchg_mask == 0) return key;
    uint64_t other = ~0ull;
    for (uint32_t i = first; i < last; ++i) {
      const ThreadCtx& t = threads[i];
      if (!(lead->xchg_mask >> t.lane & 1) || !t.Empty() || t.pend_key == key) continue;
      if (t.pause == Pause::Shared || (t.pause == Pause::WarpSync && !SameCall(t, *lead)))
        other = std::min(other, t.pend_key);
    }
    if (other == ~0ull) return key;
    key = other;
  }
  return earliest;
}

// Lanes waiting at the same warp operation (the same call in the source) that its mask names
// meet there even where their keys differ: a lane that made an access the others skipped since
// the last barrier (`c ? shared[lane] : 0.0f` before a shuffle in a helper defined above)
// counts loop epochs differently, yet the GPU matches *_sync calls by instruction. They leave
// it with one epoch and ordinal, as a warp reconverges at a barrier. __activemask (mask 0)
// takes only the lanes that arrive together.
void EngineImpl::Meet(uint32_t first, uint32_t last, uint64_t key) {
  auto at_sync = [](const ThreadCtx& t) { return t.Empty() && t.pause == Pause::WarpSync; };
  const ThreadCtx* lead = nullptr;
  for (uint32_t i = first; i < last && !lead; ++i)
    if (at_sync(threads[i]) && threads[i].pend_key == key) lead = &threads[i];
  if (!lead || lead->xchg_mask == 0) return;
  uint32_t epoch = 0;
  LineSites sites;
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (!at_sync(t)) continue;
    if (t.pend_key != key) {
      if (!SameCall(t, *lead) || !(lead->xchg_mask >> t.lane & 1)) continue;
      t.pend_key = key;
    }
    epoch = std::max(epoch, t.epoch);
    sites.Merge(t.sites);
  }
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (at_sync(t) && t.pend_key == key) {
      t.epoch = epoch;
      t.sites = sites;
    }
  }
}

}  // namespace ws::sim::detail
