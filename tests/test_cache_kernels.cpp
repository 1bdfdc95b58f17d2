// The memory hierarchy on the catalog's lessons: one test per family pins L1, L2 and DRAM
// counters worked out by hand from the kernel's index expressions (arithmetic in comments),
// and the served-from marks and L1 log the GUI reads.
#include <gtest/gtest.h>

#include <string>

#include "kernels/catalog.h"
#include "sim/hierarchy.h"

using namespace ws;
using sim::Op;
using sim::Selection;
using sim::ServedFrom;

namespace {

constexpr int kLd = int(Op::Load), kSt = int(Op::Store);

// The H100 profile with each SM its own merge group: no miss merges with another SM's.
const sim::DeviceProfile& Unmerged() {
  static const sim::DeviceProfile d = [] {
    sim::DeviceProfile p = *sim::FindDeviceProfile("H100");
    p.merge_group_sms = 1;
    return p;
  }();
  return d;
}

kernels::SimOutcome Simulated(const std::string& id, int n, Selection::Kind kind = Selection::Kind::None,
                        uint32_t block = 0, uint32_t warp = 0, const sim::DeviceProfile* device = nullptr) {
  kernels::RunRequest req;
  req.n = n;
  req.seed = 7;
  sim::LaunchOptions opts;
  opts.selection = {kind, block, warp};
  opts.registers_per_thread = 32;
  opts.device = device;
  auto o = kernels::Simulate(kernels::FindVariant(id), req, opts);
  EXPECT_TRUE(o.check.passed) << id << ": " << o.check.detail;
  return o;
}

TEST(CacheKernels, ShortcutV1ReusesRowsAndColumnsOfABlockInL1) {
  // n=64, 16x16 blocks: 16 blocks, one per SM (16 < 132 SMs), so each block has an L1 alone.
  // A warp is 16 i (= threadIdx.x) by 2 j; per k it reads x = d[n*j + k] (2 rows: 2 sectors)
  // and y = d[n*k + i] (16 floats in one row: 64 B, 2 sectors). Per block: 8 warps x 64 k x 4
  // = 2048 load sectors. Distinct sectors: x covers rows 16by..16by+15, all 64 columns (16
  // rows x 8 sectors = 128); y covers all 64 rows, columns 16bx..16bx+15 (64 x 2 = 128); they
  // share the 16 rows x 2 sectors where both meet: 128 + 128 - 32 = 224 misses, the rest hits
  // (a miss allocates its sector at once: the block's other warps reading it while it is on its
  // way hit). 16 blocks: 32768 load sectors, 3584 misses, 29184 hits (89.0625%).
  const auto t = Simulated("shortcut/v1", 64, Selection::Kind::None, 0, 0, &Unmerged()).trace;
  EXPECT_EQ(t.total.global_sectors[kLd], 32768u);
  EXPECT_EQ(t.total.l1_hits[kLd], 29184u);
  // No merging: every L1 miss reads L2. d is 64 x 64 floats = 512 sectors = 256 sector pairs;
  // DRAM is read a pair at a time, so the first read of each pair misses (256) and every other
  // read hits (3584 - 256 = 3328). DRAM: 256 x 64 B, plus the launch's own 2560 B.
  EXPECT_EQ(t.total.l2_sectors[kLd], 3584u);
  EXPECT_EQ(t.total.l2_hits[kLd], 3328u);
  EXPECT_EQ(t.total.dram_read_bytes, 256u * 64 + 2560);
  // r: 4096 floats written once = 512 sectors; a warp writes 2 rows x 16 floats, no line of r
  // twice on one SM and r is never read, so no store hits L1; all 512 reach L2 (counted as hits
  // there), nothing is evicted to DRAM.
  EXPECT_EQ(t.total.l1_hits[kSt], 0u);
  EXPECT_EQ(t.total.l2_sectors[kSt], 512u);
  EXPECT_EQ(t.total.dram_write_bytes, 0u);
  EXPECT_EQ(t.caches.device, "H100");
  EXPECT_EQ(t.caches.blocks_per_sm, 8u);  // 256 threads: 2048 / 256
  // With the H100's merge groups of 4 SMs: blocks 4g..4g+3 (one row of blocks, by = g) share
  // their x rows (128 sectors) and read them at about the same time. At most every L1 miss
  // reads L2 (3584); at least each group reads each of its distinct sectors once: x's 128 plus
  // each block's y outside the group's rows, 4 x 96: 512 a group, 2048 in all. L1 and DRAM
  // are as without merging.
  const auto m = Simulated("shortcut/v1", 64).trace;
  EXPECT_EQ(m.total.l1_hits[kLd], 29184u);
  EXPECT_LT(m.total.l2_sectors[kLd], 3584u);
  EXPECT_GE(m.total.l2_sectors[kLd], 2048u);
  EXPECT_EQ(m.total.dram_read_bytes, 256u * 64 + 2560);
}

TEST(CacheKernels, TransposeNaiveStoresMissL1WhileTheOtherWarpsWideStoresArePlaced) {
  // n=64, 32x32 blocks: 4 blocks. Each warp reads one row of 32 floats (4 sectors), read by no
  // other warp: 64 x 64 x 4 B / 32 = 512 load sectors, all L1 misses, all L2 reads; the first
  // sector of each 64-byte pair misses L2 (256), the second hits (256). DRAM reads 256 x 64 B
  // and the launch's 2560 B. A warp's 4 sectors come from DRAM together (800 cycles), so all 32
  // warps of a block store at the same cycle. Each writes 32 floats down a column of out: 32
  // sectors in 32 lines (over wide_store_lines = 16): the first warp allocates the lines, and a
  // line a wide store allocated is there for other stores only 100 cycles later, so the other
  // 31 warps' stores to the same sectors miss too. No block writes another's lines: 128 warps x
  // 32 = 4096 store sectors, 0 L1 hits, all written to L2.
  const auto t = Simulated("transpose/naive", 64).trace;
  EXPECT_EQ(t.total.global_sectors[kLd], 512u);
  EXPECT_EQ(t.total.l1_hits[kLd], 0u);
  EXPECT_EQ(t.total.global_sectors[kSt], 4096u);
  EXPECT_EQ(t.total.l1_hits[kSt], 0u);
  EXPECT_EQ(t.total.l2_sectors[kLd], 512u);
  EXPECT_EQ(t.total.l2_hits[kLd], 256u);
  EXPECT_EQ(t.total.l2_sectors[kSt], 4096u);
  EXPECT_EQ(t.total.dram_read_bytes, 256u * 64 + 2560);
  // 1024 threads, 32x32 floats of shared memory in none of naive: 2 blocks per SM (threads).
  EXPECT_EQ(t.caches.blocks_per_sm, 2u);
}

TEST(CacheKernels, PairsV1RereadsItsFourSectorsOfAAndBFromL1) {
  // n=256: 8 x 8 blocks of one warp, each alone on an SM. Per iteration i (32 of them) the
  // warp reads a[x] (32 consecutive floats: 4 sectors) and b[y + i] (one float for all lanes:
  // 1 sector): 32 x 5 = 160 load sectors per block. a's 4 sectors miss once; b[y..y+31] spans
  // 4 sectors, each missing once: 8 misses, 152 hits. 64 blocks: 10240 sectors, 512 misses,
  // 9728 hits (95%, as ncu measures).
  const auto t = Simulated("pairs/v1", 256).trace;
  EXPECT_EQ(t.total.global_sectors[kLd], 10240u);
  EXPECT_EQ(t.total.l1_hits[kLd], 9728u);
  // Block b (bx = b % 8, by = b / 8) runs on SM b; SMs 4g..4g+3 are a merge group: four blocks
  // of one by, so one b[y..y+31] and four different a[x]. They start 8 cycles apart and run the
  // same accesses, so each b sector's three later misses come while the first is on its way:
  // merged, no L2 read. A group reads 4 x 4 a sectors and 4 b sectors: 20; 16 groups: 320 (the
  // H200 measured 320, the H100 317).
  EXPECT_EQ(t.total.l2_sectors[kLd], 320u);
  // a and b are 256 floats = 32 sectors = 16 pairs each, each pair first read by some group
  // (a miss that reads the pair), read by later groups from L2: 32 misses, 288 hits. DRAM: those
  // 32 pairs and the pair of the atomics' one sector (ans) = 33 x 64 B, and the launch's 2560 B.
  EXPECT_EQ(t.total.l2_hits[kLd], 288u);
  EXPECT_EQ(t.total.dram_read_bytes, 33u * 64 + 2560);
}

TEST(CacheKernels, DivergentBranchRereadsAndStoresHitTheSectorsOfTheTest) {
  // n=4096 ints, 2 blocks of 256 threads: each warp runs 4096 / 512 = 8 iterations, 16 warps,
  // 128 warp-iterations. Each: the test loads array[i] (4 sectors: misses, allocated), then the
  // even lanes load and store array[i] and the odd lanes do the same (16 lanes over the same
  // 128 bytes: 4 sectors each time), all found in L1: stores to a cached sector count as hits.
  // Loads: 128 x 12 = 1536 sectors, 1024 hits; stores: 128 x 8 = 1024 sectors, all hits.
  const auto t = Simulated("divergence/divergent", 4096).trace;
  EXPECT_EQ(t.total.global_sectors[kLd], 1536u);
  EXPECT_EQ(t.total.l1_hits[kLd], 1024u);
  EXPECT_EQ(t.total.global_sectors[kSt], 1024u);
  EXPECT_EQ(t.total.l1_hits[kSt], 1024u);
  EXPECT_EQ(t.total.l2_sectors[kLd], 512u);        // 16 KiB of ints, each sector once
  EXPECT_EQ(t.total.dram_read_bytes, 256u * 64 + 2560);  // 256 sector pairs, and the launch's
}

TEST(CacheKernels, AlignmentFloat4SecondHalfOfEachRayHitsTheSectorTheFirstBrought) {
  // n=1024 rays of 32 bytes (one sector each), 32 warps. r1 = the first 16 bytes of each
  // lane's ray: 32 sectors, all misses (the L2 is cold: from DRAM a 64-byte pair at a time, so
  // the even sectors miss L2 and bring the odd ones, which hit it); r2 = the second 16 bytes of
  // the same sectors: 32 hits. Loads: 32 x 64 = 2048 sectors, 1024 hits (50%); the store of 32
  // floats (4 sectors, one line no warp had) never hits: 128 store sectors. L1 hit rate
  // 1024 / 2176 = 47.06%. DRAM: 512 pairs of 64 B and the launch's 2560 B.
  auto o = Simulated("alignment/float4", 1024, Selection::Kind::Warp, 0, 0);
  const auto& t = o.trace;
  EXPECT_EQ(t.total.global_sectors[kLd], 2048u);
  EXPECT_EQ(t.total.l1_hits[kLd], 1024u);
  EXPECT_EQ(t.total.global_sectors[kSt], 128u);
  EXPECT_EQ(t.total.l1_hits[kSt], 0u);
  EXPECT_EQ(t.total.dram_read_bytes, 512u * 64 + 2560);
  // Warp 0's three instructions, sector by sector.
  ASSERT_EQ(t.instructions.size(), 3u);
  for (int s = 0; s < 32; ++s) {
    EXPECT_EQ(sim::SectorServedFrom(t.instructions[0], s), s % 2 ? ServedFrom::L2 : ServedFrom::Dram) << s;
    EXPECT_EQ(sim::SectorServedFrom(t.instructions[1], s), ServedFrom::L1) << s;
  }
  for (int s = 0; s < 4; ++s) EXPECT_EQ(sim::SectorServedFrom(t.instructions[2], s), ServedFrom::L2) << s;
  // The L1 log of block 0's SM: warp 0 went first, its r1 filled 32 sectors in 8 lines (4
  // rays per 128-byte line): 32 changes, 8 of them new lines.
  ASSERT_EQ(t.caches.l1_events_until.size(), 3u);
  EXPECT_EQ(t.caches.l1_events_until[0], 32u);
  int new_lines = 0;
  for (uint32_t e = 0; e < 32; ++e) new_lines += t.caches.l1_events[e].valid == 1;  // a line's first sector
  EXPECT_EQ(new_lines, 8);
}

TEST(CacheKernels, ExistingCountersDoNotDependOnTheCaches) {
  kernels::RunRequest req;
  req.n = 64;
  sim::LaunchOptions with, without;
  with.selection.kind = without.selection.kind = Selection::Kind::None;
  without.caches = false;
  const auto a = kernels::Simulate(kernels::FindVariant("shortcut/v0"), req, with).trace.total;
  const auto b = kernels::Simulate(kernels::FindVariant("shortcut/v0"), req, without).trace.total;
  for (int o = 0; o < 4; ++o) {
    EXPECT_EQ(a.global_requests[o], b.global_requests[o]);
    EXPECT_EQ(a.global_sectors[o], b.global_sectors[o]);
  }
  EXPECT_EQ(a.SharedWavefronts(), b.SharedWavefronts());
  EXPECT_EQ(b.l1_hits[kLd], 0u);  // nothing modelled without the hierarchy
}

}  // namespace
