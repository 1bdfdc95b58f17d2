// What the trace keeps of the caches for the traced steps (Trace::Caches): the traced SM's L1
// slot changes (LogL1Change), each traced instruction's L2 lines with their sets as it left them
// (StepL2Lines), and the L1 log's steps that are not global accesses (CompleteL1Steps). The
// replay (sim/hierarchy.cpp) calls these for the traced block only; the counters never read them.
#pragma once
#include <cstddef>
#include <cstdint>

#include "sim/cache.h"
#include "sim/trace.h"

namespace ws::sim {

// At most this many L1 slot changes and L2 lines are kept; past them the trace says it was cut.
inline constexpr size_t kMaxL1Events = size_t(1) << 20;
inline constexpr size_t kMaxL2Lines = size_t(1) << 16;  // with their sets: 16 MiB on a 16-way L2

// The L1 slot the last lookup of `l1` changed, into trace.caches.l1_events (nothing for a miss that
// changed nothing).
void LogL1Change(Trace& trace, const SectorCache& l1);

// One traced instruction's L2 lines while it is issued: Begin, Note each sector that went to L2,
// Keep once the instruction is done. Made once per replay, not per instruction.
class StepL2Lines {
 public:
  void Begin() { n_ = 0; }
  // A sector that went to L2 (or came with another SM's read of it in flight: `merged`);
  // `l2_change` is what its L2 lookup changed.
  void Note(uint64_t sector, ServedFrom from, bool merged, const SectorCache::Change& l2_change);
  // The instruction's lines with their sets as it left them, into trace.caches for `trace_index`.
  void Keep(Trace& trace, const SectorCache& l2, size_t trace_index) const;

 private:
  Trace::Caches::L2Line noted_[kWarpSize];
  int n_ = 0;
};

// The L1 log's steps that are not global accesses (shared, or never replayed) show the L1 as the
// step before them left it: fills Trace::caches.l1_events_until for every instruction (or clears
// it when no block is traced: traced_sm < 0).
void CompleteL1Steps(Trace& trace);

}  // namespace ws::sim
