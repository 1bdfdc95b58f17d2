// Every variant of the catalog against its family's CPU reference, and the counters of the
// seeds' lessons, worked out by hand from each kernel's index expressions.
// Section index: helpers · every variant matches its reference · shortcut · transpose ·
// pairs · divergence · alignment.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "tests/source_lines.h"

using namespace ws;
using sim::FindingKind;
using sim::Op;
using sim::Selection;
using sim::Space;
using sim::Trace;
using sim::WarpInstruction;
using test::LineOf;

namespace {

// ---- helpers ----------------------------------------------------------------------------

kernels::SimOutcome SimulateWith(const std::string& id, int n, Selection::Kind kind,
                                 uint32_t block = 0, uint32_t warp = 0) {
  kernels::RunRequest req;
  req.n = n;
  req.seed = 7;
  sim::LaunchOptions opts;
  opts.selection.kind = kind;
  opts.selection.block = block;
  opts.selection.warp = warp;
  return kernels::Simulate(kernels::FindVariant(id), req, opts);
}

// One warp's instructions (block 0, warp 0 unless told).
Trace WarpTrace(const std::string& id, int n, uint32_t block = 0, uint32_t warp = 0) {
  auto o = SimulateWith(id, n, Selection::Kind::Warp, block, warp);
  EXPECT_TRUE(o.check.passed) << id << ": " << o.check.detail;
  return std::move(o.trace);
}

// A variant's source as embedded in the build (what the simulator's sites name).
const std::string& KernelText(const std::string& source_path) {
  const std::string& src = kernels::KernelSource(source_path);
  EXPECT_FALSE(src.empty()) << "no embedded source " << source_path;
  return src;
}

// The instructions of the trace issued from one source line, with the given op and space.
std::vector<WarpInstruction> At(const Trace& t, uint32_t line, Op op,
                                Space space = Space::Global) {
  std::vector<WarpInstruction> out;
  for (const auto& ins : t.instructions)
    if (t.sites[ins.site].line == line && ins.op == op && ins.space == space) out.push_back(ins);
  return out;
}

int ArrayId(const Trace& t, const std::string& name) {
  for (const auto& a : t.arrays)
    if (a.name == name) return a.id;
  ADD_FAILURE() << "no array named " << name;
  return -1;
}

std::vector<WarpInstruction> OfArray(const Trace& t, const std::string& name, Op op) {
  const int id = ArrayId(t, name);
  std::vector<WarpInstruction> out;
  for (const auto& ins : t.instructions)
    if (ins.array == id && ins.op == op) out.push_back(ins);
  return out;
}

constexpr uint32_t kFullMask = 0xffffffffu;
constexpr int kLoad = int(Op::Load), kStore = int(Op::Store), kRed = int(Op::Reduction);

// ---- every variant matches its reference --------------------------------------------------

std::vector<std::string> AllVariantIds() {
  std::vector<std::string> ids;
  for (const auto& f : kernels::Catalog())
    for (const auto& v : f.info.variants) ids.push_back(f.info.name + "/" + v.name);
  return ids;
}

class EveryVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryVariant, MatchesTheCpuReferenceWithoutErrorFindings) {
  const auto ref = kernels::FindVariant(GetParam());
  const int teach = ref.family->info.teaching_n;
  // The teaching size, an odd size half again as big (a multiple of no block shape), and a
  // size smaller than any block.
  for (int n : {teach, teach * 3 / 2 + 1, 3}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto o = SimulateWith(GetParam(), n, Selection::Kind::None);
    EXPECT_TRUE(o.check.passed) << o.check.detail;
    // Exactly the warnings the variant declares (WS_VARIANT's .warns), each at least once.
    const auto& warns = ref.variant->warns;
    std::vector<FindingKind> seen;
    for (const auto& f : o.trace.findings) {
      EXPECT_FALSE(sim::IsError(f.kind)) << sim::ToString(f.kind) << ": " << f.message;
      if (std::find(warns.begin(), warns.end(), f.kind) == warns.end())
        ADD_FAILURE() << "unexpected warning " << sim::ToString(f.kind) << ": " << f.message;
      seen.push_back(f.kind);
    }
    for (FindingKind k : warns)
      EXPECT_NE(std::find(seen.begin(), seen.end(), k), seen.end()) << "declared warning " << sim::ToString(k) << " not given";
    EXPECT_GT(o.trace.total.lane_accesses, 0u);
  }
  // One access of one site is issued once per warp and iteration: two instructions of a warp at the
  // same site in the same iteration with disjoint lanes are one access split in two (lanes that
  // took different paths through the statement before it). A loop within one line issues the site
  // again with lanes that were active before, so its masks overlap. Every block traced at the odd
  // size, whose last block's warps straddle n.
  const int odd = teach * 3 / 2 + 1;
  auto o = SimulateWith(GetParam(), odd, Selection::Kind::All);
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>> masks;
  for (const auto& ins : o.trace.instructions) {
    auto& seen = masks[{ins.block, ins.warp, ins.site, ins.epoch}];
    for (uint32_t m : seen)
      if ((m & ins.mask) == 0) {
        ADD_FAILURE() << "n = " << odd << ": block " << ins.block << " warp " << ins.warp << " issues line "
                      << o.trace.sites[ins.site].line << " twice in iteration " << ins.epoch << " (lanes "
                      << std::hex << m << " and " << ins.mask << std::dec << ")";
        return;
      }
    seen.push_back(ins.mask);
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryVariant, ::testing::ValuesIn(AllVariantIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string s = info.param;
                           std::replace(s.begin(), s.end(), '/', '_');
                           return s;
                         });

TEST(Catalog, SeedFamiliesAreInLessonOrder) {
  // The seeds' lessons in the order of their WS_FAMILY .order (a family added later may sit
  // anywhere between them).
  std::vector<std::string> names;
  for (const auto& f : kernels::Catalog()) names.push_back(f.info.name);
  size_t at = 0;
  for (const char* want : {"shortcut", "pairs", "divergence", "alignment", "transpose"}) {
    const auto it = std::find(names.begin() + at, names.end(), want);
    ASSERT_NE(it, names.end()) << want << " missing or out of order";
    at = size_t(it - names.begin()) + 1;
  }
}

TEST(Catalog, VariantsAreInLessonOrderAndDeclareTheirWork) {
  // Each variant's .order puts the seeds' numbering in order, and every seed variant says what
  // it moves: the transpose moves 2 n^2 floats, at n = 64 that is 2 * 4096 * 4 = 32768 bytes.
  const auto& shortcut = kernels::FindVariant("shortcut/v0").family->info;
  std::vector<std::string> names;
  for (const auto& v : shortcut.variants) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"v0", "v0_transposed", "v1", "v2", "v2_float4", "v3", "v4", "v5"}));
  for (const auto& f : kernels::Catalog())
    for (const auto& v : f.info.variants) {
      EXPECT_NE(v.work, nullptr) << f.info.name << "/" << v.name;
      EXPECT_EQ(v.source, "kernels/" + f.info.name + "/" + v.name + ".cuh") << "one variant, one file";
    }
  EXPECT_EQ(kernels::WorkOf(*kernels::FindVariant("transpose/naive").variant, 64).bytes, 32768.0);
  // shortcut at n = 64: 2 n^3 = 2 * 262144 = 524288 operations (an add and a min per k).
  EXPECT_EQ(kernels::WorkOf(*kernels::FindVariant("shortcut/v3").variant, 64).ops, 524288.0);
}

