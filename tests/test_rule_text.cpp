// The sentences that state a memory rule (sim/rule_text.h), each held against the rule it states:
// the phase rule against BankConflicts, the allocation rule against the cache model, the ideal
// against IdealSectors, the metrics' meanings against the seed table; and the README quotes them
// word for word. Expected texts and numbers are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "tests/one_spaced.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/seed_table.h"
#include "sim/caption.h"
#include "sim/hierarchy.h"
#include "sim/metrics.h"
#include "sim/rule_text.h"
#include "sim/rules.h"

using namespace ws::sim;

namespace {

WarpInstruction Access(Space space, uint8_t width, uint64_t (*addr)(int lane), Op op = Op::Load) {
  WarpInstruction ins;
  ins.space = space;
  ins.width = width;
  ins.op = op;
  ins.mask = ~0u;
  for (int l = 0; l < 32; ++l) ins.addr[l] = addr(l);
  Analyze(ins);
  return ins;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Markdown wraps lines: compared with every run of spaces and line breaks made one space.
std::string OneLine(const std::string& s) { return ::ws::test::OneSpaced(s); }

}  // namespace

// ---- shared memory: the phase rule ----

TEST(RuleText, PhaseRuleSaysWhatBankPhaseLanesDoesForEveryWidth) {
  // BankPhaseLanes: 32 lanes up to 8 bytes, 8 lanes (a quarter-warp) for 16 bytes; a 16-byte
  // load is served per half-warp (BankConflicts).
  EXPECT_EQ(BankPhaseRule(),
            "1-, 2-, 4- and 8-byte accesses are served in one phase of all 32 lanes; 16-byte writes in 4 phases of "
            "8 lanes; 16-byte reads per half-warp: its two quarter-warps share a wavefront only on different banks");
  EXPECT_EQ(BankPhaseDetail(8, Op::Load), "");  // one phase of the warp: nothing to say
  EXPECT_EQ(BankPhaseDetail(16, Op::Store), "16-byte writes in 4 phases of 8 lanes");
}

TEST(RuleText, EightByteAccessesAreOnePhaseOfTheWholeWarpAsTheSentenceSays) {
  // Lanes l and l + 16 read the same 8 bytes, words 2(l % 16) and 2(l % 16) + 1: 32 distinct
  // words, one per bank. One phase of 32 lanes serves them in 1 wavefront; phases of 16 lanes
  // (the rule the help once taught) would take 2.
  const auto ins = Access(Space::Shared, 8, [](int l) { return uint64_t(8 * (l % 16)); });
  EXPECT_EQ(ins.wavefronts, 1);
  EXPECT_EQ(BankPhaseLanes(8), 32);
}

TEST(RuleText, SixteenByteWritesAreFourPhasesOfEightLanesAsTheSentenceSays) {
  // Lanes l, l + 8, l + 16, l + 24 write the same 16 bytes, words 4(l % 8) .. 4(l % 8) + 3: 32
  // distinct words, one per bank. Four phases of 8 lanes: 1 wavefront each, 4 in all.
  const auto ins = Access(Space::Shared, 16, [](int l) { return uint64_t(16 * (l % 8)); }, Op::Store);
  EXPECT_EQ(ins.wavefronts, 4);
  EXPECT_EQ(CaptionOf(ins).details.back(), BankPhaseDetail(16, Op::Store));
}

// ---- global memory: the ideal ----

TEST(RuleText, IdealIsTheDistinctBytesRoundedUpToSectorsForEveryAccess) {
  EXPECT_EQ(IdealDefinition().rfind("the least the bytes asked for could cost: the distinct bytes the active lanes "
                                    "ask for, rounded up to 32-byte sectors",
                                    0),
            0u)
      << IdealDefinition();
  // 16 distinct floats, each read by two lanes, 256 bytes apart (shortcut v0's column): 64
  // bytes = 2 sectors, though they lie in 16.
  const auto column = Access(Space::Global, 4, [](int l) { return uint64_t(0x10000 + (l % 16) * 256); });
  EXPECT_EQ(column.sectors, 16);
  EXPECT_EQ(column.ideal_sectors, 2);
  // The same 16 floats side by side (shortcut v1's row): 64 bytes in 2 sectors, the ideal.
  const auto row = Access(Space::Global, 4, [](int l) { return uint64_t(0x10000 + (l % 16) * 4); });
  EXPECT_EQ(row.sectors, 2);
  EXPECT_EQ(row.ideal_sectors, 2);
  // 32 floats, each 128 bytes from the next: 128 bytes asked for = 4 sectors, in 32.
  const auto strided = Access(Space::Global, 4, [](int l) { return uint64_t(0x10000 + l * 128); });
  EXPECT_EQ(strided.ideal_sectors, 4);
  // An atomic has the same ideal: 32 lanes adding to one float ask for 4 bytes: 1 sector.
  const auto atomic = Access(Space::Global, 4, [](int) { return uint64_t(0x10000); }, Op::Atomic);
  EXPECT_EQ(atomic.ideal_sectors, 1);
  EXPECT_EQ(IdealSectors(atomic), 1);
  // 8-byte pieces overlapping by half (lane l at 4l): bytes 0x10000 .. 0x10083, 132 bytes = 5.
  const auto overlap = Access(Space::Global, 8, [](int l) { return uint64_t(0x10000 + 4 * l); });
  EXPECT_EQ(overlap.ideal_sectors, 5);
}

// ---- global memory: the allocation rule and where sectors came from ----

TEST(RuleText, StoresAllocateTheirLineInL1AsTheCacheModelServesThem) {
  // One warp on one SM stores 32 floats (4 sectors of one line), then loads them, then stores
  // them again. The store allocates the line: the load finds all 4 sectors in L1; the second
  // store finds the line there: 4 store hits. The first store found it absent: 0 hits.
  DeviceProfile d = *FindDeviceProfile("H100");
  LaunchShape shape;
  shape.grid = {1, 1, 1};
  shape.block = {32, 1, 1};
  std::vector<Counters> per_site(1);
  Trace trace;
  MemoryHierarchy h(d, 32, shape, &per_site, &trace, 0);
  h.BeginBlock(0, 1, 0);
  for (Op op : {Op::Store, Op::Load, Op::Store}) {
    WarpInstruction ins;
    ins.op = op;
    ins.mask = ~0u;
    for (int l = 0; l < 32; ++l) ins.addr[l] = 0x7f0000000000ull + 4 * l;
    trace.instructions.push_back(ins);
    h.Record(ins, int64_t(trace.instructions.size() - 1));
  }
  h.Finish(0);
  // A store's sectors are marked as written to L2 (write-through), a load hit as L1.
  const ServedFrom want[3] = {ServedFrom::L2, ServedFrom::L1, ServedFrom::L2};
  for (int i = 0; i < 3; ++i) {
    ServedSector s[kWarpSize];
    ASSERT_EQ(ServedSectors(trace.instructions[i], s), 4);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(s[k].from, want[i]) << "instruction " << i << ", sector " << k;
  }
  EXPECT_EQ(per_site[0].l1_hits[int(Op::Load)], 4u);
  EXPECT_EQ(per_site[0].l1_hits[int(Op::Store)], 4u);  // the second store's only
  EXPECT_EQ(StoreAllocationRule(),
            "stores allocate their line in L1 (a store to a line there is an L1 hit) and are written through to L2");
  // The badge's line under a store says the rule without the parenthesis: it counts no hits.
  EXPECT_EQ(StoreAllocationRule(kHopperCachePolicy, true), "stores allocate their line in L1 and are written through to L2");
  EXPECT_EQ(ServedSentence(Op::Store, ServedFrom::L2), "was stored: " + StoreAllocationRule());
  EXPECT_EQ(ServedSentence(Op::Load, ServedFrom::L1), "was an L1 hit");
  // The sentence follows the policy it is given: a policy whose stores do not allocate.
  CachePolicy no_allocate = kHopperCachePolicy;
  no_allocate.op[int(Op::Store)].l1_allocate = false;
  EXPECT_EQ(StoreAllocationRule(no_allocate), "stores do not allocate in L1; they are written through to L2");
}

TEST(RuleText, ServedSummaryCountsEachPlaceAndQuotesTheAllocationRuleForStores) {
  const uint64_t load[4] = {0, 3, 0, 1}, store[4] = {0, 0, 4, 0}, atomic[4] = {0, 0, 0, 1}, none[4] = {};
  EXPECT_EQ(ServedSummary(Op::Load, load), "4 sectors: 3 L1 hits, 1 from DRAM");
  EXPECT_EQ(ServedSummary(Op::Store, store), "4 sectors: " + StoreAllocationRule(kHopperCachePolicy, true));
  EXPECT_EQ(ServedSummary(Op::Atomic, atomic), "1 sector updated at L2: 1 from DRAM");
  EXPECT_EQ(ServedSummary(Op::Load, load, "sector request", "sector requests"), "4 sector requests: 3 L1 hits, 1 from DRAM");
  EXPECT_EQ(ServedSummary(Op::Load, none), "");  // the caches were not modelled
}

// ---- metrics: one meaning each ----

TEST(RuleText, EverySeedTableRowMeansWhatItsMetricMeans) {
  for (const auto& row : ws::app::SeedTableRows()) {
    const std::string m = MetricMeaning(row.ncu_metric).empty() ? MetricMeaning(row.sim_metric) : MetricMeaning(row.ncu_metric);
    EXPECT_FALSE(m.empty()) << row.label;
    EXPECT_EQ(row.Meaning().rfind(m, 0), 0u) << row.label << ": " << row.Meaning();
  }
  // The store metric quotes the allocation rule.
  EXPECT_NE(MetricMeaning("lts__t_sectors_srcunit_tex_op_write.sum").find(StoreAllocationRule()), std::string::npos);
}

// ---- the README quotes the rules word for word ----

TEST(RuleText, TheReadmeQuotesEachRuleAsTheProgramSaysIt) {
  const std::string readme = OneLine(Slurp(std::string(WARPSCOPE_SOURCE_DIR) + "/README.md"));
  ASSERT_FALSE(readme.empty());
  for (const std::string& rule : {BankPhaseRule(), StoreAllocationRule(), IdealDefinition()})
    EXPECT_NE(readme.find(rule), std::string::npos) << "README.md does not quote: " << rule;
  // The wording the simulator dropped after measuring (8-byte accesses in phases of 16 lanes).
  EXPECT_EQ(readme.find("phases of 16"), std::string::npos);
}
