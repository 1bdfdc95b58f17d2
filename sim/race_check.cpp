// The shared-memory race check's findings and the joining of vector clocks at warp operations
// (the rule and the check itself: sim/race_check.h).
#include "sim/race_check.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace ws::sim::detail {

void JoinVectorClocks(EngineImpl& e, uint32_t first, uint32_t last, uint32_t present) {
  auto& threads = e.threads;
  uint16_t joined[kWarpSize] = {};
  for (uint32_t i = first; i < last; ++i) {
    if (!(present >> threads[i].lane & 1)) continue;
    const uint16_t* c = VectorClock(e, threads[i]);
    for (int k = 0; k < kWarpSize; ++k) joined[k] = std::max(joined[k], c[k]);
  }
  for (uint32_t i = first; i < last; ++i) {
    ThreadCtx& t = threads[i];
    if (!(present >> t.lane & 1)) continue;
    std::memcpy(t.clock, joined, sizeof joined);
    t.clock[t.lane] = uint16_t(std::min<int>(joined[t.lane] + 1, kClockMax));
    t.sync_line = t.pend_loc.line();
    t.sync_mask = t.xchg_mask;
    t.sync_op = t.xchg_op;
  }
}

void ReportUninitialized(ThreadCtx& t, const SharedSlot& slot, std::source_location loc,
                         uint64_t index, uint64_t addr, Op op) {
  EngineImpl& e = *t.engine;
  EngineSection section(t);
  const int site = int(e.InternSite(loc));
  if (e.findings.CountRepeat(FindingKind::UninitializedShared, site)) return;
  const auto& a = e.trace.arrays[slot.array];
  e.findings.Add(FindingKind::UninitializedShared, t, site,
                 std::string(op == Op::Atomic ? "the thread updates " : "the thread reads ") + a.name +
                     "[" + std::to_string(index) + "] before any thread of its block wrote it: shared memory starts "
                     "undefined in every block (compute-sanitizer's initcheck reports this too)",
                 slot.array, addr, int64_t(index), true);
}

void ReportRace(ThreadCtx& t, const SharedSlot& slot, std::source_location loc, uint64_t index,
                uint64_t addr, uint32_t writer, bool volatile_write, bool volatile_read) {
  EngineImpl& e = *t.engine;
  EngineSection section(t);
  const bool same_warp = writer / kWarpSize == t.warp;
  const FindingKind kind = same_warp ? FindingKind::WarpSyncRace : FindingKind::SharedRace;
  const int site = int(e.InternSite(loc));
  if (e.findings.CountRepeat(kind, site)) return;
  const auto& a = e.trace.arrays[slot.array];
  const uint32_t writer_lane = writer % kWarpSize;
  std::string msg = "the thread reads " + a.name + "[" + std::to_string(index) +
                    "], written by thread " + std::to_string(writer) + " of the block";
  // The last warp operation this thread passed since the last barrier, if any (VectorClock
  // forgets one from before the barrier).
  VectorClock(e, t);
  const bool synced = t.sync_line != 0;
  std::string last_op;
  if (synced) {
    char mask[16];
    std::snprintf(mask, sizeof mask, "0x%08x", t.sync_mask);
    last_op = std::string(ToString(t.sync_op)) + "(" + mask + ") at line " +
              std::to_string(t.sync_line);
  }
  if (!same_warp) {
    msg += ", with no __syncthreads() in between. They are in different warps: the value read "
           "depends on timing";
    if (synced)
      msg += " (the " + last_op + " orders only lanes of one warp; __syncthreads() orders the "
             "whole block)";
  } else if (synced && !(t.sync_mask >> writer_lane & 1)) {
    msg += " (lane " + std::to_string(writer_lane) + " of the same warp). The " + last_op +
           " leaves lane " + std::to_string(writer_lane) +
           " out of its mask, so it does not order that lane's write before this read: name "
           "both lanes in the mask";
  } else if (synced) {
    msg += " (lane " + std::to_string(writer_lane) + " of the same warp). The " + last_op +
           " that this thread passed does not order the write before the read: it came before "
           "the write, or lane " + std::to_string(writer_lane) +
           " did not take part in it; it must come between the write and the read";
  } else {
    msg += " (lane " + std::to_string(writer_lane) +
           " of the same warp) with nothing in between that orders the write before the read "
           "(no __syncwarp, shuffle, vote or __syncthreads). The simulator, like a converged "
           "warp, runs the warp in lockstep, so the value is right here; but CUDA does not "
           "promise lockstep since Volta, and ";
    if (!volatile_write && !volatile_read)
      msg += "without volatile the compiler may keep the values in registers (the classic "
             "unrolled last-warp reduction without volatile gives wrong results on an H100)";
    else
      msg += std::string("the ") + (volatile_write ? "read" : "write") +
             " is not volatile, so the compiler may keep the value in a register";
    msg += ": add __syncwarp() between the write and the read";
  }
  e.findings.Add(kind, t, site, msg, slot.array, addr, int64_t(index), true);
}

}  // namespace ws::sim::detail
