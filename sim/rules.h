// Pure memory rules: what one warp instruction costs in sectors, lines and bank wavefronts,
// and the per-bank picture of a shared-memory instruction that the bank view draws.
#pragma once
#include <vector>

#include "sim/trace.h"

namespace ws::sim {

// Global memory (CUDA C++ Programming Guide, "Device Memory Accesses"; ncu's
// l1tex__t_sectors_*): a request costs the distinct 32-byte sectors its active lanes cover;
// lines are the distinct 128-byte lines. Ideal: IdealSectors.
// Atomics (ATOM, RED) follow their own rule, measured with ncu on an H100 (docs/FIDELITY.md,
// "Atomics"): one request per warp instruction; lanes on one address serialise while different
// addresses in one sector go together, so sectors = the sum over the distinct sectors touched
// of the most active lanes on one address inside that sector, and L2 requests = the same sum
// over 128-byte lines. Ideal: IdealSectors, as for every access. Exception: see
// CompilerAggregates.
// Fills sectors, lines, ideal_sectors, same_address_lanes and (atomics) l2_requests.
// With `distinct`, also gives the distinct sectors (byte address / 32, ascending: what
// DistinctSectors gives), except where a piece within 2 KiB of the others crosses a sector
// boundary (a misaligned access): n is -1 there.
struct SectorList {
  uint64_t s[kWarpSize];
  int n = -1;
};
void Coalesce(WarpInstruction& ins, SectorList* distinct = nullptr);

// The distinct 32-byte sectors an instruction's active lanes touch, ascending (SectorIndex of
// the byte address); returns how many (at most 32). Its order is the order of
// WarpInstruction::served.
int DistinctSectors(const WarpInstruction& ins, uint64_t (&sectors)[kWarpSize]);

// nvcc aggregates an integer atomic whose result is unused (RED) and whose address is the same
// for every active lane: one lane adds the warp's total (atomicAdd(&n, 1) from 32 lanes becomes
// one add of 32), so it costs 1 sector and 1 L2 request. Float atomics are never aggregated
// (float addition is not associative): 32 lanes on one float are 32 sectors. nvcc decides at
// compile time (the address provably uniform); the simulator judges by the addresses the
// lanes actually use, which agrees for the usual `atomicAdd(&counter, 1)`.
bool CompilerAggregates(const WarpInstruction& ins);

// Shared memory (Programming Guide, "Shared Memory" in the compute capability 5.x+ sections):
// 32 banks of 4-byte words; lanes reading one word share it (broadcast); distinct words in
// one bank serialise into extra wavefronts. Per phase (BankPhaseLanes) the wavefronts are the
// most distinct words one bank serves, the ideal is the distinct words / 32 rounded up (at
// least 1), and the conflict degree is wavefronts / ideal rounded up. Measured on an H100
// (docs/FIDELITY.md, "Vector types"): an 8-byte access (LDS.64/STS.64) is one phase of the
// whole warp, both words of each lane counted (consecutive float2: 2 wavefronts, ideal 2); a
// 16-byte store (STS.128) is four phases of 8 lanes; a 16-byte load (LDS.128) is served per
// half-warp, whose two quarter-warps share one wavefront when their bank sets are disjoint or
// all its lanes read one 16-byte word and otherwise add, at least 2 wavefronts in all.
// Fills wavefronts, ideal_wavefronts and conflict_degree.
void BankConflicts(WarpInstruction& ins);

// The phase rule: the lanes whose words are counted together — 32 for accesses of up to 8
// bytes, 8 (a quarter-warp) for 16-byte accesses. BankConflicts and SharedBanks both use it;
// nothing else may re-derive it.
int BankPhaseLanes(uint32_t width);

// Per bank: the distinct 4-byte words the active lanes touch, the lanes on each word and the
// phase that serves it. A bank's degree is its most distinct words within one phase divided
// by that phase's ideal passes, rounded up (0: untouched; 1: no conflict), so the largest
// degree equals BankConflicts' conflict_degree, and the wavefronts are the sum over phases of
// each phase's most distinct words in one bank (except 16-byte loads, whose quarter-warps
// may share a wavefront).
struct BankWord {
  uint64_t word = 0;      // byte offset / 4
  int phase = 0;          // 0 .. 32 / BankPhaseLanes(width) - 1
  std::vector<int> lanes;  // lanes reading or writing this word in this phase
};
struct BankColumn {
  std::vector<BankWord> words;  // in the order lanes reach them
  int degree = 0;
};
std::vector<BankColumn> SharedBanks(const WarpInstruction& ins);

// The ideal of a global request, one definition for loads, stores and atomics
// (IdealDefinition in rule_text.h words it): the distinct bytes the active lanes ask for
// (DistinctBytes), rounded up to 32-byte sectors. Never more than the sectors touched.
uint16_t IdealSectors(const WarpInstruction& ins);

// Distinct bytes the active lanes ask for: a byte several lanes read counts once.
uint64_t DistinctBytes(const WarpInstruction& ins);
// Distinct addresses (lane pieces) among the active lanes.
int DistinctAddresses(const WarpInstruction& ins);

// Applies whichever rule fits the instruction's space.
// `distinct`: see Coalesce.
inline void Analyze(WarpInstruction& ins, SectorList* distinct = nullptr) {
  if (ins.space == Space::Global) Coalesce(ins, distinct); else BankConflicts(ins);
}

}  // namespace ws::sim
