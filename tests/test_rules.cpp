// The memory rules on hand-built warp instructions; expected numbers worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sim/cost_memo.h"
#include "sim/hierarchy.h"
#include "sim/rules.h"

using namespace ws::sim;

namespace {
WarpInstruction Global(uint64_t base, uint64_t stride, uint8_t width = 4, uint32_t mask = ~0u) {
  WarpInstruction ins;
  ins.space = Space::Global;
  ins.width = width;
  ins.mask = mask;
  for (int l = 0; l < 32; ++l) ins.addr[l] = base + l * stride;
  return ins;
}
WarpInstruction SharedAt(uint64_t stride_words, uint8_t width = 4) {
  WarpInstruction ins = Global(0, stride_words * 4, width);
  ins.space = Space::Shared;
  return ins;
}
}  // namespace

TEST(Coalesce, ThirtyTwoConsecutiveFloatsAreFourSectorsInOneLine) {
  auto ins = Global(0x1000, 4);
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 4);  // 128 bytes / 32
  EXPECT_EQ(ins.lines, 1);
  EXPECT_EQ(ins.ideal_sectors, 4);
}

// The sectors coalescing hands to the cache model, worked by hand (byte address / 32, ascending,
// each once), and always DistinctSectors' list where it gives one.
TEST(Coalesce, ListsTheDistinctSectorsItFinds) {
  auto row = Global(0x1000, 4);  // 0x1000..0x107f: sectors 0x80..0x83
  SectorList got;
  Coalesce(row, &got);
  ASSERT_EQ(got.n, 4);
  EXPECT_EQ(std::vector<uint64_t>(got.s, got.s + 4), (std::vector<uint64_t>{0x80, 0x81, 0x82, 0x83}));
  // Two rows, the second half of the warp below the first: lanes 0-15 read 0x9000..0x903f
  // (sectors 0x480, 0x481), lanes 16-31 read 0x1000..0x103f (0x80, 0x81): two windows, listed
  // in address order whatever the lanes' order.
  auto two = Global(0x9000, 4);
  for (int l = 16; l < 32; ++l) two.addr[l] = 0x1000 + (l - 16) * 4;
  Coalesce(two, &got);
  ASSERT_EQ(got.n, 4);
  EXPECT_EQ(std::vector<uint64_t>(got.s, got.s + 4), (std::vector<uint64_t>{0x80, 0x81, 0x480, 0x481}));
  auto broadcast = Global(0x1004, 0);  // one sector, 0x80
  Coalesce(broadcast, &got);
  ASSERT_EQ(got.n, 1);
  EXPECT_EQ(got.s[0], 0x80u);
  for (auto ins : {row, two, broadcast, Global(0x1000, 4000), Global(0x1000, 4, 4, 0x0000ffffu)}) {
    Coalesce(ins, &got);
    if (got.n < 0) continue;  // not listed: the cache model finds them itself
    uint64_t expect[kWarpSize];
    const int n = DistinctSectors(ins, expect);
    EXPECT_EQ(std::vector<uint64_t>(got.s, got.s + got.n), std::vector<uint64_t>(expect, expect + n));
  }
}

// shortcut v0's x read: a 16x16 block's two half-warps read the same column, d[n*i + k] for 16
// rows i, so lanes l and l + 16 share an address. 16 floats in 16 rows of 4096 bytes: 16 sectors
// in 16 lines, ideal 64 bytes = 2 sectors, and the 16 sectors listed in address order.
TEST(Coalesce, TwoHalfWarpsReadingOneColumnTouchSixteenSectors) {
  auto ins = Global(0x100000, 4096);
  for (int l = 16; l < 32; ++l) ins.addr[l] = ins.addr[l - 16];
  SectorList got;
  Coalesce(ins, &got);
  EXPECT_EQ(ins.sectors, 16);
  EXPECT_EQ(ins.lines, 16);
  EXPECT_EQ(ins.ideal_sectors, 2);
  ASSERT_EQ(got.n, 16);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(got.s[i], (0x100000u + 4096u * i) / 32) << i;
  // The same column walked upward by the lanes: the same sectors, still ascending.
  for (int l = 0; l < 32; ++l) ins.addr[l] = 0x100000 + 4096 * (15 - l % 16);
  Coalesce(ins, &got);
  EXPECT_EQ(ins.sectors, 16);
  ASSERT_EQ(got.n, 16);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(got.s[i], (0x100000u + 4096u * i) / 32) << i;
}

