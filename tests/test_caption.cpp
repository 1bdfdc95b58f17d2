// The instruction caption (sim::Caption) on hand-built warp instructions: the words the CLI's
// trace and the GUI's badge print. Each expected text is worked out by hand from the addresses.
#include <gtest/gtest.h>

#include "sim/caption.h"
#include "sim/rules.h"

using namespace ws::sim;

namespace {
WarpInstruction Global(uint64_t base, uint64_t stride, uint8_t width = 4, uint32_t mask = ~0u) {
  WarpInstruction ins;
  ins.space = Space::Global;
  ins.width = width;
  ins.mask = mask;
  for (int l = 0; l < 32; ++l) ins.addr[l] = base + l * stride;
  Analyze(ins);
  return ins;
}
WarpInstruction Shared(uint64_t stride_bytes, uint8_t width = 4) {
  WarpInstruction ins;
  ins.space = Space::Shared;
  ins.width = width;
  ins.mask = ~0u;
  for (int l = 0; l < 32; ++l) ins.addr[l] = l * stride_bytes;
  Analyze(ins);
  return ins;
}
const std::string kDot = " \xc2\xb7 ";
}  // namespace

TEST(Caption, CoalescedFloatLoadIsOneLineFourSectorsAllUsed) {
  // 32 x 4 bytes from a line boundary: 128 bytes = one line of four sectors, every byte used.
  EXPECT_EQ(Caption(Global(0x1000, 4)),
            "1 line" + kDot + "4 sectors (ideal 4)" + kDot + "100% of bytes moved are used");
}

TEST(Caption, StrideOf32FloatsIsALinePerLane) {
  // 128 bytes apart: each lane its own line and sector; 128 bytes asked for of 32 x 32 moved.
  EXPECT_EQ(Caption(Global(0x1000, 128)),
            "32 lines" + kDot + "32 sectors (ideal 4)" + kDot + "12.5% of bytes moved are used");
}

TEST(Caption, PairsOfLanesPerLineAreSixteenLinesSixteenSectors) {
  // Lanes 2k, 2k+1 read neighbouring floats of line k: 16 lines, 16 sectors; 128 of 512 bytes.
  WarpInstruction ins = Global(0x1000, 0);
  for (int l = 0; l < 32; ++l) ins.addr[l] = 0x1000 + (l / 2) * 128 + (l % 2) * 4;
  Analyze(ins);
  EXPECT_EQ(Caption(ins), "16 lines" + kDot + "16 sectors (ideal 4)" + kDot + "25% of bytes moved are used");
}

TEST(Caption, GlobalBroadcastIsSaidApartFromUsefulBytes) {
  // One float for all 32 lanes: one sector moved, 4 distinct bytes of its 32 used (not 400%).
  EXPECT_EQ(Caption(Global(0x1000, 0)), "1 line" + kDot + "1 sector (ideal 1)" + kDot +
                                            "broadcast: 32 lanes read 1 distinct address" + kDot +
                                            "12.5% of bytes moved are used");
}

TEST(Caption, RepeatedWordsNeverMakeUsefulBytesExceed100Percent) {
  // Lanes 2k, 2k+1 read the same float: 16 floats = 64 bytes in 2 sectors. The old rule counted
  // 128 bytes asked for: 200%.
  WarpInstruction ins = Global(0x1000, 0);
  for (int l = 0; l < 32; ++l) ins.addr[l] = 0x1000 + (l / 2) * 4;
  Analyze(ins);
  EXPECT_EQ(Caption(ins), "1 line" + kDot + "2 sectors (ideal 2)" + kDot + "broadcast: 32 lanes read 16 distinct addresses" +
                              kDot + "100% of bytes moved are used");
}

TEST(Caption, PartiallyMaskedWarpSaysHowManyLanesAreActive) {
  // 16 lanes x 4 bytes = 64 bytes: two sectors of one line.
  EXPECT_EQ(Caption(Global(0x1000, 4, 4, 0x0000ffffu)),
            "16 of 32 lanes active" + kDot + "1 line" + kDot + "2 sectors (ideal 2)" + kDot +
                "100% of bytes moved are used");
}

TEST(Caption, SameAddressAtomicFrom32LanesIsSerialised) {
  WarpInstruction ins = Global(0x1000, 0);
  ins.op = Op::Atomic;
  Analyze(ins);
  // One sector touched, 32 lanes on its one address: 32 sector requests (one a lane, as ncu
  // counts them) to that 1 sector in 1 line; nothing serialised: 1.
  EXPECT_EQ(Caption(ins), "32 atomic updates to one address: serialised" + kDot +
                              "32 sector requests (ideal 1) to 1 distinct sector in 1 distinct line");
}

