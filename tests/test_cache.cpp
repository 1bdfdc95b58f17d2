// The cache model's rules on hand-worked access streams, and block residency on an SM.
#include <gtest/gtest.h>

#include "sim/cache.h"
#include "sim/device_profile.h"

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

TEST(Residency, ThreadsLimit256ThreadBlocksToEight) {
  // 2048 / 256 = 8 by threads; 64 / 8 warps = 8; registers 32 x 32 = 1024 per warp, 8192 per
  // block, 65536 / 8192 = 8. No shared memory: no carve-out, the whole 256 KiB is L1.
  Residency r = ComputeResidency(H100(), 256, 32, 0);
  EXPECT_EQ(r.blocks_per_sm, 8u);
  EXPECT_EQ(r.limited_by, "threads");
  EXPECT_EQ(r.l1_bytes, 256u * 1024);
  EXPECT_EQ(r.blocks_per_wave, 8u * 132);
}

TEST(Residency, RegistersLimitSmallBlocksOfABigKernel) {
  // 64 threads, 96 registers: 96 x 32 = 3072 per warp, 6144 per block; 65536 / 6144 = 10
  // (threads would allow 32).
  Residency r = ComputeResidency(H100(), 64, 96, 0);
  EXPECT_EQ(r.blocks_per_sm, 10u);
  EXPECT_EQ(r.limited_by, "registers");
}

TEST(Residency, RegistersRoundUpToEightPerThread) {
  // 18 registers allocate as 24: 24 x 32 = 768 per warp; 1024 threads = 32 warps = 24576 per
  // block; 65536 / 24576 = 2 (threads also allow 2, listed first).
  EXPECT_EQ(ComputeResidency(H100(), 1024, 18, 0).blocks_per_sm, 2u);
  // 40 registers: 1280 per warp, 40960 per 1024-thread block: only 1.
  Residency r = ComputeResidency(H100(), 1024, 40, 0);
  EXPECT_EQ(r.blocks_per_sm, 1u);
  EXPECT_EQ(r.limited_by, "registers");
}

TEST(Residency, SharedMemoryTakesItsCarveOutFromL1) {
  // A 32x32 float tile (4096 B) + 1 KiB reserved = 5120 B per block; 1024 threads: 2 blocks,
  // 10240 B of shared memory: the 16 KB carve-out, 240 KiB left for L1.
  Residency r = ComputeResidency(H100(), 1024, 16, 4096);
  EXPECT_EQ(r.blocks_per_sm, 2u);
  EXPECT_EQ(r.carveout_bytes, 16u * 1024);
  EXPECT_EQ(r.l1_bytes, 240u * 1024);
  // 48 KiB per 128-thread block: 228 KiB / 49 KiB = 4 blocks; 4 x 49 KiB = 196 KiB exactly,
  // the 196 KB carve-out; L1 keeps 60 KiB.
  Residency s = ComputeResidency(H100(), 128, 32, 48 * 1024);
  EXPECT_EQ(s.blocks_per_sm, 4u);
  EXPECT_EQ(s.limited_by, "shared memory");
  EXPECT_EQ(s.l1_bytes, 60u * 1024);
}

TEST(Residency, BlockOverTheRegisterFileCannotRun) {
  // 255 registers -> 256 per thread, 8192 per warp, 32 warps = 262144 > 65536.
  EXPECT_EQ(ComputeResidency(H100(), 1024, 255, 0).blocks_per_sm, 0u);
}

TEST(Placement, ConsecutiveBlocksGoToConsecutiveSmsWaveByWave) {
  Residency r = ComputeResidency(H100(), 256, 32, 0);  // 8 per SM: 1056 per wave
  EXPECT_EQ(SmOfBlock(H100(), 0), 0u);
  EXPECT_EQ(SmOfBlock(H100(), 133), 1u);
  EXPECT_EQ(WaveOfBlock(r, 1055), 0u);
  EXPECT_EQ(WaveOfBlock(r, 1056), 1u);
}

}  // namespace
}  // namespace ws::sim
