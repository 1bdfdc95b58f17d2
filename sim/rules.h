// Pure memory rules: what one warp instruction costs in sectors, lines and bank wavefronts.
#pragma once
#include "sim/trace.h"

namespace ws::sim {

// Global memory (CUDA C++ Programming Guide, "Device Memory Accesses"; ncu's
// l1tex__t_sectors_*): a request costs the distinct 32-byte sectors its active lanes cover;
// lines are the distinct 128-byte lines. Ideal: active lanes x width, rounded up to sectors,
// and never more than the sectors touched (a broadcast is already ideal).
// Fills sectors, lines, ideal_sectors and same_address_lanes.
void Coalesce(WarpInstruction& ins);

// Shared memory (Programming Guide, "Shared Memory" in the compute capability 5.x+ sections):
// 32 banks of 4-byte words; lanes reading one word share it (broadcast); distinct words in
// one bank serialise into extra wavefronts. 8- and 16-byte accesses are served in phases of
// 16 and 8 lanes. Fills wavefronts, ideal_wavefronts and conflict_degree.
void BankConflicts(WarpInstruction& ins);

// Applies whichever rule fits the instruction's space.
inline void Analyze(WarpInstruction& ins) {
  if (ins.space == Space::Global) Coalesce(ins); else BankConflicts(ins);
}

}  // namespace ws::sim