TEST(Caption, SharedFloatAtomicAddSaysItIsACompareAndSwapLoop) {
  WarpInstruction ins = Shared(0);  // 32 lanes on word 0
  ins.op = Op::Atomic;
  ins.add = AtomicAdd::Float;
  Analyze(ins);
  EXPECT_EQ(Caption(ins), "32 atomic updates to one address: serialised" + kDot + "no bank conflict: 1 wavefront" +
                              kDot + "a float atomicAdd on shared memory is a compare-and-swap loop: 32 rounds of a load and a CAS");
}

TEST(Caption, IntegerReductionToOneAddressIsAggregatedByTheCompiler) {
  // atomicAdd(&count, 1) from 32 lanes, result unused: nvcc adds 32 once. A float is not.
  WarpInstruction ins = Global(0x1000, 0);
  ins.op = Op::Reduction;
  ins.add = AtomicAdd::Integer;
  Analyze(ins);
  EXPECT_EQ(Caption(ins), "32 atomic updates to one address: aggregated by the compiler into 1" + kDot + "1 line" +
                              kDot + "1 sector (ideal 1)");
  ins.add = AtomicAdd::Float;
  Analyze(ins);
  EXPECT_EQ(CaptionOf(ins).headline, "32 atomic updates to one address: serialised");
}

TEST(Caption, OneLaneAtomicHasNothingToSerialise) {
  // pairs v3: lane 0 alone adds the warp's sum.
  WarpInstruction ins = Global(0x1000, 0, 4, 0x1u);
  ins.op = Op::Reduction;
  Analyze(ins);
  EXPECT_EQ(Caption(ins), "1 of 32 lanes active" + kDot + "1 atomic update: nothing to serialise" + kDot + "1 line" +
                              kDot + "1 sector (ideal 1)");
}

TEST(Caption, ColumnOfA32WideTileIs32WayConflict) {
  // 128 bytes apart: every lane in bank 0, 32 distinct words.
  EXPECT_EQ(Caption(Shared(128)), "32-way bank conflict" + kDot + "32 wavefronts (ideal 1)");
}

TEST(Caption, SharedBroadcastIsOneWavefront) {
  EXPECT_EQ(Caption(Shared(0)), "broadcast: 1 wavefront");
}

TEST(Caption, RowOfFloatsHasNoBankConflict) {
  EXPECT_EQ(Caption(Shared(4)), "no bank conflict: 1 wavefront");
}

TEST(Caption, EightByteAccessesCountEachBanksWordsOverTheWarp) {
  // Lane l at byte 8l: 64 words, every bank serves 2 (words b and b + 32): 2 wavefronts,
  // ideal 64 / 32 = 2.
  EXPECT_EQ(Caption(Shared(8, 8)), "no bank conflict: 2 wavefronts");
  // Lane l at byte 16l: words 4l, 4l+1; bank 0 serves words 0, 32, 64, 96 (lanes 0, 8, 16,
  // 24): 4 wavefronts; ideal 64 words / 32 = 2; 4 / 2 = 2-way.
  EXPECT_EQ(Caption(Shared(16, 8)), "2-way bank conflict" + kDot + "4 wavefronts (ideal 2)");
}

TEST(Caption, SixteenByteAccessesAreFourPhasesOf8Lanes) {
  // Lane l at byte 16l: 8 lanes x 16 bytes = the 32 banks once per quarter-warp; the two
  // quarters of a half-warp use the same banks, so they add: 2 + 2 = 4.
  const std::string reads = "16-byte reads per half-warp: its two quarter-warps share a wavefront only on different banks";
  EXPECT_EQ(Caption(Shared(16, 16)), "no bank conflict: 4 wavefronts" + kDot + reads);
  WarpInstruction st = Shared(16, 16);
  st.op = Op::Store;
  Analyze(st);
  EXPECT_EQ(Caption(st), "no bank conflict: 4 wavefronts" + kDot + "16-byte writes in 4 phases of 8 lanes");
  // Lane l at byte 32l: a quarter-warp spans 256 bytes, twice round the banks: 2-way, 2 per
  // quarter; all quarters use banks 0-3, 8-11, 16-19, 24-27, so they add: 4 x 2 = 8, ideal 4.
  EXPECT_EQ(Caption(Shared(32, 16)), "2-way bank conflict" + kDot + "8 wavefronts (ideal 4)" + kDot + reads);
}

