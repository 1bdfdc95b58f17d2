// The launch's last replay on several threads (sim/replay_window.h) gives the one-thread replay's
// results bit for bit: every site's counters, each traced instruction's served-from marks, and
// Trace::caches in full (the traced SM's L1 log and where each step stands in it, the L2 lines
// of the traced steps with their sets, waves), on 1, 2, 3 and 5 threads. Made-up launches
// through the hierarchy (several waves, blocks of different lengths, barriers in a loop, stores
// wider than wide_store_lines, atomics, streams spilled to a file), then kernels through the
// engine on a small device (catalog variants over many waves, kernels outside the catalog).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/sim_backend.h"
#include "sim/cache.h"
#include "sim/device_profile.h"
#include "sim/dialect.h"
#include "sim/engine.h"
#include "sim/hierarchy.h"
#include "sim/trace.h"
#include "tests/filler_inputs.h"
#include "tests/trace_bytes.h"

namespace parallel_replay {
using namespace ::ws::dialect;
using ::ws::sim::Counters;
using ::ws::sim::DeviceProfile;
using ::ws::sim::LaunchOptions;
using ::ws::sim::LaunchShape;
using ::ws::sim::MemoryHierarchy;
using ::ws::sim::Op;
using ::ws::sim::Selection;
using ::ws::sim::Trace;
using ::ws::sim::WarpInstruction;

using ::ws::test::TraceBytes;

// A small device: 12 SMs in merge groups of 2 (6 groups to split between threads) and a 64 KiB
// L2, so that a few dozen blocks make several waves and the L2 evicts (and writes back).
DeviceProfile SmallDevice() {
  DeviceProfile d = *::ws::sim::FindDeviceProfile("H100");
  d.sms = 12;
  d.merge_group_sms = 2;
  d.l2_bytes = 64 << 10;
  return d;
}

// ---- made-up launches through the hierarchy ----
struct Launch {
  uint64_t blocks = 60;           // 8 warps each; 4 blocks an SM: 48 a wave, 2 waves
  uint64_t budget = MemoryHierarchy::kDefaultBufferBytes;
  bool trace_all = false;         // warp 0 of every block traced (else of block 41 only)
  int length_scale = 1;           // records per warp: (12 + 5 x (b % 5)) x this
  const std::atomic<bool>* cancel = nullptr;
  std::function<void()> before_finish;
};
struct Replayed {
  std::vector<Counters> per_site;
  Trace trace;
  std::string bytes;
};

// Block b's warps issue 12 + 5 * (b % 5) instructions each (blocks of different lengths), a
// barrier after every 6th (barriers in a loop); loads of runs and of scattered words, stores
// of runs and stores over 32 lines (wider than wide_store_lines), atomics on a few words that
// every block shares. 8 sites.
Replayed ReplayMadeUp(const Launch& l, uint32_t threads) {
  const DeviceProfile d = SmallDevice();
  LaunchShape shape;
  shape.grid = {uint32_t(l.blocks), 1, 1};
  shape.block = {256, 1, 1};
  Replayed r;
  r.per_site.resize(8);
  const int64_t traced_block = l.trace_all ? -1 : 41;
  MemoryHierarchy h(d, 64, shape, &r.per_site, &r.trace, traced_block, l.budget);
  h.ReplayOn(threads);
  if (l.cancel) h.StopWhen(l.cancel);
  uint64_t x = 987654321;
  auto next = [&x] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  const uint64_t base = 0x7f0000000000ull;
  for (uint64_t b = 0; b < l.blocks; ++b) {
    h.BeginBlock(b, 8, 0);
    const int length = (12 + 5 * int(b % 5)) * l.length_scale;
    for (int i = 0; i < length; ++i) {
      if (i % 6 == 5) h.Barrier();
      for (uint32_t w = 0; w < 8; ++w) {
        WarpInstruction ins;
        ins.warp = w;
        ins.site = uint32_t(i % 8);
        const int kind = int((i + w) % 5);
        ins.op = kind == 4 ? Op::Atomic : (kind == 2 || kind == 3) ? Op::Store : Op::Load;
        ins.mask = ~0u;
        const uint64_t run = base + next() % 4096 * 128;
        for (int lane = 0; lane < 32; ++lane) {
          if (ins.op == Op::Atomic) ins.addr[lane] = base + (next() % 16) * 4;
          else if (kind == 3) ins.addr[lane] = run + uint64_t(lane) * 256;  // 32 lines
          else if (kind == 1) ins.addr[lane] = base + next() % (64 << 10) * 4;
          else ins.addr[lane] = run + 4 * uint64_t(lane);
        }
        int64_t traced = -1;
        if (w == 0 && (l.trace_all || b == 41)) {
          traced = int64_t(r.trace.instructions.size());
          r.trace.instructions.push_back(ins);
        }
        h.Record(ins, traced);
      }
    }
  }
  if (l.before_finish) l.before_finish();
  h.Finish(0);
  r.bytes = TraceBytes(r.trace);
  return r;
}

void ExpectSame(const Replayed& one, const Replayed& many) {
  ASSERT_EQ(one.per_site.size(), many.per_site.size());
  for (size_t s = 0; s < one.per_site.size(); ++s) {
    const Counters& a = one.per_site[s];
    const Counters& b = many.per_site[s];
    for (int o = 0; o < 4; ++o) {
      EXPECT_EQ(a.l1_hits[o], b.l1_hits[o]) << "site " << s << " op " << o;
      EXPECT_EQ(a.l2_sectors[o], b.l2_sectors[o]) << "site " << s << " op " << o;
      EXPECT_EQ(a.l2_hits[o], b.l2_hits[o]) << "site " << s << " op " << o;
    }
    EXPECT_EQ(a.dram_read_bytes, b.dram_read_bytes) << "site " << s;
    EXPECT_EQ(a.dram_write_bytes, b.dram_write_bytes) << "site " << s;
    EXPECT_EQ(std::memcmp(&a, &b, sizeof(Counters)), 0) << "site " << s;
  }
  ASSERT_EQ(one.trace.instructions.size(), many.trace.instructions.size());
  for (size_t i = 0; i < one.trace.instructions.size(); ++i)
    EXPECT_EQ(one.trace.instructions[i].served, many.trace.instructions[i].served) << "step " << i;
  const auto& a = one.trace.caches;
  const auto& b = many.trace.caches;
  EXPECT_EQ(a.l1_events.size(), b.l1_events.size());
  EXPECT_EQ(a.l1_events_until, b.l1_events_until);
  EXPECT_EQ(a.l2_lines.size(), b.l2_lines.size());
  EXPECT_EQ(a.l2_steps.size(), b.l2_steps.size());
  EXPECT_EQ(a.waves, b.waves);
  EXPECT_TRUE(one.bytes == many.bytes);  // everything the trace holds, byte for byte
}

TEST(ParallelReplay, MadeUpLaunchOverTwoWavesGivesTheSameCountersMarksAndLogsOnOneTwoThreeAndFiveThreads) {
  const Replayed one = ReplayMadeUp({}, 1);
  ASSERT_EQ(one.trace.caches.waves, 2u);  // 60 blocks, 12 SMs x 4 blocks of 256 threads (64 registers)
  ASSERT_GT(one.trace.caches.l1_events.size(), 100u);  // block 41 is in the last wave: its SM's log
  ASSERT_FALSE(one.trace.caches.l2_lines.empty());
  uint64_t l1_hits = 0, written_back = 0;
  for (const auto& c : one.per_site) {
    for (int o = 0; o < 4; ++o) l1_hits += c.l1_hits[o];
    written_back += c.dram_write_bytes;
  }
  ASSERT_GT(l1_hits, 0u);
  ASSERT_GT(written_back, 0u);  // the L2 evicted dirty lines
  for (uint32_t threads : {2u, 3u, 5u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    ExpectSame(one, ReplayMadeUp({}, threads));
  }
}

// ---- an L1 slot filled again while its stamp waits ----
// A slot's stamp (the latest arrival of its line's sectors: a hit after it need not ask whether
// its sector is still on its way) waits for pending arrivals in a replay on several threads, and
// a new line in the slot starts it over. DRAM answers here in 360 cycles (an L2 hit in 350); one
// block on each of the 12 SMs, each on lines of its own. Warp 0 loads four lines of one L1 set at
// t0. Warp 3, 200 cycles on, loads a fifth line of that set (a DRAM miss: it arrives at
// t0 + 560), which takes the first line's slot while that line is still on its way. Warp 1, 400
// cycles on, hits the fifth line and waits for it, then loads line z (site 5); warp 2 loads z 500
// cycles on (site 6). So warp 2 misses z first and warp 1 hits it. A replay that let the first
// line's arrival (t0 + 360) stand as the slot's stamp would let warp 1 go on at once and miss z
// before warp 2.
Replayed ReplayRefillWhileWaiting(uint32_t threads) {
  DeviceProfile d = SmallDevice();
  d.timing.dram = 360;
  LaunchShape shape;
  shape.grid = {12, 1, 1};
  shape.block = {128, 1, 1};
  Replayed r;
  r.per_site.resize(8);
  MemoryHierarchy h(d, 64, shape, &r.per_site, &r.trace, 5);
  h.ReplayOn(threads);
  const ::ws::sim::Residency res = ::ws::sim::ComputeResidency(d, shape, 64, 0);
  const ::ws::sim::SectorCache l1({res.l1_bytes, d.l1_ways, true});
  for (uint64_t b = 0; b < 12; ++b) {
    // Five lines of one set, and z in another, in the block's own megabyte.
    const uint64_t first = (0x7f0000000000ull + (b << 20)) / 128;
    std::vector<uint64_t> set_lines{first};
    uint64_t z = 0;
    for (uint64_t line = first + 1; set_lines.size() < 5 || z == 0; ++line) {
      const bool same = l1.SetOfLine(line) == l1.SetOfLine(first);
      if (same && set_lines.size() < 5) set_lines.push_back(line);
      else if (!same && z == 0) z = line;
    }
    h.BeginBlock(b, 4, 0);
    auto record = [&](uint32_t warp, uint32_t site, Op op, std::vector<uint64_t> lines) {
      WarpInstruction ins;
      ins.warp = warp, ins.site = site, ins.op = op, ins.mask = ~0u;
      for (int lane = 0; lane < 32; ++lane) ins.addr[lane] = lines[size_t(lane) % lines.size()] * 128 + 4 * (lane / lines.size());
      h.Record(ins, -1);
    };
    const uint64_t clock_line = first + (1 << 19) / 128;  // reductions that pass the time, at L2
    record(0, 0, Op::Load, {set_lines[0], set_lines[1], set_lines[2], set_lines[3]});
    for (int i = 0; i < 200; ++i) record(3, 7, Op::Reduction, {clock_line});
    record(3, 1, Op::Load, {set_lines[4]});
    for (int i = 0; i < 400; ++i) record(1, 7, Op::Reduction, {clock_line});
    record(1, 2, Op::Load, {set_lines[4]});
    record(1, 5, Op::Load, {z});
    for (int i = 0; i < 500; ++i) record(2, 7, Op::Reduction, {clock_line});
    record(2, 6, Op::Load, {z});
  }
  h.Finish(0);
  r.bytes = TraceBytes(r.trace);
  return r;
}

TEST(ParallelReplay, AnL1SlotFilledAgainWhileItsStampWaitsMakesAWarpThatHitsItsNewLineWaitForIt) {
  const Replayed one = ReplayRefillWhileWaiting(1);
  const int ld = int(Op::Load);
  // Each of the 12 blocks: 4 sectors.
  ASSERT_EQ(one.per_site[2].l1_hits[ld], 48u);  // warp 1 hits the fifth line
  ASSERT_EQ(one.per_site[5].l1_hits[ld], 48u);  // and z, which warp 2 missed first
  ASSERT_EQ(one.per_site[6].l1_hits[ld], 0u);
  for (uint32_t threads : {2u, 3u, 5u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    ExpectSame(one, ReplayRefillWhileWaiting(threads));
  }
}

TEST(ParallelReplay, EveryBlocksTracedWarpKeepsItsMarksAndL2LinesOnSeveralThreads) {
  // Traced instructions on every SM: their marks and L2 lines come from every thread's part.
  Launch l;
  l.trace_all = true;
  const Replayed one = ReplayMadeUp(l, 1);
  for (uint32_t threads : {2u, 3u, 5u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    ExpectSame(one, ReplayMadeUp(l, threads));
  }
}

TEST(ParallelReplay, StreamsSpilledToAFileGiveTheSameResultsOnSeveralThreads) {
  // A 256-byte budget: every warp's records go to the spill file and come back through each
  // thread's 2 KiB windows (SpillFile::Read, pread, from several threads at once).
  Launch l;
  l.budget = 256;
  const Replayed memory = ReplayMadeUp({}, 1);
  for (uint32_t threads : {1u, 2u, 5u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    ExpectSame(memory, ReplayMadeUp(l, threads));
  }
}

TEST(ParallelReplay, ALaunchOfOneWaveWithFewerGroupsThanThreadsGivesTheSameResults) {
  // 3 blocks: 3 SMs in 2 merge groups, fewer than the threads asked for.
  Launch l;
  l.blocks = 3;
  l.trace_all = true;
  const Replayed one = ReplayMadeUp(l, 1);
  ASSERT_EQ(one.trace.caches.waves, 1u);
  for (uint32_t threads : {2u, 5u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    ExpectSame(one, ReplayMadeUp(l, threads));
  }
}

TEST(ParallelReplay, ACancelDuringTheLastReplayEndsItOnEveryThread) {
  // Cancelled from another thread 20 ms into Finish (a replay of 400,000 turns, tens of ms or
  // more): every replay thread leaves at the same window's end and Finish returns (a thread that
  // left a window before the others would leave them waiting at the next barrier for ever).
  for (uint32_t threads : {2u, 5u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    std::atomic<bool> cancel{false};
    std::thread canceller;
    Launch l;
    l.blocks = 48;  // one wave: the whole replay is Finish's
    l.length_scale = 40;
    l.cancel = &cancel;
    l.before_finish = [&] {
      canceller = std::thread([&cancel] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        cancel = true;
      });
    };
    const Replayed cut = ReplayMadeUp(l, threads);
    canceller.join();
    EXPECT_EQ(cut.trace.caches.waves, 1u);
  }
}

// ---- kernels through the engine ----
LaunchOptions Options(uint32_t threads, const DeviceProfile* device, Selection selection) {
  LaunchOptions o;
  o.selection = selection;
  o.threads = threads;
  o.device = device;
  return o;
}

TEST(ParallelReplay, CatalogVariantsOverManyWavesGiveTheSameTraceOnOneTwoThreeAndFiveThreads) {
  // The small device runs each of these in several waves (12 SMs); the
  // last one (Finish's) goes on several threads. Traced: a block of the last wave (its SM's L1
  // log), or every block (every SM's marks and L2 lines).
  const DeviceProfile d = SmallDevice();
  const Selection block{Selection::Kind::Block, 250, 0}, all{Selection::Kind::All, 0, 0};
  struct Run {
    const char* id;
    int n;
    Selection selection;
  };
  const Run runs[] = {{"shortcut/v0", 256, block}, {"shortcut/v1", 256, all},
                      {"transpose/naive", 512, all}, {"transpose/shared_padded", 512, block}};
  for (const Run& run : runs) {
    const auto ref = ::ws::kernels::FindVariant(run.id);
    ::ws::kernels::RunRequest r;
    r.n = run.n;
    const auto one = ::ws::kernels::Simulate(ref, r, Options(1, &d, run.selection));
    ASSERT_GT(one.trace.caches.waves, 1u) << run.id;
    const std::string expected = TraceBytes(one.trace);
    for (uint32_t threads : {2u, 3u, 5u}) {
      SCOPED_TRACE(std::string(run.id) + " threads=" + std::to_string(threads));
      EXPECT_TRUE(TraceBytes(::ws::kernels::Simulate(ref, r, Options(threads, &d, run.selection)).trace) == expected);
    }
  }
}

// One wave on the H100 (1024 blocks over 132 SMs, 33 merge groups, 32 slices): each thread
// replays several slices of the device, whose warps share its queue and its tables.
TEST(ParallelReplay, ACatalogLaunchOfOneWaveGivesTheSameTraceWhenEachThreadHasSeveralSlices) {
  const auto ref = ::ws::kernels::FindVariant("shortcut/v1");
  ::ws::kernels::RunRequest r;
  r.n = 256;
  r.block = {16, 16};
  const Selection block{Selection::Kind::Block, 100, 0};
  const auto one = ::ws::kernels::Simulate(ref, r, Options(1, nullptr, block));
  ASSERT_EQ(one.trace.caches.waves, 1u);
  const std::string expected = TraceBytes(one.trace);
  for (uint32_t threads : {2u, 3u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    EXPECT_TRUE(TraceBytes(::ws::kernels::Simulate(ref, r, Options(threads, nullptr, block)).trace) == expected);
  }
}

// Stores over 32 lines each (wider than wide_store_lines), atomics, a barrier in a loop,
// divergent branches, and blocks that run for different lengths.
__global__ void StridesAtomicsAndUnevenBlocks(Global<const float> in, Global<float> out, Global<int> counts, int n) {
  __shared__ Shared<float[64]> t;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = in[i % n];
  const int rounds = 1 + int(blockIdx.x % 4) * 2;  // blocks of different lengths
  for (int r = 0; r < rounds; ++r) {
    t[threadIdx.x] = acc;
    __syncthreads();  // a barrier in a loop
    if (threadIdx.x % 3 == 0) acc += t[(threadIdx.x + 1) % 64] + in[(i * 7 + r * 97) % n];  // divergent
    else acc -= in[(i + r * 32) % n];
    __syncthreads();
  }
  out[(threadIdx.x * 64 + blockIdx.x) % (64 * gridDim.x)] = acc;  // each lane in its own line
  if (threadIdx.x % 8 == 0) atomicAdd(&counts[blockIdx.x % 8], 1);
}

TEST(ParallelReplay, AKernelWithWideStoresAtomicsBarriersInALoopAndUnevenBlocksGivesTheSameTrace) {
  const DeviceProfile d = SmallDevice();
  const uint32_t blocks = 1000;  // 64 threads a block, 32 blocks an SM: 3 waves on 12 SMs
  const int n = 4096;
  auto run = [&](uint32_t threads, Selection sel) {
    ::ws::sim::Engine engine(Options(threads, &d, sel));
    ::ws::kernels::SimBackend b(engine);
    auto in = b.Upload<const float>("in", "float", ::ws::test_inputs::FillerFloats(size_t(n)), 1, n);
    auto out = b.Alloc<float>("out", "float", 64 * blocks, 1, 64 * blocks);
    auto counts = b.Alloc<int>("counts", "int", 8, 1, 8);
    b.Launch(dim3(blocks), dim3(64), StridesAtomicsAndUnevenBlocks, in, out, counts, n);
    return engine.TakeTrace();
  };
  for (const Selection sel : {Selection{Selection::Kind::Block, 990, 0}, Selection{Selection::Kind::All, 0, 0}}) {
    const Trace one = run(1, sel);
    ASSERT_GT(one.caches.waves, 1u);
    const std::string expected = TraceBytes(one);
    for (uint32_t threads : {2u, 3u, 5u}) {
      SCOPED_TRACE("threads=" + std::to_string(threads) + (sel.kind == Selection::Kind::All ? " all" : " block 990"));
      EXPECT_TRUE(TraceBytes(run(threads, sel)) == expected);
    }
  }
}

// Only odd blocks reach the first loop's load, before the load every block reaches. A worker
// whose first block is odd meets the two sites in the other order than the launch, which meets
// them in block order: the streams it encodes hold its own site ids, and the merge maps them
// (BlockStream::sites). One load hits L1 where the other misses, so counts at the wrong site show.
__global__ void SitesFirstReachedInOddBlocks(Global<const float> in, Global<float> out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  if (blockIdx.x % 2 == 1)
    for (int k = 0; k < 4; ++k) acc += in[(i * 33 + k * 977) % n];  // scattered: misses
  for (int k = 0; k < 4; ++k) acc += in[(i + k) % n];  // neighbours: hits after the first
  out[i] = acc;
}

TEST(ParallelReplay, BlocksThatReachSitesInAnotherOrderThanTheLaunchCountEachAccessAtItsOwnSite) {
  const DeviceProfile d = SmallDevice();
  const uint32_t blocks = 600;  // 64 threads a block: 2 waves on 12 SMs
  const int n = 1 << 16;
  auto run = [&](uint32_t threads) {
    ::ws::sim::Engine engine(Options(threads, &d, Selection{Selection::Kind::Block, 590, 0}));
    ::ws::kernels::SimBackend b(engine);
    auto in = b.Upload<const float>("in", "float", ::ws::test_inputs::FillerFloats(size_t(n)), 1, n);
    auto out = b.Alloc<float>("out", "float", 64 * blocks, 1, 64 * blocks);
    b.Launch(dim3(blocks), dim3(64), SitesFirstReachedInOddBlocks, in, out, n);
    return engine.TakeTrace();
  };
  const Trace one = run(1);
  ASSERT_GT(one.caches.waves, 1u);
  // The two loads' lines: the scattered one (reached first in odd blocks) misses more in L1.
  std::vector<uint64_t> hits, sectors;
  for (const auto& [line, c] : one.per_line)
    if (c.mem_inst > 0 && c.l2_sectors[int(Op::Load)] > 0) {
      hits.push_back(c.l1_hits[int(Op::Load)]);
      sectors.push_back(c.l2_sectors[int(Op::Load)]);
    }
  ASSERT_EQ(hits.size(), 2u);
  ASSERT_NE(hits[0] * sectors[1], hits[1] * sectors[0]);  // not the same hit rate
  const std::string expected = TraceBytes(one);
  for (uint32_t threads : {2u, 3u, 5u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    const Trace many = run(threads);
    EXPECT_EQ(many.threads, threads);
    EXPECT_TRUE(TraceBytes(many) == expected);
  }
}

}  // namespace parallel_replay