TEST(Catalog, BlockShapesAVariantCannotTakeAreRefused) {
  // Each family's kernels index with a fixed block shape; any other is a BadRequest.
  for (const char* id : {"shortcut/v0", "shortcut/v2", "shortcut/v4", "pairs/v3",
                         "divergence/split", "alignment/float4"}) {
    kernels::RunRequest req;
    req.n = 64;
    req.block = {32, 4, 1};
    sim::LaunchOptions opts;
    opts.selection.kind = Selection::Kind::None;
    EXPECT_THROW(kernels::Simulate(kernels::FindVariant(id), req, opts), kernels::BadRequest) << id;
  }
}

// ---- shortcut -----------------------------------------------------------------------------
// n = 64: a row is 256 bytes, two 128-byte lines; warp 0 of a 16x16 block is threads
// (x 0..15, y 0) then (x 0..15, y 1).

TEST(Shortcut, ShortcutV0ReadOfDTouches16Lines) {
  const Trace t = WarpTrace("shortcut/v0", 64);
  const auto x = At(t, LineOf(KernelText("kernels/shortcut/v0.cuh"), "float x = d[n*i + k]"), Op::Load);
  ASSERT_EQ(x.size(), 64u);  // one per k
  for (const auto& ins : x) {
    EXPECT_EQ(ins.mask, kFullMask);
    // i = lane % 16: 16 rows of d, 256 bytes apart, each float read by two lanes. Ideal: the 16
    // distinct floats = 64 bytes = 2 sectors.
    EXPECT_EQ(ins.sectors, 16);
    EXPECT_EQ(ins.lines, 16);
    EXPECT_EQ(ins.ideal_sectors, 2);
  }
}