TEST(Caption, WholeBlockSumsTheWarpsAtTheSameInstruction) {
  // Two warps with a stride-32 load each (32 lines, 32 sectors apiece), and a third warp that
  // is elsewhere in the kernel (another site): not counted.
  WarpInstruction a = Global(0x1000, 128), b = Global(0x9000, 128), c = Global(0x20000, 4);
  c.site = 7;
  // a and b are 32 KiB apart: their 64 sectors are all distinct. Ideal: 128 bytes each, 4 + 4.
  EXPECT_EQ(Caption(std::vector<const WarpInstruction*>{&a, &b, &c}),
            "2 warps" + kDot + "64 sector requests (ideal 8) to 64 distinct sectors in 64 distinct lines" + kDot +
                "12.5% of bytes moved are used");
  // One warp: the single-instruction caption.
  EXPECT_EQ(Caption(std::vector<const WarpInstruction*>{&a}), Caption(a));
}

TEST(Caption, WholeBlockAtomicsSayTheMostUpdatesOnOneAddress) {
  WarpInstruction a = Global(0x1000, 0), b = Global(0x1000, 0);
  a.op = b.op = Op::Atomic;
  Analyze(a);
  Analyze(b);
  // 32 serialised sectors per request, all on the one sector of 0x1000; ideal 4 bytes: 1 + 1.
  EXPECT_EQ(Caption(std::vector<const WarpInstruction*>{&a, &b}),
            "2 warps" + kDot + "64 atomic updates, up to 32 to one address: serialised" + kDot +
                "64 sector requests (ideal 2) to 1 distinct sector in 1 distinct line");
}

TEST(Caption, WholeBlockTellsSectorRequestsFromTheDistinctLinesTheyReach) {
  // shortcut v0's read of d[n*i + k] at n = 64 in a 16x16 block: every warp's lanes l and l + 16
  // read row i = l % 16, rows 256 bytes apart; all 8 warps read the same 16 floats. Each request:
  // 16 sectors in 16 lines, ideal 16 x 4 bytes = 64 = 2 sectors. The block: 8 x 16 = 128 sector
  // requests (ideal 8 x 2 = 16), to the same 16 sectors in 16 lines; 256 lanes, 16 distinct
  // addresses; bytes used 8 x 64 of 128 x 32 = 12.5%.
  std::vector<WarpInstruction> warps(8);
  std::vector<const WarpInstruction*> step;
  for (auto& w : warps) {
    w = Global(0, 0);
    for (int l = 0; l < 32; ++l) w.addr[l] = 0x10000 + (l % 16) * 256;
    Analyze(w);
    step.push_back(&w);
  }
  EXPECT_EQ(Caption(*step.front()), "16 lines" + kDot + "16 sectors (ideal 2)" + kDot +
                                        "broadcast: 32 lanes read 16 distinct addresses" + kDot +
                                        "12.5% of bytes moved are used");
  EXPECT_EQ(Caption(step), "8 warps" + kDot + "128 sector requests (ideal 16) to 16 distinct sectors in 16 distinct lines" +
                               kDot + "broadcast: 256 lanes read 16 distinct addresses" + kDot +
                               "12.5% of bytes moved are used");
}

TEST(Caption, HeadlineCarriesTheLessonAndDetailsTheRest) {
  // The badge draws the headline large and the details under it.
  const CaptionParts g = CaptionOf(Global(0x1000, 128));
  EXPECT_EQ(g.headline, "32 lines" + kDot + "32 sectors (ideal 4)");
  EXPECT_EQ(g.details, std::vector<std::string>{"12.5% of bytes moved are used"});
  const CaptionParts s = CaptionOf(Shared(128));
  EXPECT_EQ(s.headline, "32-way bank conflict");
  EXPECT_EQ(s.details, std::vector<std::string>{"32 wavefronts (ideal 1)"});
  WarpInstruction at = Global(0x1000, 0);
  at.op = Op::Atomic;
  Analyze(at);
  EXPECT_EQ(CaptionOf(at).headline, "32 atomic updates to one address: serialised");
  EXPECT_EQ(CaptionOf(Global(0x1000, 4, 4, 0xffffu)).headline,
            "16 of 32 lanes active" + kDot + "1 line" + kDot + "2 sectors (ideal 2)");
}