TEST(Coalesce, ColumnOfFloatsTouchesOneSectorPerLane) {
  auto ins = Global(0x1000, 4 * 1000);  // stride of a 1000-float row
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 32);
  EXPECT_EQ(ins.lines, 32);
  EXPECT_EQ(ins.ideal_sectors, 4);
}

TEST(Coalesce, BroadcastIsOneSector) {
  auto ins = Global(0x1000, 0);
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 1);
  EXPECT_EQ(ins.lines, 1);
}

TEST(Coalesce, MisalignedRunSpillsIntoAFifthSector) {
  auto ins = Global(0x1004, 4);  // 128 bytes starting 4 bytes into a line
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 5);
  EXPECT_EQ(ins.lines, 2);
}

TEST(Coalesce, Float4OfThirtyTwoByteStructsCoversThirtyTwoSectors) {
  // Lane l reads the first float4 of struct l: 16 bytes every 32 -> one sector each.
  auto ins = Global(0x1000, 32, 16);
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 32);
  EXPECT_EQ(ins.ideal_sectors, 16);  // 32 x 16 bytes = 512 bytes
}

TEST(Coalesce, MaskedLanesCostNothing) {
  auto ins = Global(0x1000, 4 * 1000, 4, 0x0000000f);
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 4);
  EXPECT_EQ(ins.ideal_sectors, 1);  // 4 lanes x 4 bytes
}

TEST(Coalesce, AtomicsCountLanesOnOneAddress) {
  auto ins = Global(0x1000, 0);
  ins.op = Op::Reduction;
  Coalesce(ins);
  EXPECT_EQ(ins.same_address_lanes, 32);
}

// ---- global atomics (measured on an H100, docs/FIDELITY.md "Atomics") ----

TEST(Atomics, ThirtyTwoFloatUpdatesToOneAddressAreThirtyTwoSectors) {
  // pairs/v1: every lane adds into one float. One sector, 32 lanes on its one address: 32
  // sectors; one line whose most lanes on one address is 32: 32 L2 requests.
  auto ins = Global(0x1000, 0);
  ins.op = Op::Reduction;
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 32);
  EXPECT_EQ(ins.l2_requests, 32);
  EXPECT_EQ(ins.lines, 1);
  EXPECT_EQ(ins.ideal_sectors, 1);
  EXPECT_FALSE(CompilerAggregates(ins));
}

TEST(Atomics, ConsecutiveAddressesGoTogetherPerSector) {
  // 32 ints at consecutive addresses: 4 sectors, one lane on each address: 1 + 1 + 1 + 1 = 4
  // sectors; one line, its most lanes on one address 1: 1 L2 request.
  auto ins = Global(0x1000, 4);
  ins.op = Op::Atomic;
  ins.add = AtomicAdd::Integer;
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 4);
  EXPECT_EQ(ins.l2_requests, 1);
  EXPECT_EQ(ins.same_address_lanes, 1);
}

TEST(Atomics, EachSectorCostsItsMostLanesOnOneAddress) {
  // A histogram step by hand (ints, lane -> address):
  //   lanes 0-9 -> 0x1000, lanes 10-12 -> 0x1004  (sector 0x1000: most 10)
  //   lanes 13-14 -> 0x1020, lane 15 -> 0x103c     (sector 0x1020: most 2; same line 0x1000)
  //   lanes 16-31 -> 0x1080 + 4 * (lane % 4)       (sector 0x1080: 4 lanes on each: most 4)
  // Sectors 10 + 2 + 4 = 16. Lines: 0x1000 has most 10, 0x1080 most 4: 14 L2 requests.
  auto ins = Global(0, 0);
  ins.op = Op::Reduction;
  ins.add = AtomicAdd::Integer;
  for (int l = 0; l < 32; ++l)
    ins.addr[l] = l < 10 ? 0x1000 : l < 13 ? 0x1004 : l < 15 ? 0x1020 : l == 15 ? 0x103c : 0x1080 + 4 * (l % 4);
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 16);
  EXPECT_EQ(ins.l2_requests, 14);
  EXPECT_EQ(ins.lines, 2);
  // The ideal is the bytes asked for, rounded up to sectors, as for any access: 8 distinct ints
  // (0x1000, 0x1004, 0x1020, 0x103c, 0x1080-0x108c) = 32 bytes = 1 sector.
  EXPECT_EQ(ins.ideal_sectors, 1);
  EXPECT_EQ(ins.same_address_lanes, 10);
  EXPECT_FALSE(CompilerAggregates(ins));  // the addresses differ
  // Lanes 0-9 alone: one address, an integer RED: aggregated into one update.
  ins.mask = 0x3ffu;
  Coalesce(ins);
  EXPECT_TRUE(CompilerAggregates(ins));
  EXPECT_EQ(ins.sectors, 1);
  EXPECT_EQ(ins.l2_requests, 1);
}

