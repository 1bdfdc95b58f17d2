// The cache model's rules on hand-worked access streams, block residency on an SM, and the
// replay's bounded memory (streams spilled to a file give the same counters).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "sim/cache.h"
#include "sim/device_profile.h"
#include "sim/hierarchy.h"
#include "sim/trace.h"

namespace ws::sim {
namespace {

using Outcome = SectorCache::Outcome;
constexpr uint64_t kLine = 128, kSector = 32;

// One set of `ways` lines: every line competes with every other, so LRU order is all there is.
SectorCache OneSet(uint32_t ways) { return SectorCache({ways * kLine, ways}); }

TEST(Cache, LeastRecentlyUsedLineOfTheSetIsEvicted) {
  SectorCache c = OneSet(2);
  const uint64_t a = 0, b = kLine, d = 2 * kLine;
  EXPECT_EQ(c.Access(a, true), Outcome::Miss);
  EXPECT_EQ(c.Access(b, true), Outcome::Miss);
  EXPECT_EQ(c.Access(a, true), Outcome::Hit);   // a is now more recent than b
  EXPECT_EQ(c.Access(d, true), Outcome::Miss);  // evicts b, the least recently used
  EXPECT_EQ(c.last_change().evicted, b / kLine);
  EXPECT_EQ(c.Access(a, true), Outcome::Hit);
  EXPECT_EQ(c.Access(b, true), Outcome::Miss);  // b was evicted; now d is the oldest
  EXPECT_EQ(c.Access(d, true), Outcome::Miss);
  EXPECT_EQ(c.stats().evictions, 3u);  // b (for d), d (for b), a (for d)
}

TEST(Cache, ASlotsStampStaysWithItsLineAndIsClearedWhenAnotherLineTakesTheSlot) {
  // Two ways, one set, stamps on: a's slot stamped 7 keeps 7 through a's hits and its other
  // sectors' fills; b fills the other slot at 0; d evicts b (a is more recent) and finds 0.
  SectorCache c({2 * kLine, 2, true});
  const uint64_t a = 0, b = kLine, d = 2 * kLine;
  c.Access(a, true);
  const uint32_t slot_a = c.last_change().slot;
  EXPECT_EQ(c.Stamp(slot_a), 0u);
  c.Stamp(slot_a) = 7;
  c.Access(b, true);
  const uint32_t slot_b = c.last_change().slot;
  c.Stamp(slot_b) = 9;
  EXPECT_EQ(c.Access(a + 32, true), Outcome::SectorMiss);  // a's second sector: same slot
  EXPECT_EQ(c.last_change().slot, slot_a);
  EXPECT_EQ(c.Stamp(slot_a), 7u);
  EXPECT_EQ(c.Access(d, true), Outcome::Miss);  // evicts b
  EXPECT_EQ(c.last_change().slot, slot_b);
  EXPECT_EQ(c.Stamp(slot_b), 0u);
  EXPECT_EQ(c.Stamp(slot_a), 7u);
}

TEST(Cache, SixteenWaySetEvictsItsLeastRecentlyUsedLine) {
  // The L2's associativity (16 ways, its own lookup path). Lines 0..15 fill the set (16 misses,
  // no eviction); reading them again from 15 down to 0 hits each (16 hits) and leaves 15 the
  // least recently used, so line 16 evicts line 15, and then line 17 evicts line 14.
  SectorCache c = OneSet(16);
  for (uint64_t l = 0; l < 16; ++l) EXPECT_EQ(c.Access(l * kLine, true), Outcome::Miss);
  EXPECT_EQ(c.stats().evictions, 0u);
  for (uint64_t l = 16; l-- > 0;) EXPECT_EQ(c.Access(l * kLine, true), Outcome::Hit);
  EXPECT_EQ(c.Access(16 * kLine, true), Outcome::Miss);
  EXPECT_EQ(c.last_change().evicted, 15u);
  EXPECT_EQ(c.Access(17 * kLine, true), Outcome::Miss);
  EXPECT_EQ(c.last_change().evicted, 14u);
  EXPECT_TRUE(c.Contains(0));
  EXPECT_FALSE(c.Contains(15 * kLine));
  EXPECT_EQ(c.stats().hits, 16u);
  EXPECT_EQ(c.stats().misses, 18u);
}

TEST(Cache, StreamThatFitsHitsOnItsSecondPass) {
  // 4 lines of 4 sectors in a 4-line cache. First pass: each line's first sector misses the
  // line (4), its other three miss only their sector (12). Second pass: all 16 sectors hit.
  SectorCache c = OneSet(4);
  for (int pass = 0; pass < 2; ++pass)
    for (uint64_t s = 0; s < 16; ++s) c.Access(s * kSector, true);
  EXPECT_EQ(c.stats().misses, 4u);
  EXPECT_EQ(c.stats().sector_misses, 12u);
  EXPECT_EQ(c.stats().hits, 16u);
  EXPECT_EQ(c.stats().evictions, 0u);
}

TEST(Cache, CyclicStreamOneLineTooLargeAlwaysMissesUnderLru) {
  // 5 lines cycled through a 4-way set: under LRU the line needed next is always the one just
  // evicted, so 3 passes x 5 lines = 15 misses, no hit; every miss after the first 4 evicts.
  SectorCache c = OneSet(4);
  for (int pass = 0; pass < 3; ++pass)
    for (uint64_t l = 0; l < 5; ++l) EXPECT_EQ(c.Access(l * kLine, true), Outcome::Miss);
  EXPECT_EQ(c.stats().hits, 0u);
  EXPECT_EQ(c.stats().evictions, 11u);
}

TEST(Cache, StoresDoNotAllocate) {
  SectorCache c = OneSet(4);
  EXPECT_EQ(c.Access(64, /*allocate=*/false), Outcome::Miss);  // a store: written through
  EXPECT_FALSE(c.Contains(64));
  EXPECT_EQ(c.Access(64, true), Outcome::Miss);  // the load after it still misses
  EXPECT_EQ(c.Access(64, false), Outcome::Hit);  // a store to a cached sector finds it
  EXPECT_EQ(c.Access(64 + kLine, false), Outcome::Miss);
  EXPECT_FALSE(c.Contains(64 + kLine));
}

TEST(Cache, SectorMissIsALinePresentWithoutTheSector) {
  SectorCache c = OneSet(1);
  EXPECT_EQ(c.Access(0, true), Outcome::Miss);            // line 0 absent
  EXPECT_EQ(c.Access(kSector, true), Outcome::SectorMiss);  // line 0 there, sector 1 not
  EXPECT_EQ(c.Access(kSector + 4, true), Outcome::Hit);   // same sector, another word
  EXPECT_EQ(c.Access(0, true), Outcome::Hit);
  EXPECT_EQ(c.last_change().valid, 0b0011);
}

TEST(Cache, DirtySectorsAreWrittenBackWhenTheirLineIsEvicted) {
  SectorCache c = OneSet(1);
  c.Access(0, true, /*dirty=*/true);
  c.Access(2 * kSector, true, true);
  c.Access(3 * kSector, true);       // clean
  c.Access(kLine, true);             // evicts line 0: 2 dirty sectors reach DRAM
  EXPECT_EQ(c.stats().written_back_sectors, 2u);
  c.Access(2 * kLine, true);         // evicts a clean line
  EXPECT_EQ(c.stats().written_back_sectors, 2u);
}

TEST(Cache, HashedSetsKeepAPowerOfTwoColumnStream) {
  // 64 lines 2 KiB apart (a column of a 512-float matrix) in a 256-line, 4-way cache: with a
  // plain modulo index they would share 4 of the 64 sets (16 lines); the hashed index spreads
  // them, so a second pass finds nearly all of them.
  SectorCache c({256 * kLine, 4});
  for (int pass = 0; pass < 2; ++pass)
    for (uint64_t r = 0; r < 64; ++r) c.Access(r * 2048, true);
  EXPECT_GE(c.stats().hits, 56u);
}

const DeviceProfile& H100() { return *FindDeviceProfile("H100"); }

TEST(DeviceProfile, FoundByFlagAndByRecordedName) {
  ASSERT_NE(FindDeviceProfile("h200"), nullptr);
  EXPECT_EQ(FindDeviceProfile("NVIDIA H100 80GB HBM3")->name, "H100");
  EXPECT_EQ(FindDeviceProfile("NVIDIA H200")->name, "H200");
  EXPECT_EQ(FindDeviceProfile("A100"), nullptr);
  EXPECT_EQ(H100().sms, 132u);
  EXPECT_EQ(H100().l2_bytes, 50ull << 20);
}

// A launch of blocks of `threads` threads in a row (the grid does not matter to residency).
LaunchShape BlockOf(uint32_t threads) { return LaunchShape{{1, 1, 1}, {threads, 1, 1}}; }

TEST(Residency, AWarpPerBlockIsCountedFromAllThreeDimensionsAndAPartialWarpIsAWarp) {
  // 13 x 5 threads = 65: three warps, the last of one thread. By warps 64 / 3 = 21 blocks; by
  // threads 2048 / 65 = 31; by blocks 32; by registers (16 x 32 = 512 per warp, 1536 a block)
  // 65536 / 1536 = 42. Two warps (65 / 32 cut short) or one (13 threads in x) would let 31 in.
  const Residency r = ComputeResidency(H100(), LaunchShape{{1, 1, 1}, {13, 5, 1}}, 16, 0);
  EXPECT_EQ(r.blocks_per_sm, 21u);
  EXPECT_EQ(r.limited_by, "warps");
}

TEST(Residency, ThreadsLimit256ThreadBlocksToEight) {
  // 2048 / 256 = 8 by threads; 64 / 8 warps = 8; registers 32 x 32 = 1024 per warp, 8192 per
  // block, 65536 / 8192 = 8. No shared memory: no carve-out, the whole 256 KiB is L1.
  Residency r = ComputeResidency(H100(), BlockOf(256), 32, 0);
  EXPECT_EQ(r.blocks_per_sm, 8u);
  EXPECT_EQ(r.limited_by, "threads");
  EXPECT_EQ(r.l1_bytes, 256u * 1024);
  EXPECT_EQ(r.blocks_per_wave, 8u * 132);
}

TEST(Residency, RegistersLimitSmallBlocksOfABigKernel) {
  // 64 threads, 96 registers: 96 x 32 = 3072 per warp, 6144 per block; 65536 / 6144 = 10
  // (threads would allow 32).
  Residency r = ComputeResidency(H100(), BlockOf(64), 96, 0);
  EXPECT_EQ(r.blocks_per_sm, 10u);
  EXPECT_EQ(r.limited_by, "registers");
}

TEST(Residency, RegistersRoundUpToEightPerThread) {
  // 18 registers allocate as 24: 24 x 32 = 768 per warp; 1024 threads = 32 warps = 24576 per
  // block; 65536 / 24576 = 2 (threads also allow 2, listed first).
  EXPECT_EQ(ComputeResidency(H100(), BlockOf(1024), 18, 0).blocks_per_sm, 2u);
  // 40 registers: 1280 per warp, 40960 per 1024-thread block: only 1.
  Residency r = ComputeResidency(H100(), BlockOf(1024), 40, 0);
  EXPECT_EQ(r.blocks_per_sm, 1u);
  EXPECT_EQ(r.limited_by, "registers");
}

TEST(Residency, SharedMemoryTakesItsCarveOutFromL1) {
  // A 32x32 float tile (4096 B) + 1 KiB reserved = 5120 B per block; 1024 threads: 2 blocks,
  // 10240 B of shared memory: the 16 KB carve-out, 240 KiB left for L1.
  Residency r = ComputeResidency(H100(), BlockOf(1024), 16, 4096);
  EXPECT_EQ(r.blocks_per_sm, 2u);
  EXPECT_EQ(r.carveout_bytes, 16u * 1024);
  EXPECT_EQ(r.l1_bytes, 240u * 1024);
  // 48 KiB per 128-thread block: 228 KiB / 49 KiB = 4 blocks; 4 x 49 KiB = 196 KiB exactly,
  // the 196 KB carve-out; L1 keeps 60 KiB.
  Residency s = ComputeResidency(H100(), BlockOf(128), 32, 48 * 1024);
  EXPECT_EQ(s.blocks_per_sm, 4u);
  EXPECT_EQ(s.limited_by, "shared memory");
  EXPECT_EQ(s.l1_bytes, 60u * 1024);
}

TEST(Residency, BlockOverTheRegisterFileCannotRun) {
  // 255 registers -> 256 per thread, 8192 per warp, 32 warps = 262144 > 65536.
  EXPECT_EQ(ComputeResidency(H100(), BlockOf(1024), 255, 0).blocks_per_sm, 0u);
}

TEST(Placement, ConsecutiveBlocksGoToConsecutiveSmsWaveByWave) {
  Residency r = ComputeResidency(H100(), BlockOf(256), 32, 0);  // 8 per SM: 1056 per wave
  EXPECT_EQ(SmOfBlock(H100(), 0), 0u);
  EXPECT_EQ(SmOfBlock(H100(), 133), 1u);
  EXPECT_EQ(WaveOfBlock(r, 1055), 0u);
  EXPECT_EQ(WaveOfBlock(r, 1056), 1u);
}

// ---- the replay's memory bound (sim/hierarchy.h) ----

// A made-up launch through the hierarchy with a given stream budget: 40 blocks of 8 warps on a
// 2-SM device with a 32 KiB L2 (16 blocks a wave: 3 waves; L2 evictions and write-backs), each
// warp 24 global instructions over 64 KiB (runs of 32 floats and 32 scattered floats; loads,
// stores, atomics) with a barrier after the 12th; warp 0 of block 17 traced.
struct Replayed {
  std::vector<Counters> per_site;
  Trace trace;
};
// cancel_at_end: the launch is cancelled after its last block ran, before Finish.
Replayed ReplayMadeUpLaunch(uint64_t budget, bool cancel_at_end = false) {
  DeviceProfile d = *FindDeviceProfile("H100");
  d.sms = 2;
  d.l2_bytes = 32 << 10;
  LaunchShape shape;
  shape.grid = {40, 1, 1};
  shape.block = {256, 1, 1};
  Replayed r;
  r.per_site.resize(4);
  MemoryHierarchy h(d, 32, shape, &r.per_site, &r.trace, 17, budget);
  std::atomic<bool> cancel{false};
  h.StopWhen(&cancel);
  uint64_t x = 12345;
  auto next = [&x] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  const uint64_t base = 0x7f0000000000ull;
  for (uint64_t b = 0; b < 40; ++b) {
    h.BeginBlock(b, 8, 0);
    for (int i = 0; i < 24; ++i) {
      if (i == 12) h.Barrier();
      for (uint32_t w = 0; w < 8; ++w) {
        WarpInstruction ins;
        ins.warp = w;
        ins.site = uint32_t(i % 4);
        ins.op = i % 7 == 6 ? Op::Atomic : i % 3 == 2 ? Op::Store : Op::Load;
        ins.mask = ~0u;
        const uint64_t run = base + next() % 2048 * 32;
        for (int l = 0; l < 32; ++l)
          ins.addr[l] = i % 2 ? run + 4 * l : base + next() % (16 << 10) * 4;
        int64_t traced = -1;
        if (b == 17 && w == 0) {
          traced = int64_t(r.trace.instructions.size());
          r.trace.instructions.push_back(ins);
        }
        h.Record(ins, traced);
      }
    }
  }
  cancel = cancel_at_end;
  h.Finish(0);
  return r;
}

TEST(Replay, CancelledLaunchReplaysNothingMore) {
  // 40 blocks, 16 a wave: waves 0 and 1 are replayed as block 16 and block 32 begin; wave 2
  // (blocks 32..39) only at Finish. Cancelled before Finish, it is never replayed: 2 waves, and
  // the sites count fewer L2 sectors than the whole launch does. Block 17 (wave 1) keeps its marks.
  const Replayed whole = ReplayMadeUpLaunch(MemoryHierarchy::kDefaultBufferBytes);
  const Replayed cut = ReplayMadeUpLaunch(MemoryHierarchy::kDefaultBufferBytes, true);
  EXPECT_EQ(whole.trace.caches.waves, 3u);
  EXPECT_EQ(cut.trace.caches.waves, 2u);
  uint64_t l2_whole = 0, l2_cut = 0;
  for (uint32_t s = 0; s < 4; ++s)
    for (int o = 0; o < 4; ++o) l2_whole += whole.per_site[s].l2_sectors[o], l2_cut += cut.per_site[s].l2_sectors[o];
  EXPECT_GT(l2_cut, 0u);
  EXPECT_LT(l2_cut, l2_whole);
  ASSERT_EQ(cut.trace.instructions.size(), 24u);
  for (size_t i = 0; i < 24; ++i) EXPECT_EQ(cut.trace.instructions[i].served, whole.trace.instructions[i].served) << i;
}

TEST(Replay, StreamsSpilledToAFileGiveTheCountersOfStreamsInMemory) {
  // A 256-byte budget: every warp's 24 records (a scattered one alone is over 32 bytes) go to
  // the spill file many times over and come back through the 2 KiB windows. The replay order
  // is the same, so every counter, served-from mark and L1 log entry must be too.
  const Replayed memory = ReplayMadeUpLaunch(MemoryHierarchy::kDefaultBufferBytes);
  const Replayed spilled = ReplayMadeUpLaunch(256);
  ASSERT_EQ(memory.trace.caches.waves, 3u);  // 40 blocks, 2 SMs x 8 blocks of 256 threads
  for (uint32_t s = 0; s < 4; ++s) {
    const Counters& a = memory.per_site[s];
    const Counters& b = spilled.per_site[s];
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "site " << s;
  }
  const Counters& load_site = memory.per_site[0];  // i = 0, 4, ..., 20: loads, some stores
  EXPECT_GT(load_site.l1_hits[int(Op::Load)], 0u);
  EXPECT_GT(load_site.dram_read_bytes, 0u);
  uint64_t written = 0;
  for (const auto& c : memory.per_site) written += c.dram_write_bytes;
  EXPECT_GT(written, 0u);  // the 32 KiB L2 evicted dirty lines
  ASSERT_EQ(memory.trace.instructions.size(), 24u);
  for (size_t i = 0; i < 24; ++i)
    EXPECT_EQ(memory.trace.instructions[i].served, spilled.trace.instructions[i].served) << i;
  ASSERT_EQ(memory.trace.caches.l1_events.size(), spilled.trace.caches.l1_events.size());
  for (size_t e = 0; e < memory.trace.caches.l1_events.size(); ++e) {
    const auto& a = memory.trace.caches.l1_events[e];
    const auto& b = spilled.trace.caches.l1_events[e];
    EXPECT_TRUE(a.line == b.line && a.slot == b.slot && a.valid == b.valid) << e;
  }
  EXPECT_EQ(memory.trace.caches.l1_events_until, spilled.trace.caches.l1_events_until);
}

// ---- the L2 lines of a traced step (Trace::Caches::L2Line) ----

TEST(Cache, SetByRecencyListsTheMostRecentlyUsedLineFirstAndEmptySlotsLast) {
  SectorCache c({128 * 4, 4});  // one set of four ways
  c.Access(0 * 128, true);
  c.Access(1 * 128, true);
  c.Access(2 * 128 + 32, true);
  c.Access(0 * 128 + 64, true);  // line 0 again, another sector: the most recent
  uint64_t lines[4];
  uint8_t valid[4];
  c.SetByRecency(0, lines, valid);
  EXPECT_EQ(lines[0], 0u);
  EXPECT_EQ(valid[0], 0b0101);
  EXPECT_EQ(lines[1], 2u);
  EXPECT_EQ(valid[1], 0b0010);
  EXPECT_EQ(lines[2], 1u);
  EXPECT_EQ(lines[3], SectorCache::kNoLine);
  EXPECT_EQ(c.WayOf(2), 2);
  EXPECT_EQ(c.WayOf(7), -1);
}

// One warp of one block on one SM, the L2 one set of two ways (256 bytes), DRAM read in sector
// pairs (the H100's 64 bytes). Worked by hand:
//  0. a load of line 0's four sectors: L1 misses them all; sector 0 misses in L2 and DRAM fills
//     it with sector 1, sector 1 is then an L2 hit, sectors 2 and 3 the same: DRAM 0b0101, hit 0b1010;
//  1. lane 0 reads sector 0 of line 1: from DRAM (sector 1 comes with it), nothing evicted;
//  2. lane 0 reads sector 0 of line 2: the set is full, line 0 (used before line 1) leaves;
//  3. lane 0 reads sector 0 of line 0 again: the SM's L1 still holds it, so nothing goes to L2;
//  4. lane 0 stores to sector 0 of line 1: written at L2, which holds the line (a hit); line 1
//     becomes the set's most recent, line 2 next.
TEST(Replay, ATracedStepKeepsItsL2LinesWithTheirSet) {
  DeviceProfile d = *FindDeviceProfile("H100");
  d.sms = 1;
  d.l2_bytes = 256;
  d.l2_ways = 2;
  LaunchShape shape;
  shape.grid = {1, 1, 1};
  shape.block = {32, 1, 1};
  std::vector<Counters> per_site(5);
  Trace trace;
  MemoryHierarchy h(d, 32, shape, &per_site, &trace, 0);
  const uint64_t base = 0x7f0000000000ull;  // line-aligned
  const uint64_t line0 = base / 128;
  h.BeginBlock(0, 1, 0);
  auto issue = [&](uint32_t site, Op op, uint64_t line, bool whole_line) {
    WarpInstruction ins;
    ins.site = site;
    ins.op = op;
    ins.mask = whole_line ? ~0u : 1u;
    for (int l = 0; l < 32; ++l) ins.addr[l] = (line0 + line) * 128 + 4 * uint64_t(l);
    trace.instructions.push_back(ins);
    h.Record(ins, int64_t(trace.instructions.size() - 1));
  };
  issue(0, Op::Load, 0, true);
  issue(1, Op::Load, 1, false);
  issue(2, Op::Load, 2, false);
  issue(3, Op::Load, 0, false);
  issue(4, Op::Store, 1, false);
  h.Finish(0);
  const auto& c = trace.caches;
  ASSERT_EQ(c.l2_sets, 1u);
  ASSERT_EQ(c.l2_ways, 2u);
  ASSERT_EQ(c.l2_steps.size(), 5u);
  auto lines_of = [&](size_t i) { return c.l2_steps[i].end - c.l2_steps[i].begin; };
  EXPECT_EQ(lines_of(0), 1u);
  EXPECT_EQ(lines_of(1), 1u);
  EXPECT_EQ(lines_of(2), 1u);
  EXPECT_EQ(lines_of(3), 0u);  // an L1 hit
  EXPECT_EQ(lines_of(4), 1u);
  const auto& a = c.l2_lines[c.l2_steps[0].begin];
  EXPECT_EQ(a.line, line0);
  EXPECT_EQ(a.dram, 0b0101);
  EXPECT_EQ(a.hit, 0b1010);
  EXPECT_EQ(a.merged, 0);
  EXPECT_EQ(a.valid, 0xf);
  EXPECT_EQ(a.evicted, SectorCache::kNoLine);
  const auto& b = c.l2_lines[c.l2_steps[1].begin];
  EXPECT_EQ(b.line, line0 + 1);
  EXPECT_EQ(b.dram, 0b0001);
  EXPECT_EQ(b.valid, 0b0011);
  EXPECT_EQ(b.evicted, SectorCache::kNoLine);
  EXPECT_EQ(c.l2_set_ways[b.ways_first].line, line0 + 1);  // most recent first
  EXPECT_EQ(c.l2_set_ways[b.ways_first + 1].line, line0);
  const auto& e = c.l2_lines[c.l2_steps[2].begin];
  EXPECT_EQ(e.line, line0 + 2);
  EXPECT_EQ(e.evicted, line0);
  EXPECT_EQ(e.way, a.way);  // line 2 took line 0's way
  const auto& st = c.l2_lines[c.l2_steps[4].begin];
  EXPECT_EQ(st.line, line0 + 1);
  EXPECT_EQ(st.hit, 0b0001);
  EXPECT_EQ(st.dram, 0);
  EXPECT_EQ(c.l2_set_ways[st.ways_first].line, line0 + 1);
  EXPECT_EQ(c.l2_set_ways[st.ways_first + 1].line, line0 + 2);
  EXPECT_EQ(c.l2_set_ways[st.ways_first + 1].valid, 0b0011);
}

}  // namespace
}  // namespace ws::sim