TEST(Shortcut, ShortcutV0ReadOfColumnIsTwoFloatsInOneSector) {
  const Trace t = WarpTrace("shortcut/v0", 64);
  const auto y = At(t, LineOf(KernelText("kernels/shortcut/v0.cuh"), "float y = d[n*k + j]"), Op::Load);
  ASSERT_EQ(y.size(), 64u);
  for (const auto& ins : y) {
    // j is 0 or 1: d[n*k], d[n*k + 1], side by side.
    EXPECT_EQ(ins.sectors, 1);
    EXPECT_EQ(ins.lines, 1);
  }
}

TEST(Shortcut, ShortcutV0StoreTouches16Lines) {
  const Trace t = WarpTrace("shortcut/v0", 64);
  const auto st = OfArray(t, "r", Op::Store);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].sectors, 16);  // r[n*i + j]: 16 rows, two adjacent floats in each
  EXPECT_EQ(st[0].lines, 16);
}

TEST(Shortcut, ShortcutV0TransposedReadOfTIsTwoRows) {
  const Trace t = WarpTrace("shortcut/v0_transposed", 64);
  const auto x = At(t, LineOf(KernelText("kernels/shortcut/v0_transposed.cuh"), "float x = d[n*i + k]"), Op::Load);
  const auto y = At(t, LineOf(KernelText("kernels/shortcut/v0_transposed.cuh"), "float y = t[n*j + k]"), Op::Load);
  ASSERT_EQ(x.size(), 64u);
  ASSERT_EQ(y.size(), 64u);
  for (const auto& ins : x) EXPECT_EQ(ins.lines, 16);  // unchanged from v0
  for (const auto& ins : y) {
    EXPECT_EQ(ins.sectors, 2);  // t[n*0 + k] and t[n*1 + k]: rows 256 bytes apart
    EXPECT_EQ(ins.lines, 2);
  }
}

TEST(Shortcut, ShortcutV1ReadsAreCoalesced) {
  const Trace t = WarpTrace("shortcut/v1", 64);
  const auto x = At(t, LineOf(KernelText("kernels/shortcut/v1.cuh"), "float x = d[n*j + k]"), Op::Load);
  const auto y = At(t, LineOf(KernelText("kernels/shortcut/v1.cuh"), "float y = d[n*k + i]"), Op::Load);
  ASSERT_EQ(x.size(), 64u);
  ASSERT_EQ(y.size(), 64u);
  for (const auto& ins : x) {
    EXPECT_EQ(ins.sectors, 2);  // two floats, one in each of two rows
    EXPECT_EQ(ins.lines, 2);
  }
  for (const auto& ins : y) {
    EXPECT_EQ(ins.sectors, 2);  // 16 consecutive floats, 64 bytes at a 64-byte boundary
    EXPECT_EQ(ins.lines, 1);
  }
  const auto st = OfArray(t, "r", Op::Store);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].sectors, 4);  // two rows of 16 floats
  EXPECT_EQ(st[0].lines, 2);
}

TEST(Shortcut, ShortcutV1LoadsFourSectorsWhereV0LoadsSeventeen) {
  // Whole launch at n = 64: 16 blocks of 8 warps, 2 load requests per warp and k.
  const uint64_t warps = 16 * 8, requests = warps * 64 * 2;
  const auto v0 = SimulateWith("shortcut/v0", 64, Selection::Kind::None).trace.total;
  const auto v1 = SimulateWith("shortcut/v1", 64, Selection::Kind::None).trace.total;
  EXPECT_EQ(v0.global_requests[kLoad], requests);
  EXPECT_EQ(v1.global_requests[kLoad], requests);
  EXPECT_EQ(v0.global_sectors[kLoad], warps * 64 * (16 + 1));
  EXPECT_EQ(v1.global_sectors[kLoad], warps * 64 * (2 + 2));
}

