// Time in the memory model (sim/memory_clock.h, sim/hierarchy.h) on hand-worked streams: misses
// in flight within one SM and within a merge group of SMs, stores after stores (narrow and wide),
// DRAM read in sector pairs, and the issue queue's order. Latencies are the H100 profile's
// (l1 52, L2 350, DRAM 800 cycles; a wide store's lines placed 100 cycles on).
#include <gtest/gtest.h>

#include <vector>

#include "sim/device_profile.h"
#include "sim/hierarchy.h"
#include "sim/memory_clock.h"
#include "sim/trace.h"

namespace ws::sim {
namespace {

constexpr uint64_t kBase = 0x7f0000000000ull;  // 256-byte aligned, as cudaMalloc's
constexpr int kLd = int(Op::Load), kSt = int(Op::Store);

// One access of a warp: its op and the byte address of each of its 32 lanes.
struct Access {
  uint32_t warp;
  Op op;
  std::vector<uint64_t> lanes;  // 32 addresses (empty: a barrier of the block)
};
// All 32 lanes on one float: one sector.
Access One(uint32_t warp, Op op, uint64_t addr) { return {warp, op, std::vector<uint64_t>(32, addr)}; }
// Lane l at addr + stride * l.
Access Lanes(uint32_t warp, Op op, uint64_t addr, uint64_t stride) {
  Access a{warp, op, {}};
  for (uint64_t l = 0; l < 32; ++l) a.lanes.push_back(addr + stride * l);
  return a;
}

struct Launch {
  Counters c;  // every access is site 0 (the hierarchy's counters: L1 hits, L2, DRAM)
  Trace trace;
  uint64_t dram = 0;  // DRAM bytes read: the accesses' and the launch's own
};
// `blocks` blocks of `warps` warps each, block b on SM b; block b's accesses in issue order
// per warp (the hierarchy interleaves the warps by their clocks).
Launch Replay(const std::vector<std::vector<Access>>& blocks, uint32_t warps, const DeviceProfile& d,
              uint32_t code_bytes = 0) {
  LaunchShape shape;
  shape.grid = {uint32_t(blocks.size()), 1, 1};
  shape.block = {32 * warps, 1, 1};
  std::vector<Counters> per_site(1);
  Launch out;
  {
    MemoryHierarchy h(d, 32, shape, &per_site, &out.trace, -1);
    h.ReadsCode(code_bytes);
    for (size_t b = 0; b < blocks.size(); ++b) {
      h.BeginBlock(b, warps, 0);
      for (const Access& a : blocks[b]) {
        WarpInstruction ins;
        ins.warp = a.warp;
        ins.op = a.op;
        ins.mask = ~0u;
        for (int l = 0; l < 32; ++l) ins.addr[l] = a.lanes[l];
        h.Record(ins, -1);
      }
    }
    h.Finish(0);
  }
  out.c = per_site[0];
  out.dram = out.c.dram_read_bytes + out.trace.total.dram_read_bytes;
  return out;
}
const DeviceProfile& H100() { return *FindDeviceProfile("H100"); }

TEST(MemoryClock, SecondWarpOfAnSmMissingASectorInFlightHitsL1WithNoL2Read) {
  // Warps 0 and 1 of one block read one sector, in the same cycle. Warp 0 misses and allocates
  // the sector in L1 at once; warp 1 finds it there: 1 hit, 1 miss, 1 L2 read (as ncu counts
  // two warps reading 4 sectors at once: 4 hits, 4 misses). DRAM: the sector's pair, 64 B, and
  // the launch's 2560 B.
  const Launch r = Replay({{One(0, Op::Load, kBase), One(1, Op::Load, kBase)}}, 2, H100());
  EXPECT_EQ(r.c.l1_hits[kLd], 1u);
  EXPECT_EQ(r.c.l2_sectors[kLd], 1u);
  EXPECT_EQ(r.dram, 64u + 2560);
}

TEST(MemoryClock, SmsOfOneMergeGroupShareAnL2ReadAndOtherGroupsReadTheirOwn) {
  // Blocks 0..4 (SMs 0..4, one warp each) read one sector; block b starts 8 b cycles into the
  // wave. SMs 0-3 are one merge group (4 SMs): block 0 misses L2 (a DRAM read until cycle 800);
  // blocks 1-3 miss L1 while it is on its way and merge with it: no L2 read. SM 4 is another
  // group: its miss reads L2, a hit (the sector is allocated), waiting for the DRAM fill.
  // L1: 5 misses; L2: 2 reads, 1 hit.
  std::vector<std::vector<Access>> blocks(5, {One(0, Op::Load, kBase)});
  const Launch r = Replay(blocks, 1, H100());
  EXPECT_EQ(r.c.l1_hits[kLd], 0u);
  EXPECT_EQ(r.c.l2_sectors[kLd], 2u);
  EXPECT_EQ(r.c.l2_hits[kLd], 1u);
  // Each SM its own group: 5 L2 reads, the first a miss.
  DeviceProfile solo = H100();
  solo.merge_group_sms = 1;
  const Launch s = Replay(blocks, 1, solo);
  EXPECT_EQ(s.c.l2_sectors[kLd], 5u);
  EXPECT_EQ(s.c.l2_hits[kLd], 4u);
}

TEST(MemoryClock, AMissAfterTheDataArrivedReadsL2Again) {
  // Block 0 (SM 0, from cycle 0) reads sector A, then sector B; block 1 (SM 1, the same merge
  // group, from cycle 8) reads B, then A. Cycle 0: A misses L2 (DRAM: data at 800). Cycle 8: B
  // misses L2 (data at 808). Cycle 800: block 0's B is on its way to SM 1 until 808: merged, no
  // L2 read. Cycle 808: A reached SM 0 at 800, so it is no longer in flight: an L2 read, a hit.
  // L2: 3 reads, 1 hit; L1: 4 misses.
  const uint64_t a = kBase, b = kBase + 4096;
  const Launch r = Replay({{One(0, Op::Load, a), One(0, Op::Load, b)}, {One(0, Op::Load, b), One(0, Op::Load, a)}}, 1, H100());
  EXPECT_EQ(r.c.l1_hits[kLd], 0u);
  EXPECT_EQ(r.c.l2_sectors[kLd], 3u);
  EXPECT_EQ(r.c.l2_hits[kLd], 1u);
}

TEST(MemoryClock, AWarpHittingASectorOnItsWayGetsItWhenItArrives) {
  // Block 0 (SM 0): warp 0 reads A (cycle 0: misses L2, DRAM fills A and its pair B, the data
  // at 800); warp 1 reads A in the same cycle, an L1 hit on the sector on its way: its data comes
  // at 800, not at 52. It reads A again (a plain hit: 852), then B. Block 1 (SM 1, the same merge
  // group, from cycle 8): warp 0 reads B, an L2 hit waiting for the fill (at L2 at 800 - 175 =
  // 625: data at max(8 + 350, 625 + 175) = 800). So block 0's B at 852 comes after block 1's
  // arrived: an L2 read of its own, a hit. L2: 3 reads (A, B, B), 2 hits. Had warp 1 had A at 52
  // (the rule before), its B at 104 would have merged with block 1's: 2 reads.
  const uint64_t a = kBase, b = kBase + 32;
  const Launch r = Replay({{One(0, Op::Load, a), One(1, Op::Load, a), One(1, Op::Load, a), One(1, Op::Load, b)},
                           {One(0, Op::Load, b)}},
                          2, H100());
  EXPECT_EQ(r.c.l1_hits[kLd], 2u);
  EXPECT_EQ(r.c.l2_sectors[kLd], 3u);
  EXPECT_EQ(r.c.l2_hits[kLd], 2u);
  EXPECT_EQ(r.dram, 64u + 2560);
}

TEST(MemoryClock, ABlockOfALaterWaveStartsWhenTheBlockBeforeItInItsPlaceEnded) {
  // Four SMs of one merge group, one block each at a time: waves of 4 blocks. Wave 1: block 0
  // (SM 0, from cycle 0) reads A, a DRAM read: it ends at 800; block 1 (SM 1, from 8) reads B, C
  // and D in turn: it ends at 8 + 3 x 800 = 2408; blocks 2 and 3 read nothing. Wave 2: block 4
  // takes block 0's place on SM 0 at 800 and reads E (from DRAM until 1600); block 5 takes block
  // 1's on SM 1 at 2408 and reads E: no longer on its way, an L2 read of its own, a hit. L2: 6
  // reads (A-E, E), 1 hit. Had wave 2 started when wave 1 ended (2408 and 2416), block 5's read
  // would have merged with block 4's: 5 reads.
  DeviceProfile d = H100();
  d.sms = 4;
  d.max_blocks_per_sm = 1;
  auto at = [](uint64_t pair) { return kBase + 64 * pair; };  // each its own sector pair
  const Launch r = Replay({{One(0, Op::Load, at(0))},
                           {One(0, Op::Load, at(1)), One(0, Op::Load, at(2)), One(0, Op::Load, at(3))},
                           {},
                           {},
                           {One(0, Op::Load, at(4))},
                           {One(0, Op::Load, at(4))}},
                          1, d);
  EXPECT_EQ(r.c.l2_sectors[kLd], 6u);
  EXPECT_EQ(r.c.l2_hits[kLd], 1u);
  EXPECT_EQ(r.dram, 5 * 64u + 2560);
}

TEST(MemoryClock, AStoreToALineAStoreAllocatedHitsL1) {
  // One warp stores one float (sector 0 of a line), then 32 floats (the line's 4 sectors), then
  // the 32 floats again. The first finds the line absent: 1 miss. The second finds the line
  // there: 4 hits, though 3 of its sectors were never written (a store hits by line). The third:
  // 4 hits. A store to a line the instruction itself allocated is no hit for its other sectors:
  // a fourth store of 32 floats to a new line counts 4 misses.
  const Launch r = Replay({{One(0, Op::Store, kBase), Lanes(0, Op::Store, kBase, 4), Lanes(0, Op::Store, kBase, 4),
                            Lanes(0, Op::Store, kBase + 128, 4)}},
                          1, H100());
  EXPECT_EQ(r.c.l1_hits[kSt], 8u);
  EXPECT_EQ(r.c.l2_sectors[kSt], 13u);              // written through
  EXPECT_EQ(r.dram, 2560u);  // stores read nothing from DRAM
}

TEST(MemoryClock, AWideStoresLinesAreThereForOtherStoresOnlyLater) {
  // Warp 0 stores one float in each of 32 lines (lane l at 128 l: 32 sectors, over the 16 lines
  // of a narrow store). Warp 1 stores the same 32 floats in the same cycle: the lines are
  // allocated but not yet placed: 32 misses. Warp 2 first loads a sector elsewhere (DRAM, 800
  // cycles), then stores the same 32 floats, long after 100 cycles: 32 hits.
  const Launch r = Replay({{Lanes(0, Op::Store, kBase, 128), Lanes(1, Op::Store, kBase, 128),
                            One(2, Op::Load, kBase + 65536), Lanes(2, Op::Store, kBase, 128)}},
                          3, H100());
  EXPECT_EQ(r.c.l1_hits[kSt], 32u);
  // A narrow store (16 lines) places its lines at once: the second warp's 16 hit.
  const Launch n = Replay({{Lanes(0, Op::Store, kBase, 128), Lanes(1, Op::Store, kBase, 128)}}, 2, [] {
    DeviceProfile d = H100();
    d.timing.wide_store_lines = 32;
    return d;
  }());
  EXPECT_EQ(n.c.l1_hits[kSt], 32u);
}

TEST(MemoryClock, AnIsolatedSectorIsReadFromDramAsAPair) {
  // A warp reads one float at a stride of 32 floats: 32 sectors, each alone in its line. DRAM
  // reads each with its pair neighbour: 32 x 64 B = 2048 B (ncu: a copy at a stride of 32
  // floats reads twice the bytes a stride of 8 does per sector touched). Then a second warp
  // reads each sector's neighbour (+32 B): L1 misses, L2 hits, no DRAM.
  const Launch r = Replay({{Lanes(0, Op::Load, kBase, 128), Lanes(1, Op::Load, kBase + 32, 128)}}, 2, H100());
  EXPECT_EQ(r.c.l2_sectors[kLd], 64u);
  EXPECT_EQ(r.c.l2_hits[kLd], 32u);
  EXPECT_EQ(r.dram, 32u * 64 + 2560);
  // With 32-byte DRAM reads the neighbours miss L2 as well.
  DeviceProfile d = H100();
  d.dram_fetch_bytes = 32;
  const Launch s = Replay({{Lanes(0, Op::Load, kBase, 128), Lanes(1, Op::Load, kBase + 32, 128)}}, 2, d);
  EXPECT_EQ(s.c.l2_hits[kLd], 0u);
  EXPECT_EQ(s.dram, 64u * 32 + 2560);
}

TEST(MemoryClock, ALaunchReadsItsCodeFromDramOnce) {
  // 200 blocks of one warp on 132 SMs read one sector each (its own line). A launch whose code is
  // 3,696 bytes (shortcut/v1's SASS for sm_90) reads them once, whatever its blocks: 200 sector
  // pairs of 64 B, the launch's 2,512 B and the code. Code not known: an empty kernel's 48 B,
  // 2,560 B with the launch's own, as an empty kernel measures.
  std::vector<std::vector<Access>> blocks;
  for (uint64_t b = 0; b < 200; ++b) blocks.push_back({One(0, Op::Load, kBase + 128 * b)});
  EXPECT_EQ(Replay(blocks, 1, H100(), 3696).dram, 200u * 64 + 2512 + 3696);
  const Launch r = Replay(blocks, 1, H100());
  EXPECT_EQ(r.dram, 200u * 64 + 2560);
  EXPECT_EQ(r.trace.caches.code_bytes, 48u);
}

TEST(MemoryClock, IssueQueueGivesEarliestCycleFirstAndACyclesWarpsInPushOrder) {
  IssueQueue q;
  q.Restart(100);
  q.Push(105, 1);
  q.Push(100, 2);
  q.Push(105, 3);
  q.Push(90, 4);             // a cycle already passed: the current one
  q.Push(100 + 10000, 5);    // beyond the ring: kept aside until the ring reaches it
  q.Push(101, 6);
  const std::pair<uint64_t, uint32_t> want[] = {{100, 2}, {100, 4}, {101, 6}, {105, 1}, {105, 3}, {10100, 5}};
  for (const auto& w : want) {
    uint64_t t = 0;
    uint32_t warp = 0;
    ASSERT_TRUE(q.Pop(&t, &warp));
    EXPECT_EQ(t, w.first);
    EXPECT_EQ(warp, w.second);
  }
  uint64_t t;
  uint32_t warp;
  EXPECT_FALSE(q.Pop(&t, &warp));
}

// Keys order a cycle's warps (the hierarchy's: the slice of the device a warp's SM is in); a key's
// warps come in push order, and a push for the cycle being popped goes after its key's others.
TEST(MemoryClock, IssueQueueTakesACyclesWarpsByKeyThenInPushOrder) {
  IssueQueue q;
  q.Restart(100);
  const uint32_t key[] = {0, 2, 0, 2, 1, 0, 0, 1, 0, 2};  // per warp 0 .. 9
  for (uint32_t w = 0; w < 10; ++w) q.SetKey(w, key[w]);
  for (uint32_t w = 1; w <= 5; ++w) q.Push(101, w);
  q.Push(100, 6);
  uint64_t t = 0;
  uint32_t warp = 0;
  std::vector<std::pair<uint64_t, uint32_t>> got;
  for (int i = 0; i < 2 && q.Pop(&t, &warp); ++i) got.push_back({t, warp});
  q.Push(101, 7);  // key 1: after 4
  q.Push(101, 8);  // key 0: after 5
  q.Push(90, 9);   // a cycle passed, key 2: after 3
  while (q.Pop(&t, &warp)) got.push_back({t, warp});
  const std::vector<std::pair<uint64_t, uint32_t>> want = {{100, 6}, {101, 2}, {101, 5}, {101, 8}, {101, 4},
                                                           {101, 7}, {101, 1}, {101, 3}, {101, 9}};
  EXPECT_EQ(got, want);
}

// A push the one-thread queue made from far ahead comes before the pushes made from nearer of its
// key, in warp order among such pushes (the replay in windows, sim/replay_window.h).
TEST(MemoryClock, IssueQueuePutsPushesFromFarFirstOfTheirKeyInWarpOrder) {
  IssueQueue q;
  q.Restart(0);
  q.SetKey(10, 1), q.SetKey(11, 1), q.SetKey(12, 0), q.SetKey(13, 1);
  q.Push(50, 11);
  q.PushFromFar(50, 13);
  q.PushFromFar(50, 10);
  q.Push(50, 12);
  uint64_t t = 0;
  uint32_t warp = 0;
  std::vector<uint32_t> got;
  while (q.Pop(&t, &warp, 100)) got.push_back(warp);
  EXPECT_EQ(got, (std::vector<uint32_t>{12, 10, 13, 11}));
  EXPECT_EQ(t, 50u);
}

// The look-ahead is a prefetch hint kept one step per pop: it names the warp kAhead (8) places
// after the last one popped, counting the queue as it was when that warp came into view, and
// nothing when fewer warps lie within kAheadCycles (32) of the current cycle.
TEST(MemoryClock, IssueQueueLooksEightPlacesAheadOfEachPop) {
  IssueQueue q;
  q.Restart(10);
  for (uint32_t w = 0; w < 20; ++w) q.Push(10 + w / 2, w);  // two warps a cycle: 10, 10, 11, 11, ...
  q.Push(10 + 40, 20);  // beyond kAheadCycles of cycle 10
  uint64_t t = 0;
  uint32_t warp = 0;
  ASSERT_TRUE(q.Pop(&t, &warp));
  EXPECT_EQ(warp, 0u);
  EXPECT_EQ(q.Ahead(), 8);  // 1, 2, ..., 8
  ASSERT_TRUE(q.Pop(&t, &warp));
  EXPECT_EQ(q.Ahead(), 9);
  q.Push(12, 0);  // before warp 9 (cycle 14): the look-ahead stays on 9, now 9 places on
  ASSERT_TRUE(q.Pop(&t, &warp));
  EXPECT_EQ(warp, 2u);
  EXPECT_EQ(q.Ahead(), 10);
  // Each pop moves it one place on: after warp 10 it names 19, still 9 places on (11 .. 19).
  std::vector<uint32_t> popped;
  while (q.Pop(&t, &warp)) {
    popped.push_back(warp);
    if (warp == 10) break;
  }
  EXPECT_EQ(popped, (std::vector<uint32_t>{3, 4, 5, 0, 6, 7, 8, 9, 10}));
  EXPECT_EQ(t, 15u);
  EXPECT_EQ(q.Ahead(), 19);
  // Past 19 nothing lies within 32 cycles of cycle 15 (warp 20 is at 50); a pop later, at cycle
  // 16, 13 .. 19 are only seven.
  ASSERT_TRUE(q.Pop(&t, &warp));
  EXPECT_EQ(warp, 11u);
  EXPECT_EQ(q.Ahead(), -1);
  ASSERT_TRUE(q.Pop(&t, &warp));
  EXPECT_EQ(warp, 12u);
  EXPECT_EQ(q.Ahead(), -1);
}

}  // namespace
}  // namespace ws::sim
