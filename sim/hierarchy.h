// The memory hierarchy of a launch: blocks placed on SMs in waves, the resident warps of the
// device interleaved instruction by instruction, each global sector looked up in its SM's L1,
// then in the device L2, then DRAM. Fills the cache counters and each traced instruction's
// served-from marks.
//
// How it runs beside the engine. The engine simulates one block after another (its fibers are
// per block), so it cannot interleave blocks itself. The hierarchy records, per warp, the
// sectors of every global instruction in issue order (compactly: varint deltas) with the
// block's barriers, and when a wave of blocks is complete it replays the wave:
//  - placement: block b runs on SM b % SMs in wave b / (blocks per SM x SMs); blocks per SM
//    from the residency rule (threads, warps, blocks, registers, shared memory; device_profile.h);
//  - scheduling (the policy): loose round-robin over every resident warp of the wave, all SMs
//    together: each turn, each warp that is not waiting issues its next global instruction;
//    a warp at __syncthreads waits until every warp of its block has reached it. Shared-memory
//    instructions and arithmetic take no turn (only global accesses touch the caches);
//  - L1 (per SM, capacity 256 KB minus the launch's shared carve-out): loads allocate; stores
//    do not allocate and write through (a store finding its sector counts as an L1 hit, as
//    ncu's l1tex__t_sector_hit_rate counts it); atomics are performed at L2 and skip L1;
//  - L2 (one for the device, 50 MB): every L1 load miss is an L2 read of that sector, filled
//    from DRAM on a miss; stores and atomics write their sectors (write-back, no fill from DRAM
//    for a store: the L2 keeps byte masks); dirty lines reach DRAM when evicted. Nothing is
//    written back when the kernel ends: ncu sees those bytes written later, not in the kernel.
// Memory: a wave's streams grow with the wave (shortcut v0 at n = 1024: about 260 MB). When
// they hold more than `buffer_bytes` of memory (16 MiB by default) they are written to a
// temporary file and read back through a 2 KiB window per warp during the replay, so memory
// stays within the budget plus 2 KiB per resident warp (at most 64 x 132 on an H100: 17 MB)
// whatever n is; the replay order, hence every counter, is the same.
// Not modelled: timing (the order is a policy, not a clock), misses in flight merging, the L2's
// two partitions, ECC and the hardware's real hash and replacement policy (see cache.h).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/cache.h"
#include "sim/device_profile.h"
#include "sim/trace.h"

namespace ws::sim {

class MemoryHierarchy {
 public:
  // per_site (indexed by WarpInstruction::site) and trace receive the counters and marks; both
  // must outlive the hierarchy. traced_block: the block whose SM's L1 is logged for a picture
  // (-1: none). buffer_bytes: the most the recorded streams keep in memory (see above).
  static constexpr uint64_t kDefaultBufferBytes = uint64_t(16) << 20;
  MemoryHierarchy(const DeviceProfile& device, uint32_t registers_per_thread,
                  const LaunchShape& shape, std::vector<Counters>* per_site, Trace* trace,
                  int64_t traced_block, uint64_t buffer_bytes = kDefaultBufferBytes);
  ~MemoryHierarchy();

  // The engine's events, in the order it simulates: a block starts (shared_bytes: what its
  // shared arrays needed so far, known fully once block 0 ran); a global instruction of it
  // (trace_index: its place in Trace::instructions, or -1); all its warps reached a barrier.
  void BeginBlock(uint64_t block, uint32_t warps, uint64_t shared_bytes);
  // `sectors`: the instruction's distinct sectors when the caller has them (DistinctSectors'
  // list, n of them), else null and they are found here.
  void Record(const WarpInstruction& ins, int64_t trace_index, const uint64_t* sectors = nullptr, int n = -1);
  void Barrier();
  // The launch ended (shared_bytes: what its blocks' shared arrays need): replays what is left
  // and fills Trace::caches.
  void Finish(uint64_t shared_bytes);
  // A replay (a wave's, or the last at Finish) stops at its next turn once *cancel is set, and
  // Finish then replays nothing: a cancelled simulation ends at once, its cache counters
  // covering part of what ran.
  void StopWhen(const std::atomic<bool>* cancel);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The distinct 32-byte sectors an instruction's active lanes touch, ascending (byte address /
// 32); returns how many (at most 32). Its order is the order of WarpInstruction::served.
int DistinctSectors(const WarpInstruction& ins, uint64_t (&sectors)[kWarpSize]);

}  // namespace ws::sim