// v2 at n = 64: one block of 8x8 threads; warp 0 is ia 0..7, ja 0..3.
TEST(Shortcut, ShortcutV2ReadsAreOneSectorBroadcasts) {
  const Trace t = WarpTrace("shortcut/v2", 64);
  const auto xt = OfArray(t, "t", Op::Load);
  const auto yd = OfArray(t, "d", Op::Load);
  ASSERT_EQ(xt.size(), 64u * 8);  // 8 per k
  ASSERT_EQ(yd.size(), 64u * 8);
  for (const auto& ins : xt) {
    EXPECT_EQ(ins.mask, kFullMask);
    EXPECT_EQ(ins.sectors, 1);  // t[nn*k + ib*8 + ia]: 8 floats at a 32-byte boundary
  }
  for (const auto& ins : yd) EXPECT_EQ(ins.sectors, 1);  // 4 floats, ja = 0..3
}

TEST(Shortcut, ShortcutV2Float4IssuesAQuarterOfTheLoads) {
  const Trace t = WarpTrace("shortcut/v2_float4", 64);
  const auto xt = OfArray(t, "t", Op::Load);
  const auto yd = OfArray(t, "d", Op::Load);
  ASSERT_EQ(xt.size(), 64u * 2);  // ib = 0, 4
  ASSERT_EQ(yd.size(), 64u * 2);
  for (const auto& ins : xt) {
    EXPECT_EQ(ins.width, 16);
    EXPECT_EQ(ins.sectors, 4);  // 8 float4 (ia = 0..7): 128 contiguous bytes
    EXPECT_EQ(ins.lines, 1);
  }
  for (const auto& ins : yd) {
    EXPECT_EQ(ins.width, 16);
    EXPECT_EQ(ins.sectors, 2);  // 4 float4 (ja = 0..3): 64 bytes
  }
}

TEST(Shortcut, ShortcutV3StagesRowsWithCoalescedLoadsAndBroadcastReads) {
  const Trace t = WarpTrace("shortcut/v3", 64);
  const auto loads = OfArray(t, "t", Op::Load);
  ASSERT_EQ(loads.size(), 64u);  // 16 stages x 4 rows
  for (const auto& ins : loads) {
    EXPECT_EQ(ins.sectors, 4);  // ija = lane: 32 consecutive floats of one row
    EXPECT_EQ(ins.lines, 1);
  }
  const auto xs = OfArray(t, "xx", Op::Store), xl = OfArray(t, "xx", Op::Load);
  const auto yl = OfArray(t, "yy", Op::Load);
  ASSERT_EQ(xs.size(), 64u);
  ASSERT_EQ(xl.size(), 16u * 4 * 8);  // per stage: 4 k-steps x 8 reads
  ASSERT_EQ(yl.size(), 16u * 4 * 8);
  for (const auto& ins : xs) EXPECT_EQ(ins.wavefronts, 1);  // 32 consecutive words
  for (const auto& ins : xl) {
    EXPECT_EQ(ins.wavefronts, 1);  // 8 distinct words (ia), each broadcast to 4 lanes
    EXPECT_EQ(ins.conflict_degree, 1);
  }
  for (const auto& ins : yl) EXPECT_EQ(ins.wavefronts, 1);  // 4 distinct words (ja)
  EXPECT_EQ(t.barriers, 32u);  // two per stage, 16 stages, one block
}