TEST(Atomics, SharedIntegerAtomicIsOneAtomsCountedByTheBankRule) {
  // atomicAdd(&s[lane], 1) on ints: one ATOMS, consecutive words: 1 wavefront.
  auto ins = SharedAt(1);
  ins.op = Op::Atomic;
  ins.add = AtomicAdd::Integer;
  Analyze(ins);
  Counters c;
  c.Add(ins);
  EXPECT_EQ(c.shared_inst[2], 1u);
  EXPECT_EQ(c.shared_wavefronts[2], 1u);
  EXPECT_EQ(c.shared_inst[0] + c.shared_inst[1], 0u);
  // s[lane % 2 * 32]: two words in bank 0: 2 wavefronts, like a load.
  for (int l = 0; l < 32; ++l) ins.addr[l] = 128 * (l % 2);
  Analyze(ins);
  Counters d;
  d.Add(ins);
  EXPECT_EQ(d.shared_wavefronts[2], 2u);
  EXPECT_EQ(d.shared_conflicts[2], 1u);
}

TEST(Atomics, SharedFloatAddIsACompareAndSwapLoopPerLaneOnOneAddress) {
  // 32 lanes add a float into one word: 32 rounds (one update per round succeeds), each a
  // load and an ATOMS.CAS of one wavefront (a broadcast): 32 + 32 instructions. (Measured on an
  // H100: 16 warps on one address took 1016 instructions; this model says 16 x 64 = 1024.)
  auto ins = SharedAt(0);
  ins.op = Op::Atomic;
  ins.add = AtomicAdd::Float;
  Analyze(ins);
  Counters c;
  c.Add(ins);
  EXPECT_EQ(c.shared_inst[0], 32u);
  EXPECT_EQ(c.shared_inst[2], 32u);
  EXPECT_EQ(c.shared_wavefronts[0], 32u);
  EXPECT_EQ(c.shared_wavefronts[2], 32u);
  // Every lane on its own word: one round, 1 load + 1 CAS.
  ins = SharedAt(1);
  ins.op = Op::Atomic;
  ins.add = AtomicAdd::Float;
  Analyze(ins);
  Counters d;
  d.Add(ins);
  EXPECT_EQ(d.shared_inst[0], 1u);
  EXPECT_EQ(d.shared_inst[2], 1u);
}

TEST(Atomics, OnlyUnusedIntegerResultsToOneAddressAreAggregated) {
  auto ins = Global(0x1000, 0);
  ins.add = AtomicAdd::Integer;
  ins.op = Op::Reduction;  // atomicAdd(&n, 1) with the result unused
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 1);
  ins.op = Op::Atomic;     // old = atomicAdd(&n, 1): each lane needs its own old value
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 32);
  ins.op = Op::Reduction;
  ins.add = AtomicAdd::Float;     // a float: never aggregated
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 32);
  // Masked-off lanes do not count: 5 active lanes on one float are 5 sectors.
  ins.mask = 0x1fu;
  Coalesce(ins);
  EXPECT_EQ(ins.sectors, 5);
  EXPECT_EQ(ins.l2_requests, 5);
}

TEST(Banks, RowOfFloatsIsConflictFree) {
  auto ins = SharedAt(1);
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 1);
  EXPECT_EQ(ins.conflict_degree, 1);
}

