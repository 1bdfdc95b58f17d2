// The shared-memory race check: one shadow word per element says who wrote it and when, and a
// vector clock per lane says which of its warp's writes it has been ordered after.
// Section index: [SECTION] the rule · [SECTION] shadow words · [SECTION] vector clocks ·
// [SECTION] the check
#pragma once
#include <cstdint>
#include <cstring>
#include <source_location>

#include "sim/engine_impl.h"

namespace ws::sim::detail {

// ---- [SECTION] the rule -------------------------------------------------------------------
// A read of a shared word that another thread of the block wrote is a race unless something
// orders the write before the read (CUDA C++ Programming Guide, "Synchronization Functions",
// and "Independent Thread Scheduling" in the compute capability 7.x section):
//  - __syncthreads() between them: every earlier write is ordered (the barrier epoch differs);
//  - both threads in one warp, and a warp operation that both lanes took part in between
//    them: __syncwarp(mask) ("guarantees memory ordering among threads participating in the
//    barrier"), and also a shuffle or vote naming both lanes, which makes the participating
//    lanes meet there (the Guide does not promise memory ordering for shuffles and votes; the
//    simulator counts them as ordering so that it never warns about code that waits for the
//    other lane's value through them). Lanes keep a vector clock over their warp's lanes,
//    joined at every warp operation, so orderings through a third lane count too;
//  - both accesses volatile and in one warp: the warp-synchronous idiom of the pre-Volta
//    Guide (the unrolled last warp of the classic reduction, `volatile float* s = sdata;`).
//    The Guide's "Independent Thread Scheduling" no longer promises it since Volta, but while
//    the warp is converged each volatile access is a real load or store issued in program
//    order for the whole warp, so the value is right on an H100; the simulator does not
//    report it, and does not check that the warp is converged there.
// Anything else in one warp is a warp-synchronous race (a warning: the simulator's lockstep
// gives the lockstep value), and across warps a shared-memory race.

// ---- [SECTION] shadow words ---------------------------------------------------------------
// The shadow word of an element: block serial tag (24 bits, never 0) | barrier epoch (14) |
// written through volatile (1) | the writer's own clock (13) | writer + 1 (12). The epoch and
// the serial wrap harmlessly (a false report needs a word untouched for 16384 barriers or
// 2^24 blocks); a lane's clock stops at kClockMax warp operations per barrier interval, after
// which a missing ordering can go unreported, never a present one reported.
inline constexpr int kClockMax = 0x1fff;
constexpr uint64_t SerialTag(uint64_t serial) { return (serial - 1) % 0xffffff + 1; }
inline constexpr uint64_t kShadowStampMask = ~0ull << 26;  // serial and barrier epoch

// ---- [SECTION] vector clocks --------------------------------------------------------------
// The lane's vector clock over its warp (what it knows of each lane's count of warp
// operations), reset when a barrier has passed.
WS_INLINE inline uint16_t* VectorClock(EngineImpl& e, ThreadCtx& t) {
  if (t.clock_era != e.sync_era) [[unlikely]] {
    std::memset(t.clock, 0, sizeof t.clock);
    t.clock[t.lane] = 1;
    t.sync_line = 0;
    t.clock_era = e.sync_era;
  }
  return t.clock;
}
// The lanes of `present` (a mask over the warp [first, last)) take part in one warp operation:
// each learns what the others know, then counts one more operation of its own.
void JoinVectorClocks(EngineImpl& e, uint32_t first, uint32_t last, uint32_t present);

// ---- [SECTION] the check ------------------------------------------------------------------
// The findings (race_check.cpp): a read of `index` that nothing orders after `writer`'s write,
// and a read (or atomic update) of a word no thread of the block wrote.
void ReportRace(ThreadCtx& t, const SharedSlot& slot, std::source_location loc, uint64_t index,
                uint64_t addr, uint32_t writer, bool volatile_write, bool volatile_read);
void ReportUninitialized(ThreadCtx& t, const SharedSlot& slot, std::source_location loc,
                         uint64_t index, uint64_t addr, Op op);

// Checks lane t's access to element `index` (shadow word `sh`) and records a write in it.
// Inline on the per-access path (WS_INLINE): out of line it cost shortcut/v3 6% more instructions.
// Op::Atomic reads like a load for the initialisation check and writes like a store, and races
// with no other atomic.
WS_INLINE inline void CheckShared(EngineImpl& e, ThreadCtx& t, const SharedSlot& slot,
                        std::source_location loc, uint64_t index, uint64_t addr, Op op,
                        uint64_t& sh, bool is_volatile) {
  const uint64_t serial = SerialTag(e.block_serial);
  const uint64_t stamp = serial << 40 | uint64_t(e.barrier_epoch & 0x3fff) << 26;
  if (op == Op::Load || op == Op::Atomic) {
    if ((sh >> 40) != serial) [[unlikely]] {
      // No thread of this block wrote the word: on a GPU it holds whatever was there before.
      ReportUninitialized(t, slot, loc, index, addr, op);
      if (op == Op::Load) return;
    } else if (op == Op::Load && (sh & kShadowStampMask) == stamp && (sh & 0xfff) != 0 &&
               (sh & 0xfff) - 1 != t.linear) {
      const uint32_t writer = uint32_t(sh & 0xfff) - 1;
      const bool same_warp = writer / kWarpSize == t.warp;
      const bool volatile_write = (sh >> 25) & 1;
      if (same_warp) {
        const uint16_t write_clock = uint16_t((sh >> 12) & kClockMax);
        if (VectorClock(e, t)[writer % kWarpSize] >= write_clock) return;  // a warp operation
        if (volatile_write && is_volatile) return;                         // the volatile idiom
      }
      ReportRace(t, slot, loc, index, addr, writer, volatile_write, is_volatile);
    }
  }
  if (op != Op::Load)
    sh = stamp | uint64_t(is_volatile) << 25 | uint64_t(VectorClock(e, t)[t.lane]) << 12 |
         (t.linear + 1);
}

}  // namespace ws::sim::detail