TEST(Shortcut, ShortcutV4LoadsOneFloat4PerThreadAndStage) {
  const Trace t = WarpTrace("shortcut/v4", 64);
  const auto loads = OfArray(t, "t", Op::Load);
  ASSERT_EQ(loads.size(), 16u);  // one per stage
  for (const auto& ins : loads) {
    EXPECT_EQ(ins.width, 16);
    // Lanes 0-15 read 256 bytes of row ks, lanes 16-31 of row ks + 1: 2 lines each.
    EXPECT_EQ(ins.sectors, 16);
    EXPECT_EQ(ins.lines, 4);
  }
  // Lane l: ia = l % 8, ja = l / 8. A 16-byte read is served per half-warp; its two
  // quarter-warps share a wavefront when their banks are disjoint (docs/FIDELITY.md).
  // xx[f][ib * 2 + ia]: each quarter reads 8 consecutive float4 (all 32 banks), the same 8 in
  // both quarters: they add, 1 + 1 per half-warp, 4 in all. yy[f][jb * 2 + ja]: quarter q
  // reads the one float4 jb * 2 + q; quarters 0 and 1 use banks 0-3 and 4-7 (shifted by 8
  // per jb step): disjoint, 1 per half-warp, 2 in all. Per k-step 2 x 4 + 2 x 2 = 12, as ncu
  // measured (1536 = 128 k-steps x 12 at n = 64).
  for (const auto& [name, wavefronts] : {std::pair{"xx", 4}, std::pair{"yy", 2}}) {
    const auto rd = OfArray(t, name, Op::Load);
    ASSERT_EQ(rd.size(), 16u * 4 * 2);  // per stage: 4 k-steps x 2 float4 reads
    for (const auto& ins : rd) {
      EXPECT_EQ(ins.wavefronts, wavefronts) << name;
      EXPECT_EQ(ins.conflict_degree, 1);
    }
  }
  const auto st = OfArray(t, "r", Op::Store);
  ASSERT_EQ(st.size(), 8u * 2);  // 8 rows x 2 float4 per thread
  for (const auto& ins : st) {
    EXPECT_EQ(ins.width, 16);
    EXPECT_EQ(ins.sectors, 16);  // 8 rows (ia * 4) x 64 bytes (ja = 0..3)
    EXPECT_EQ(ins.lines, 8);
  }
}

// ---- transpose ----------------------------------------------------------------------------
// n = 64, 32x32 blocks: warp 0 is row y = 0 of the tile, x = 0..31.

TEST(Transpose, TransposeCopyIsOneRequestFourSectorsOneLine) {
  const Trace t = WarpTrace("transpose/copy", 64);
  for (Op op : {Op::Load, Op::Store}) {
    const auto ins = OfArray(t, op == Op::Load ? "in" : "out", op);
    ASSERT_EQ(ins.size(), 1u);
    EXPECT_EQ(ins[0].sectors, 4);  // 32 consecutive floats
    EXPECT_EQ(ins[0].lines, 1);
  }
}

TEST(Transpose, TransposeNaiveStoreTouches32SectorsPerRequest) {
  const Trace t = WarpTrace("transpose/naive", 64);
  const auto st = OfArray(t, "out", Op::Store);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].sectors, 32);  // out[x*height + y]: lanes a 256-byte row apart
  EXPECT_EQ(st[0].lines, 32);
  EXPECT_EQ(st[0].ideal_sectors, 4);
}

TEST(Transpose, TransposeSharedColumnReadIs32Way) {
  const Trace t = WarpTrace("transpose/shared", 64);
  const auto rd = OfArray(t, "tile", Op::Load);
  ASSERT_EQ(rd.size(), 1u);
  EXPECT_EQ(rd[0].conflict_degree, 32);  // tile[x][0]: words 32x apart, all in bank 0
  EXPECT_EQ(rd[0].wavefronts, 32);
  const auto wr = OfArray(t, "tile", Op::Store);
  ASSERT_EQ(wr.size(), 1u);
  EXPECT_EQ(wr[0].wavefronts, 1);  // tile[0][x]: a row
}

TEST(Transpose, PaddedTileIsConflictFree) {
  const Trace t = WarpTrace("transpose/shared_padded", 64);
  const auto rd = OfArray(t, "tile", Op::Load);
  ASSERT_EQ(rd.size(), 1u);
  EXPECT_EQ(rd[0].conflict_degree, 1);  // tile[x][0]: words 33x apart, bank x
  EXPECT_EQ(rd[0].wavefronts, 1);
}

// ---- pairs --------------------------------------------------------------------------------
// n = 256: an 8x8 grid of one-warp blocks.

TEST(Pairs, PairsV2ReadIsBroadcastNotConflict) {
  const Trace t = WarpTrace("pairs/v2", 256);
  const auto rd = OfArray(t, "_b", Op::Load);
  ASSERT_EQ(rd.size(), 32u);  // N_ITERATIONS
  for (const auto& ins : rd) {
    EXPECT_EQ(ins.mask, kFullMask);
    for (int l = 1; l < 32; ++l) EXPECT_EQ(ins.addr[l], ins.addr[0]);  // _b[i]
    EXPECT_EQ(ins.wavefronts, 1);
    EXPECT_EQ(ins.conflict_degree, 1);
  }
}

