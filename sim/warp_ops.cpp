// Warp operations: the semantics of __shfl*_sync, the votes, __syncwarp and __activemask for the
// lanes that meet at one, CUDA's rule on their masks, and the hooks the dialect calls.
#include <cstdio>
#include <string>

#include "sim/engine_impl.h"
#include "sim/race_check.h"

namespace ws::sim::detail {

const char* ToString(WarpOp op) {
  switch (op) {
    case WarpOp::ShflIdx: return "__shfl_sync";
    case WarpOp::ShflUp: return "__shfl_up_sync";
    case WarpOp::ShflDown: return "__shfl_down_sync";
    case WarpOp::ShflXor: return "__shfl_xor_sync";
    case WarpOp::VoteAll: return "__all_sync";
    case WarpOp::VoteAny: return "__any_sync";
    case WarpOp::Ballot: return "__ballot_sync";
    case WarpOp::SyncWarp: return "__syncwarp";
    case WarpOp::ActiveMask: return "__activemask";
  }
  return "?";
}

bool SameCall(const ThreadCtx& a, const ThreadCtx& b) {
  return a.pend_loc.line() == b.pend_loc.line() && a.pend_loc.column() == b.pend_loc.column() &&
         a.pend_loc.file_name() == b.pend_loc.file_name() && a.xchg_op == b.xchg_op;
}

// Performs a shuffle, vote or __syncwarp for the lanes waiting at `key`.
void EngineImpl::Exchange(uint32_t first, uint32_t last, uint64_t key) {
  uint32_t present = 0;
  for (uint32_t i = first; i < last; ++i) {
    const ThreadCtx& t = threads[i];
    if (t.pause == Pause::WarpSync && t.Empty() && t.pend_key == key) present |= 1u << t.lane;
  }
  // CUDA's rule for *_sync operations: every lane that executes one is named in its mask, and
  // every lane the mask names executes it (with the same mask).
  uint32_t unnamed = 0, named = 0;
  const ThreadCtx* lead = nullptr;
  const ThreadCtx* first_unnamed = nullptr;
  for (uint32_t i = first; i < last; ++i) {
    const ThreadCtx& t = threads[i];
    if (!(present >> t.lane & 1)) continue;
    if (!lead) lead = &t;
    named |= t.xchg_mask;
    if (!(t.xchg_mask >> t.lane & 1)) {
      unnamed |= 1u << t.lane;
      if (!first_unnamed) first_unnamed = &t;
    }
  }
  if (lead && lead->xchg_op == WarpOp::ActiveMask) {
    for (uint32_t i = first; i < last; ++i)
      if (present >> threads[i].lane & 1) threads[i].xchg_out = present;
    return;
  }
  // The lanes that take part synchronise with one another (see sim/race_check.h).
  JoinVectorClocks(*this, first, last, present);
  const uint32_t absent = named & ~present;
  if (lead && (unnamed || absent)) {
    const int site = int(InternSite(lead->pend_loc));
    if (!findings.CountRepeat(FindingKind::ShuffleMask, site)) {
      const ThreadCtx& who = first_unnamed ? *first_unnamed : *lead;
      char mask[16];
      std::snprintf(mask, sizeof mask, "0x%08x", who.xchg_mask);
      const std::string op = ToString(who.xchg_op);
      const std::string warp = " of warp " + std::to_string(who.warp);
      std::string msg =
          unnamed ? "lane(s) " + LaneList(unnamed) + warp + " execute " + op +
                        " without being named in its mask " + mask +
                        "; CUDA requires every lane that calls it to be in the mask (the result "
                        "is undefined)"
                  : op + " with mask " + mask + " names lane(s) " + LaneList(absent) + warp +
                        ", which do not reach it (lanes here: " + LaneList(present) +
                        "); CUDA requires every lane in the mask to execute it (it may hang or "
                        "give an undefined result)";
      findings.Add(FindingKind::ShuffleMask, who, site, msg, -1, 0, 0);
    }
  }
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (!(present >> t.lane & 1)) continue;
    const uint32_t voters = present & t.xchg_mask;
    const int w = t.xchg_width;
    const int seg = int(t.lane) & ~(w - 1), pos = int(t.lane) & (w - 1);
    int src = int(t.lane);
    switch (t.xchg_op) {
      case WarpOp::ShflIdx: src = seg + (t.xchg_arg & (w - 1)); break;
      case WarpOp::ShflUp: src = pos >= t.xchg_arg ? int(t.lane) - t.xchg_arg : int(t.lane); break;
      case WarpOp::ShflDown: src = pos + t.xchg_arg < w ? int(t.lane) + t.xchg_arg : int(t.lane); break;
      case WarpOp::ShflXor: {
        const int x = int(t.lane) ^ t.xchg_arg;
        src = (x & ~(w - 1)) == seg ? x : int(t.lane);
        break;
      }
      case WarpOp::VoteAll: {
        bool all = true;
        for (uint32_t j = first; j < last; ++j)
          if (voters >> threads[j].lane & 1) all &= threads[j].xchg_in != 0;
        t.xchg_out = all;
        continue;
      }
      case WarpOp::VoteAny: {
        bool any = false;
        for (uint32_t j = first; j < last; ++j)
          if (voters >> threads[j].lane & 1) any |= threads[j].xchg_in != 0;
        t.xchg_out = any;
        continue;
      }
      case WarpOp::Ballot: {
        uint32_t b = 0;
        for (uint32_t j = first; j < last; ++j)
          if ((voters >> threads[j].lane & 1) && threads[j].xchg_in) b |= 1u << threads[j].lane;
        t.xchg_out = b;
        continue;
      }
      case WarpOp::SyncWarp: case WarpOp::ActiveMask: continue;
    }
    if (!(present >> src & 1)) {
      const int site = int(InternSite(t.pend_loc));
      if (!findings.CountRepeat(FindingKind::ShuffleMask, site))
        findings.Add(FindingKind::ShuffleMask, t, site,
                     "the thread reads lane " + std::to_string(src) +
                         ", which is not taking part: the value is undefined",
                     -1, 0, 0);
      t.xchg_out = t.xchg_in;
    } else {
      t.xchg_out = threads[first + src].xchg_in;
    }
  }
}

// ---- hooks ----
namespace {
// A lane reaches a warp operation: it waits there until the warp issues it (RunWarp), then
// returns its result.
uint64_t WarpSync(ThreadCtx& t, uint32_t mask, uint64_t value, WarpOp op, int arg, int width,
                  std::source_location loc) {
  ++t.progress;
  t.pend_key = NextKey(t, loc, kSyncCode);
  t.pend_loc = loc;
  t.xchg_in = value;
  t.xchg_mask = mask;
  t.xchg_op = op;
  t.xchg_arg = arg;
  t.xchg_width = (width > 0 && width <= 32 && (width & (width - 1)) == 0) ? width : 32;
  t.pause = Pause::WarpSync;
  t.engine->Yield(t);
  return t.xchg_out;
}
}  // namespace

void SyncWarp(ThreadCtx& t, uint32_t mask, std::source_location loc) {
  WarpSync(t, mask, 0, WarpOp::SyncWarp, 0, 32, loc);
}
uint64_t Shuffle(ThreadCtx& t, uint32_t mask, uint64_t value, WarpOp op, int arg, int width,
                 std::source_location loc) {
  return WarpSync(t, mask, value, op, arg, width, loc);
}
uint32_t Vote(ThreadCtx& t, uint32_t mask, bool pred, WarpOp op, std::source_location loc) {
  return uint32_t(WarpSync(t, mask, pred, op, 0, 32, loc));
}

}  // namespace ws::sim::detail