TEST(Banks, ColumnOfA32WideTileIs32Way) {
  auto ins = SharedAt(32);  // tile[lane][c]: 32 words apart, all in one bank
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 32);
  EXPECT_EQ(ins.conflict_degree, 32);
}

TEST(Banks, ColumnOfA33WideTileIsConflictFree) {
  auto ins = SharedAt(33);  // 33 mod 32 = 1: lane l in bank l
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 1);
  EXPECT_EQ(ins.conflict_degree, 1);
}

TEST(Banks, SameWordIsABroadcast) {
  auto ins = SharedAt(0);
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 1);
}

TEST(Banks, StrideTwoIsTwoWay) {
  auto ins = SharedAt(2);  // lanes l and l+16 share bank 2l mod 32 with different words
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 2);
  EXPECT_EQ(ins.conflict_degree, 2);
}

TEST(Banks, ConsecutiveFloat4IsFourPhasesOfOneWavefront) {
  auto ins = SharedAt(4, 16);  // 8 lanes x 16 bytes = all 32 banks once per phase
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 4);
  EXPECT_EQ(ins.ideal_wavefronts, 4);
  EXPECT_EQ(ins.conflict_degree, 1);
  ins.op = Op::Store;  // STS.128 s[lane]: four quarter-warps of one wavefront each
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 4);
  EXPECT_EQ(ins.ideal_wavefronts, 4);
}

// ---- vector types (measured on an H100, docs/FIDELITY.md "Vector types") ----

TEST(Banks, ConsecutiveFloat2IsTwoWavefrontsWithoutConflict) {
  // LDS.64 s[lane]: 64 words, each bank serves words b and b + 32: 2 wavefronts, ideal 2.
  auto ins = SharedAt(2, 8);
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 2);
  EXPECT_EQ(ins.ideal_wavefronts, 2);
  EXPECT_EQ(ins.conflict_degree, 1);
}

TEST(Banks, EightByteAccessesCountDistinctWordsPerBankOverTheWholeWarp) {
  // Lanes 0-15 read float2 s[l % 8] (words 0-15), lanes 16-31 float2 s[8 + l % 8] (words
  // 16-31): every bank serves one word for the whole warp: 1 wavefront. (Half-warp phases
  // would have said 2.)
  auto ins = SharedAt(0, 8);
  for (int l = 0; l < 32; ++l) ins.addr[l] = 8 * (l < 16 ? l % 8 : 8 + l % 8);
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 1);
  EXPECT_EQ(ins.ideal_wavefronts, 1);
  // float2 s[2 * lane] (16 bytes apart): words 4l and 4l+1; bank 0 serves 0, 32, 64, 96: 4
  // wavefronts; 64 distinct words: ideal 2; 4 / 2 = 2-way.
  ins = SharedAt(4, 8);
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 4);
  EXPECT_EQ(ins.ideal_wavefronts, 2);
  EXPECT_EQ(ins.conflict_degree, 2);
}

TEST(Banks, SixteenByteBroadcastPerQuarterWarpSharesAWavefrontPerHalfWarp) {
  // shortcut/v4's yy read: quarter-warp q reads the one float4 yy[q] (words 4q..4q+3): the
  // two quarters of a half-warp use banks 0-3 and 4-7 (8-11 and 12-15): disjoint, one
  // wavefront per half-warp: 2 (four quarter-warp phases would have said 4).
  auto ins = SharedAt(0, 16);
  for (int l = 0; l < 32; ++l) ins.addr[l] = 16 * (l / 8);
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 2);
  EXPECT_EQ(ins.ideal_wavefronts, 2);
  // shortcut/v5's yy read: half-warp h reads one float4 at 512 h bytes (banks 0-3 both):
  // all 16 lanes of a half-warp on one word: 1 each, 2 in all.
  for (int l = 0; l < 32; ++l) ins.addr[l] = 512 * (l / 16);
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 2);
  // Quarter-warps 0 and 1 on different words of the same banks (0 and 512 bytes): they
  // add, 1 + 1, in each half-warp: 4.
  for (int l = 0; l < 32; ++l) ins.addr[l] = 512 * (l / 8 % 2);
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 4);
  EXPECT_EQ(ins.ideal_wavefronts, 4);
  // A single lane still costs the minimum of 2.
  ins.mask = 1;
  BankConflicts(ins);
  EXPECT_EQ(ins.wavefronts, 2);
}