TEST(Pairs, PairsV2DiagonalReadIsConflictFreeToo) {
  const Trace t = WarpTrace("pairs/v2_diagonal", 256);
  const auto rd = OfArray(t, "_b", Op::Load);
  ASSERT_EQ(rd.size(), 32u);
  for (const auto& ins : rd) {
    // _b[(32 - i + l) % 32]: a rotation of 0..31, one word in each bank.
    std::vector<uint64_t> a(ins.addr.begin(), ins.addr.end());
    std::sort(a.begin(), a.end());
    EXPECT_EQ(std::unique(a.begin(), a.end()) - a.begin(), 32);
    EXPECT_EQ(ins.wavefronts, 1);
    EXPECT_EQ(ins.conflict_degree, 1);
  }
}

TEST(Pairs, PairsV2WithoutBarrierIsAWarpSyncRaceWarning) {
  auto o = SimulateWith("pairs/v2", 100, Selection::Kind::None);
  EXPECT_TRUE(o.check.passed) << o.check.detail;  // the warp runs in lockstep
  bool found = false;
  for (const auto& f : o.trace.findings) {
    EXPECT_NE(f.kind, FindingKind::SharedRace) << f.message;  // the tile stays in one warp
    if (f.kind == FindingKind::WarpSyncRace) {
      found = true;
      EXPECT_FALSE(sim::IsError(f.kind));
      ASSERT_GE(f.site, 0);
      EXPECT_EQ(o.trace.sites[f.site].line,
                LineOf(KernelText("kernels/pairs/v2.cuh"), "cal(a[x], _b[i])"));
    }
  }
  EXPECT_TRUE(found);
}

TEST(Pairs, PairsV1IsThirtyTwoAtomicsToOneAddressPerWarp) {
  const Trace t = WarpTrace("pairs/v1", 256);
  const auto red = OfArray(t, "ans", Op::Reduction);
  ASSERT_EQ(red.size(), 1u);  // the result of atomicAdd is unused: RED
  EXPECT_EQ(red[0].mask, kFullMask);
  EXPECT_EQ(red[0].same_address_lanes, 32);
}

TEST(Pairs, PairsV3IsOneAtomicLanePerWarp) {
  const Trace t = WarpTrace("pairs/v3", 256);
  const auto red = OfArray(t, "ans", Op::Reduction);
  ASSERT_EQ(red.size(), 1u);
  EXPECT_EQ(red[0].mask, 1u);  // threadIdx.x == 0
  EXPECT_EQ(red[0].same_address_lanes, 1);
  // Whole launch: 64 warps, one RED each, and 64 x 32 lanes in v1.
  const auto v1 = SimulateWith("pairs/v1", 256, Selection::Kind::None).trace.total;
  const auto v3 = SimulateWith("pairs/v3", 256, Selection::Kind::None).trace.total;
  EXPECT_EQ(v1.global_requests[kRed], 64u);
  EXPECT_EQ(v3.global_requests[kRed], 64u);
  EXPECT_EQ(v1.atomic_same_address, 64u * 32);
  EXPECT_EQ(v3.atomic_same_address, 0u);
  // A float RED serialises its lanes on one address: v1 32 sectors and 32 L2 requests per
  // warp, 64 x 32 = 2048 (ncu on an H100 and an H200: 2048); v3 one lane, 64 x 1 = 64.
  EXPECT_EQ(v1.global_sectors[kRed], 2048u);
  EXPECT_EQ(v1.global_l2_requests[kRed], 2048u);
  EXPECT_EQ(v3.global_sectors[kRed], 64u);
  EXPECT_EQ(v3.global_l2_requests[kRed], 64u);
}

// ---- divergence ---------------------------------------------------------------------------
// n = 4096: 2 blocks of 256 threads, a grid stride of 512, 8 iterations per thread. Values
// have their index's parity, so even lanes hold even values.

