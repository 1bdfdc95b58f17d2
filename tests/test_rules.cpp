// The memory rules on hand-built warp instructions; expected numbers worked out by hand.
#include <gtest/gtest.h>

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
}