// ---- the bank picture (sim::SharedBanks) ----

TEST(SharedBanks, ColumnReadOfA32x32TileIs32WayInBankZero) {
  // tile[lane][0]: word lane*32, bank (lane*32) % 32 = 0 for every lane.
  const auto cols = SharedBanks(SharedAt(32));
  EXPECT_EQ(cols[0].degree, 32);
  EXPECT_EQ(cols[0].words.size(), 32u);
  EXPECT_EQ(cols[1].degree, 0);
}

TEST(SharedBanks, PaddedColumnReadSpreadsOverAllBanks) {
  // tile[lane][0] with 33 columns: word lane*33, bank lane.
  const auto cols = SharedBanks(SharedAt(33));
  for (int b = 0; b < 32; ++b) {
    EXPECT_EQ(cols[b].degree, 1);
    ASSERT_EQ(cols[b].words.size(), 1u);
    EXPECT_EQ(cols[b].words[0].lanes, std::vector<int>{b});
  }
}

TEST(SharedBanks, SameWordIsABroadcastNotAConflict) {
  const auto cols = SharedBanks(SharedAt(0));
  EXPECT_EQ(cols[0].degree, 1);
  EXPECT_EQ(cols[0].words[0].lanes.size(), 32u);
}

TEST(SharedBanks, EightByteAccessIsOnePhaseOfTheWholeWarp) {
  // Lane l at byte 8l: 64 distinct words, two per bank, ideal 2 passes: degree 1 (no conflict).
  const auto cols = SharedBanks(SharedAt(2, 8));
  EXPECT_EQ(cols[0].degree, 1);
  ASSERT_EQ(cols[0].words.size(), 2u);
  EXPECT_EQ(cols[0].words[0].word, 0u);   // lane 0
  EXPECT_EQ(cols[0].words[0].phase, 0);
  EXPECT_EQ(cols[0].words[1].word, 32u);  // lane 16 (byte 128), the same phase
  EXPECT_EQ(cols[0].words[1].phase, 0);
  EXPECT_EQ(cols[0].words[1].lanes, std::vector<int>{16});
}

TEST(SharedBanks, SixteenByteAccessIsServedInFourQuarterWarpPhases) {
  // Lane l at byte 16l: lane 8p covers words 32p..32p+3, so bank 0 holds words 0, 32, 64, 96,
  // one per phase: four words, never two in one phase.
  const auto cols = SharedBanks(SharedAt(4, 16));
  ASSERT_EQ(cols[0].words.size(), 4u);
  for (int p = 0; p < 4; ++p) {
    EXPECT_EQ(cols[0].words[p].phase, p);
    EXPECT_EQ(cols[0].words[p].lanes, std::vector<int>{8 * p});
  }
  EXPECT_EQ(cols[0].degree, 1);
}

// The view's picture and the counters come from one phase rule: on random instructions the
// largest per-phase degree is the conflict degree and the per-phase maxima add up to the wavefronts.
TEST(SharedBanks, AgreesWithBankConflictsOnRandomInstructions) {
  uint64_t seed = 12345;
  auto next = [&] { seed = seed * 6364136223846793005ull + 1442695040888963407ull; return seed >> 33; };
  const uint8_t widths[] = {1, 2, 4, 8, 16};
  for (int k = 0; k < 2000; ++k) {
    WarpInstruction ins;
    ins.space = Space::Shared;
    ins.width = widths[next() % 5];
    ins.mask = uint32_t(next()) | (k % 3 == 0 ? ~0u : 0u);
    for (int l = 0; l < 32; ++l) ins.addr[l] = (next() % 512) * ins.width;  // aligned, 0..8 KiB
    BankConflicts(ins);
    const auto cols = SharedBanks(ins);
    int phase_most[32] = {}, degree = 0;
    for (const auto& c : cols) {
      int per_phase[32] = {};
      for (const auto& w : c.words) phase_most[w.phase] = std::max(phase_most[w.phase], ++per_phase[w.phase]);
      degree = std::max(degree, c.degree);
    }
    int wavefronts = 0;
    for (int p = 0; p < 32; ++p) wavefronts += phase_most[p];
    ASSERT_EQ(degree, ins.conflict_degree) << k;
    // 16-byte loads: quarter-warps of a half-warp may share a wavefront (never more than the sum).
    if (ins.width == 16) ASSERT_LE(ins.wavefronts, std::max(wavefronts, 2)) << k;
    else ASSERT_EQ(wavefronts, ins.wavefronts) << k;
  }
}

