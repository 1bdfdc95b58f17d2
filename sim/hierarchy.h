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
//  - time (sim/memory_clock.h): every warp has a clock in SM cycles, and the wave's warps of
//    all SMs issue their global instructions earliest clock first (ties: by slice of the device,
//    ranges of merge groups, lower first, then in the order the warps became ready, at first
//    block and warp order: a rule a replay on several threads can follow); block k of the first
//    wave starts k x block_dispatch cycles into the launch, a block of a later wave when the
//    block before it in its place (on its SM) ended; a warp that waits for
//    data (a load) issues its next instruction when the data has arrived, others one cycle
//    later; a warp at __syncthreads waits until every warp of its block has reached it.
//    Shared-memory instructions and arithmetic take no time. The latencies are the device
//    profile's (MemoryTiming), measured on an H200;
//  - what each access does at each level is the device's CachePolicy (sim/cache_policy.h):
//    on Hopper loads allocate in L1; stores allocate their line in L1 and write through (a
//    store to a line present counts as an L1 hit, as ncu counts it; a store's own allocation is
//    not a hit for its other sectors, and lines of a store wider than wide_store_lines are there
//    for later stores only wide_store_delay later); atomics are performed at L2;
//  - L1 (per SM, capacity 256 KB minus the launch's shared carve-out): a load that misses
//    allocates its sector at once, so a second warp of the SM reading it while it is in flight
//    is an L1 hit with no L2 read (as measured), whose data comes when the sector arrives (as
//    measured: the warps of an SM that read what one of them missed wait for it together);
//  - L2 (one for the device, the profile's size): an L1 miss reads its sector from L2 unless
//    the same sector is in flight for another SM (merged: an L1 miss with no L2 read of its own,
//    as measured); an L2 miss is filled from DRAM a whole sector pair (64 bytes) at a time.
//    Stores and atomics write their sectors (write-back, no fill from DRAM for a store: the L2
//    keeps byte masks); dirty lines reach DRAM when evicted. Nothing is written back when the
//    kernel ends: ncu sees those bytes written later, not in the kernel. A launch also reads
//    its code and launch_read_bytes (parameters, constants) from DRAM, in the total only.
// Memory: a wave's streams grow with the wave (shortcut v0 at n = 1024: about 260 MB). When
// they hold more than `buffer_bytes` of memory (16 MiB by default) they are written to a
// temporary file and read back through a 2 KiB window per warp during the replay, so memory
// stays within the budget plus 2 KiB per resident warp (at most 64 x 132 on an H100: 17 MB)
// whatever n is; the replay order, hence every counter, is the same.
// What decides the traced block's served-from marks (and its SM's L1 log): the replay of the
// waves up to and including its own, w, and nothing after. Its SM's L1 (and the lines a wide
// store has not yet placed there) holds only what the blocks placed on that SM in waves 0..w did;
// the L2, the sectors in flight from DRAM and to each merge group of SMs, and the clock hold what
// the blocks of every SM did in waves 0..w-1 and in wave w before the traced block's instruction
// issued (earliest clock first). Wave w+1 is replayed only after wave w's replay has ended, so
// once it has, the marks are final: WhenTracedFinal says so while later waves are still to run.
// Within the replay, a turn depends only on the turns before it: a traced instruction's marks are
// final once every turn before its own has been replayed, which a replay of each warp's first
// records does up to the first turn of a warp whose records end before the warp did (CutWarp:
// the prefix pass of sim/prefix_pass.h, Trace::Caches::final_steps).
// The launch's last replay (Finish's: for a launch of one wave, the only one) may run on several
// threads (ReplayOn), with every result the same: sim/replay_window.h says how.
// Not modelled: contention (bandwidth, queues: latencies are fixed), the L2's two partitions,
// ECC and the hardware's real hash and replacement policy (see cache.h).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/cache.h"
#include "sim/cache_log.h"  // CompleteL1Steps, which the early picture calls too
#include "sim/device_profile.h"
#include "sim/sector_stream.h"
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
  // The block begun last, whose records were encoded as it ran on another thread (EncodeRecord,
  // EncodeBarrier: one stream per warp, none traced), in place of its Record and Barrier calls;
  // `sites` maps the site ids they hold to the launch's.
  void AdoptBlock(std::vector<WarpStream>&& warps, std::vector<uint32_t> sites);
  // The block being recorded stops here for `warp`: its stream ends before the warp did (a
  // prefix pass, LaunchOptions::on_selected_prefix). The replay then stops at the first turn such
  // a warp has no record for, and Finish says how many traced steps are final
  // (Trace::Caches::final_steps).
  void CutWarp(uint32_t warp);
  // The launch's last replay (Finish's) runs on this many threads (1: on the caller's, as every
  // earlier wave's does), with every result the same (sim/replay_window.h).
  void ReplayOn(uint32_t threads);
  // Blocks in a wave, once residency is known (a block after the first has begun); else 0.
  uint64_t BlocksPerWave() const;
  // The launch ended (shared_bytes: what its blocks' shared arrays need): replays what is left
  // and fills Trace::caches.
  void Finish(uint64_t shared_bytes);
  // A replay (a wave's, or the last at Finish) stops at its next turn once *cancel is set, and
  // Finish then replays nothing: a cancelled simulation ends at once, its cache counters
  // covering part of what ran.
  void StopWhen(const std::atomic<bool>* cancel);
  // The kernel's code (bytes, sim/compiled.h CodeBytes), which the launch reads from DRAM once
  // beside the profile's launch_read_bytes; 0: not known, an empty kernel's (kEmptyKernelCodeBytes).
  void ReadsCode(uint32_t bytes);
  // `then` is called once, on the simulating thread, when the traced block's wave has been
  // replayed in full and a block of a later wave begins (see above: its marks and its SM's L1
  // log are final then). Not when the traced block is in the last wave (Finish replays it: the
  // launch is done then) nor after a cancel.
  void WhenTracedFinal(std::function<void()> then);
  // Whether WhenTracedFinal's call is still to come before the launch ends: once residency is
  // known (a block after the first has begun), the traced block is in a wave before the last and
  // that wave has not been replayed yet.
  bool TracedFinalToCome() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};


}  // namespace ws::sim