TEST(Divergence, DivergentBranchRunsHalfTheLanes) {
  const Trace t = WarpTrace("divergence/divergent", 4096);
  const uint32_t even = LineOf(KernelText("kernels/divergence/divergent.cuh"), "array[i] *= 2");
  const uint32_t odd = LineOf(KernelText("kernels/divergence/divergent.cuh"), "array[i] /= 2");
  const auto test = At(t, LineOf(KernelText("kernels/divergence/divergent.cuh"), "if (array[i] % 2 == 0)"), Op::Load);
  const auto even_st = At(t, even, Op::Store), odd_st = At(t, odd, Op::Store);
  ASSERT_EQ(test.size(), 8u);
  ASSERT_EQ(even_st.size(), 8u);
  ASSERT_EQ(odd_st.size(), 8u);
  for (const auto& ins : test) EXPECT_EQ(ins.mask, kFullMask);  // the test: every lane
  for (int it = 0; it < 8; ++it) {
    EXPECT_EQ(even_st[it].mask, 0x55555555u);
    EXPECT_EQ(odd_st[it].mask, 0xaaaaaaaau);
    // 16 ints, every second one of a 128-byte run: 4 sectors for 2 sectors of data.
    EXPECT_EQ(even_st[it].sectors, 4);
    EXPECT_EQ(even_st[it].ideal_sectors, 2);
  }
  // Whole launch: each element stored once, by an instruction with 16 active lanes.
  const auto total = SimulateWith("divergence/divergent", 4096, Selection::Kind::None).trace.total;
  EXPECT_EQ(total.global_requests[kStore], 4096u / 16);
}

TEST(Divergence, SplitLoopsReadWithStride2) {
  const Trace t = WarpTrace("divergence/split", 4096);
  const auto loads = OfArray(t, "array", Op::Load);
  // Two loops, each with stride 2 * 512 = 1024: 4 iterations each.
  ASSERT_EQ(loads.size(), 8u);
  for (const auto& ins : loads) {
    EXPECT_EQ(ins.mask, kFullMask);  // no divergence
    EXPECT_EQ(ins.sectors, 8);       // array[2*lane (+1)]: 256 bytes for 128 bytes of data
    EXPECT_EQ(ins.lines, 2);
    EXPECT_EQ(ins.ideal_sectors, 4);
  }
  const auto total = SimulateWith("divergence/split", 4096, Selection::Kind::None).trace.total;
  EXPECT_EQ(total.global_requests[kLoad], 4096u / 32);
  EXPECT_EQ(total.global_sectors[kLoad], 4096u / 32 * 8);
  EXPECT_DOUBLE_EQ(total.AverageActiveLanes(), 32.0);
}

// ---- alignment ----------------------------------------------------------------------------
// n = 1024: lane l of warp 0 reads RayState l, 32 bytes at 32 * l.

TEST(Alignment, ScalarRayStateIsEightRequests) {
  const Trace t = WarpTrace("alignment/scalar", 1024);
  const auto loads = OfArray(t, "rays", Op::Load);
  ASSERT_EQ(loads.size(), 8u);  // 32 bytes in 4-byte pieces
  for (size_t p = 0; p < loads.size(); ++p) {
    EXPECT_EQ(loads[p].width, 4);
    EXPECT_EQ(loads[p].addr[1] - loads[p].addr[0], 32u);
    EXPECT_EQ(loads[p].addr[0] - loads[0].addr[0], 4 * p);
    EXPECT_EQ(loads[p].sectors, 32);  // one sector per lane for 4 bytes each
    EXPECT_EQ(loads[p].lines, 8);     // 1024 bytes
    EXPECT_EQ(loads[p].ideal_sectors, 4);
  }
}

TEST(Alignment, AlignmentFloat4Covers32SectorsPerRequest) {
  const Trace t = WarpTrace("alignment/float4", 1024);
  const auto loads = OfArray(t, "rays", Op::Load);
  ASSERT_EQ(loads.size(), 2u);
  for (const auto& ins : loads) {
    EXPECT_EQ(ins.width, 16);
    EXPECT_EQ(ins.sectors, 32);  // 16 bytes of each 32-byte struct: one sector per lane
    EXPECT_EQ(ins.lines, 8);
    EXPECT_EQ(ins.ideal_sectors, 16);
  }
  EXPECT_EQ(loads[1].addr[0] - loads[0].addr[0], 16u);  // r2 is the struct's second half
  const auto st = OfArray(t, "out", Op::Store);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].sectors, 4);
}

}  // namespace