// ---- useful bytes ----

TEST(DistinctBytes, RepeatedWordsCountOnce) {
  // Lanes 2k and 2k+1 read the same float: 16 distinct words, 64 bytes, not 128.
  WarpInstruction ins = Global(0x1000, 0);
  for (int l = 0; l < 32; ++l) ins.addr[l] = 0x1000 + (l / 2) * 4;
  EXPECT_EQ(DistinctBytes(ins), 64u);
  EXPECT_EQ(DistinctAddresses(ins), 16);
}

TEST(DistinctBytes, OverlappingPiecesAreMerged) {
  // 8-byte pieces 4 bytes apart: bytes 0 .. 31*4+8 = 132 distinct, not 256.
  EXPECT_EQ(DistinctBytes(Global(0x2000, 4, 8)), 132u);
  // A broadcast: one word.
  EXPECT_EQ(DistinctBytes(Global(0x2000, 0)), 4u);
  // Masked lanes ask for nothing: 3 lanes x 4 bytes.
  EXPECT_EQ(DistinctBytes(Global(0x2000, 4, 4, 0x7)), 12u);
}

TEST(Coalesce, EveryPathGivesTheIdealItsDefinitionGives) {
  // Coalesce works the ideal out three ways (two 2 KiB windows of a full warp, one window, sorted
  // addresses); each must equal the definition: the distinct bytes, rounded up to sectors.
  // Random addresses in spans of 256 B to 64 KiB (one window, two, or spread), widths 1 to 16,
  // aligned pieces (as the dialect issues them), full and partial masks, some lanes repeating
  // another lane's address.
  uint64_t x = 0x9E3779B97F4A7C15ull;
  auto next = [&x] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  const uint8_t widths[] = {1, 2, 4, 8, 16};
  const uint64_t spans[] = {256, 2048, 8192, 65536};
  for (int round = 0; round < 6000; ++round) {
    WarpInstruction ins;
    ins.width = widths[next() % 5];
    ins.mask = round % 3 == 0 ? ~0u : uint32_t(next()) | 1u;
    ins.op = round % 11 == 0 ? Op::Atomic : Op::Load;
    const uint64_t span = spans[next() % 4];
    if (round % 5 == 4) {
      // Strided runs, as blocks read columns and tiles: runs of 4, 8, 16 or 32 lanes, each run a
      // stride of 4 B to 64 KiB up or down from a random start, some runs repeating the first.
      const int run = 4 << (next() % 4);
      const uint64_t stride = uint64_t(ins.width) << (next() % 15);
      const bool down = next() % 2;
      for (int l = 0; l < 32; l += run) {
        const uint64_t start = l > 0 && next() % 2 ? ins.addr[0] : 0x10000 + next() % span / ins.width * ins.width;
        for (int k = 0; k < run; ++k) ins.addr[l + k] = down ? start + stride * (run - 1 - k) : start + stride * k;
      }
    } else {
      for (int l = 0; l < 32; ++l)
        ins.addr[l] = l > 0 && next() % 4 == 0 ? ins.addr[next() % l] : 0x10000 + next() % span / ins.width * ins.width;
    }
    SectorList listed;
    Coalesce(ins, &listed);
    {
      // The list, where given: the sectors the active lanes' addresses fall in, ascending, each once.
      std::vector<uint64_t> starts;
      for (int l = 0; l < 32; ++l)
        if (ins.mask >> l & 1) starts.push_back(ins.addr[l] / 32);
      std::sort(starts.begin(), starts.end());
      starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
      if (listed.n >= 0) ASSERT_EQ(std::vector<uint64_t>(listed.s, listed.s + listed.n), starts) << "round " << round;
    }
    const uint16_t want = uint16_t((DistinctBytes(ins) + 31) / 32);
    ASSERT_EQ(ins.ideal_sectors, want) << "round " << round;
    ASSERT_EQ(IdealSectors(ins), want) << "round " << round;
    ASSERT_LE(ins.ideal_sectors, ins.sectors) << "round " << round;
    if (ins.op != Op::Load) continue;  // atomics count serialised sectors (AtomicCost)
    std::vector<uint64_t> sectors, lines;  // by brute force: every byte's sector and line
    for (int l = 0; l < 32; ++l)
      for (uint64_t b = 0; (ins.mask >> l & 1) && b < ins.width; ++b) {
        sectors.push_back((ins.addr[l] + b) / 32);
        lines.push_back((ins.addr[l] + b) / 128);
      }
    for (auto* v : {&sectors, &lines}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    ASSERT_EQ(ins.sectors, sectors.size()) << "round " << round;
    ASSERT_EQ(ins.lines, lines.size()) << "round " << round;
  }
}

// The engine's memory of coalescing (sim/cost_memo.h) gives what Coalesce gives, list included:
// instructions from six sites, each site a shape (random lanes in spans of 256 B to 64 KiB, widths
// 1 to 16, full and partial masks, loads, stores, atomics and integer reductions) moved at random
// by whole lines, by sectors, by widths or anywhere, against Coalesce on a copy. Moves by whole
// lines are found in the memory (hits), the others counted again.
TEST(CostMemo, GivesWhatCoalesceGives) {
  uint64_t x = 0x2545F4914F6CDD1Dull;
  auto next = [&x] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  const uint8_t widths[] = {1, 2, 4, 8, 16};
  const uint64_t spans[] = {256, 2048, 8192, 65536};
  const Op ops[] = {Op::Load, Op::Load, Op::Store, Op::Atomic, Op::Reduction};
  WarpInstruction shape[6];
  for (int s = 0; s < 6; ++s) shape[s].mask = 0;
  CostMemo memo;
  for (int round = 0; round < 20000; ++round) {
    const int s = int(next() % 6);
    WarpInstruction& sh = shape[s];
    if (sh.mask == 0 || next() % 50 == 0) {  // a new shape for the site
      sh = WarpInstruction();
      sh.site = uint32_t(s);
      sh.width = widths[next() % 5];
      sh.mask = next() % 2 ? ~0u : uint32_t(next()) | 1u;
      sh.op = ops[next() % 5];
      sh.add = sh.op == Op::Reduction ? AtomicAdd::Integer : AtomicAdd::No;
      const uint64_t span = spans[next() % 4];
      for (int l = 0; l < 32; ++l)
        sh.addr[l] = l > 0 && next() % 4 == 0 ? sh.addr[next() % l] : 0x100000 + next() % span / sh.width * sh.width;
      if (next() % 3 == 0) sh.addr[next() % 32] = sh.addr[0];  // a broadcast too
    }
    const uint64_t steps[] = {128, 32, sh.width, 1};
    const uint64_t move = steps[next() % 4] * (next() % 64);
    WarpInstruction a = sh;
    for (auto& v : a.addr) v += move;
    WarpInstruction b = a;
    SectorList la, lb;
    Coalesce(a, &la);
    memo.Coalesce(b, &lb);
    ASSERT_EQ(b.sectors, a.sectors) << "round " << round;
    ASSERT_EQ(b.lines, a.lines) << "round " << round;
    ASSERT_EQ(b.ideal_sectors, a.ideal_sectors) << "round " << round;
    ASSERT_EQ(b.same_address_lanes, a.same_address_lanes) << "round " << round;
    ASSERT_EQ(b.l2_requests, a.l2_requests) << "round " << round;
    ASSERT_EQ(lb.n, la.n) << "round " << round;
    for (int i = 0; i < la.n; ++i) ASSERT_EQ(lb.s[i], la.s[i]) << "round " << round << " sector " << i;
  }
  EXPECT_GT(memo.hits(), 4000u);  // about a quarter of the rounds move by lines: the memory was used
}
