// A Trace as bytes and back (toolchain/trace_codec.h). Every field of the trace types is written
// here: the size checks below fail the build when a type gains a field, so that it is not lost
// on its way back from the runner.
#include "toolchain/trace_codec.h"

#include <type_traits>

namespace ws::toolchain {

using sim::Trace;

static_assert(sizeof(sim::WarpInstruction) == 312 && sizeof(sim::Finding) == 96 && sizeof(sim::ArrayInfo) == 120 &&
                  sizeof(sim::Site) == 40 && sizeof(Trace::Caches) == 176 && sizeof(Trace) == 776 &&
                  sizeof(sim::LaunchShape) == 28,
              "a trace type changed: encode and decode its new fields in toolchain/trace_codec.cpp, then update "
              "these sizes");
// Counters are all 64-bit counts: written word by word, so a new counter travels without a change here.
static_assert(std::is_trivially_copyable_v<sim::Counters> && sizeof(sim::Counters) % sizeof(uint64_t) == 0);
constexpr size_t kCounterWords = sizeof(sim::Counters) / sizeof(uint64_t);

namespace {

void PutDim(wire::Writer& w, const sim::Dim3& d) {
  w.U64(d.x);
  w.U64(d.y);
  w.U64(d.z);
}
sim::Dim3 GetDim(wire::Reader& r, const char* what) {
  sim::Dim3 d;
  d.x = r.U32(what);
  d.y = r.U32(what);
  d.z = r.U32(what);
  return d;
}

void PutCounters(wire::Writer& w, const sim::Counters& c) {
  uint64_t words[kCounterWords];
  std::memcpy(words, &c, sizeof words);
  for (uint64_t v : words) w.U64(v);
}
sim::Counters GetCounters(wire::Reader& r) {
  uint64_t words[kCounterWords];
  for (uint64_t& v : words) v = r.U64();
  sim::Counters c;
  std::memcpy(&c, words, sizeof words);
  return c;
}

// An index into a vector of `size` or -1 (written as index + 1).
void PutIndex(wire::Writer& w, int64_t i) { w.U64(uint64_t(i + 1)); }
int64_t GetIndex(wire::Reader& r, size_t size, const char* what) { return int64_t(r.U64(0, size, what)) - 1; }

}  // namespace

void EncodeTrace(const Trace& t, wire::Writer& w) {
  PutDim(w, t.shape.grid);
  PutDim(w, t.shape.block);
  w.U64(t.shape.dynamic_shared_bytes);
  w.U64(t.sites.size());
  for (const auto& s : t.sites) {
    w.Str(s.file);
    w.U64(s.line);
    w.U64(s.column);
  }
  w.U64(t.arrays.size());
  for (const auto& a : t.arrays) {
    w.Str(a.name);
    w.Str(a.type);
    w.U64(a.elem_bytes);
    w.U64(a.count);
    w.U64(a.rows);
    w.U64(a.cols);
    w.U64(uint64_t(a.space));
    w.U64(a.base);
  }
  w.U64(t.instructions.size());
  for (const auto& i : t.instructions) {
    w.U64(i.site);
    PutIndex(w, i.array);
    w.U64(uint64_t(i.op));
    w.U64(uint64_t(i.space));
    w.U64(i.width);
    w.U64(i.mask);
    w.U64(i.block);
    w.U64(i.warp);
    w.U64(i.epoch);
    w.Bool(i.is_volatile);
    w.U64(uint64_t(i.add));
    // Active lanes only, each as the difference from the active lane before it: the lanes of a
    // request are usually a few bytes apart.
    uint64_t prev = 0;
    for (int lane = 0; lane < sim::kWarpSize; ++lane) {
      if (!(i.mask >> lane & 1)) continue;
      w.I64(int64_t(i.addr[lane] - prev));
      prev = i.addr[lane];
    }
    for (uint16_t v : {i.sectors, i.lines, i.ideal_sectors, i.wavefronts, i.ideal_wavefronts, i.conflict_degree,
                       i.same_address_lanes, i.l2_requests})
      w.U64(v);
    w.U64(i.served);
  }
  w.Bool(t.truncated);
  PutCounters(w, t.total);
  w.U64(t.per_line.size());
  for (const auto& [line, c] : t.per_line) {
    w.U64(line);
    PutCounters(w, c);
  }
  w.U64(t.findings.size());
  for (const auto& f : t.findings) {
    w.U64(uint64_t(f.kind));
    w.U64(uint64_t(f.scope));
    w.Bool(f.has_address);
    w.Str(f.message);
    PutDim(w, f.block);
    PutDim(w, f.thread);
    PutIndex(w, f.site);
    PutIndex(w, f.array);
    w.U64(f.address);
    w.I64(f.index);
    w.U64(f.occurrences);
  }
  w.U64(t.barriers);
  w.F64(t.seconds);
  const auto& c = t.caches;
  w.Str(c.device);
  w.U64(c.registers_per_thread);
  w.U64(c.blocks_per_sm);
  w.Str(c.limited_by);
  w.U64(c.l1_bytes);
  w.U64(c.l1_sets);
  w.U64(c.l1_ways);
  w.U64(c.l2_bytes);
  w.U64(c.waves);
  w.U64(c.code_bytes);
  w.I64(c.traced_sm);
  w.U64(c.l1_events.size());
  for (const auto& e : c.l1_events) {
    w.U64(e.line);
    w.U64(e.slot);
    w.U64(e.valid);
  }
  w.U64(c.l1_events_until.size());
  for (uint32_t u : c.l1_events_until) w.U64(u);
  w.Bool(c.l1_events_truncated);
}

Trace DecodeTrace(wire::Reader& r) {
  Trace t;
  t.shape.grid = GetDim(r, "grid size");
  t.shape.block = GetDim(r, "block size");
  t.shape.dynamic_shared_bytes = r.U32("dynamic shared bytes");
  t.sites.resize(r.Count(3, "sites"));
  for (auto& s : t.sites) {
    s.file = r.Str();
    s.line = r.U32("line");
    s.column = r.U32("column");
  }
  t.arrays.resize(r.Count(8, "arrays"));
  for (size_t id = 0; id < t.arrays.size(); ++id) {
    auto& a = t.arrays[id];
    a.id = int(id);
    a.name = r.Str();
    a.type = r.Str();
    a.elem_bytes = uint32_t(r.U64(1, 1 << 20, "element size"));
    a.count = r.U64(0, uint64_t(1) << 48, "element count");
    a.rows = r.U64(0, uint64_t(1) << 48, "rows");
    a.cols = r.U64(0, uint64_t(1) << 48, "columns");
    if (a.rows && a.cols && a.rows > (uint64_t(1) << 48) / a.cols) r.Fail("holds an array of more than 2^48 cells");
    a.space = sim::Space(r.U64(0, uint64_t(sim::Space::Shared), "memory space"));
    a.base = r.U64();
  }
  t.instructions.resize(r.Count(20, "instructions"), sim::WarpInstruction());
  for (auto& i : t.instructions) {
    i.site = uint32_t(r.U64(0, t.sites.empty() ? 0 : t.sites.size() - 1, "instruction site"));
    if (t.sites.empty()) r.Fail("holds an instruction but no source sites");
    i.array = int(GetIndex(r, t.arrays.size(), "instruction array"));
    i.op = sim::Op(r.U64(0, uint64_t(sim::Op::Reduction), "operation"));
    i.space = sim::Space(r.U64(0, uint64_t(sim::Space::Shared), "memory space"));
    i.width = uint8_t(r.U64(1, 16, "access width"));
    if (i.width & (i.width - 1)) r.Fail("holds an access width that is not 1, 2, 4, 8 or 16");
    i.mask = r.U32("lane mask");
    i.block = r.U32("block");
    i.warp = r.U32("warp");
    i.epoch = r.U32("iteration");
    i.is_volatile = r.Bool();
    i.add = sim::AtomicAdd(r.U64(0, uint64_t(sim::AtomicAdd::Float), "atomic kind"));
    uint64_t prev = 0;
    for (int lane = 0; lane < sim::kWarpSize; ++lane) {
      if (!(i.mask >> lane & 1)) continue;
      prev += uint64_t(r.I64());
      i.addr[lane] = prev;
    }
    // At most one distinct sector, line, wavefront or bank word per lane and piece.
    constexpr uint64_t kMost = 16 * sim::kWarpSize;
    for (uint16_t* v : {&i.sectors, &i.lines, &i.ideal_sectors, &i.wavefronts, &i.ideal_wavefronts,
                        &i.conflict_degree, &i.same_address_lanes, &i.l2_requests})
      *v = uint16_t(r.U64(0, kMost, "instruction cost"));
    i.served = r.U64();
  }
  t.truncated = r.Bool();
  t.total = GetCounters(r);
  const size_t lines = r.Count(1 + kCounterWords, "per-line counters");
  for (size_t k = 0; k < lines; ++k) {
    const uint32_t line = r.U32("line");
    t.per_line[line] = GetCounters(r);
  }
  t.findings.resize(r.Count(12, "findings"));
  for (auto& f : t.findings) {
    f.kind = sim::FindingKind(r.U64(0, uint64_t(sim::FindingKind::Cancelled), "finding kind"));
    f.scope = sim::FindingScope(r.U64(0, uint64_t(sim::FindingScope::Thread), "finding scope"));
    f.has_address = r.Bool();
    f.message = r.Str();
    f.block = GetDim(r, "block index");
    f.thread = GetDim(r, "thread index");
    f.site = int(GetIndex(r, t.sites.size(), "finding site"));
    f.array = int(GetIndex(r, t.arrays.size(), "finding array"));
    f.address = r.U64();
    f.index = r.I64();
    f.occurrences = r.U64();
  }
  t.barriers = r.U64();
  t.seconds = r.F64();
  auto& c = t.caches;
  c.device = r.Str();
  c.registers_per_thread = r.U32("registers per thread");
  c.blocks_per_sm = r.U32("blocks per SM");
  c.limited_by = r.Str();
  c.l1_bytes = r.U32("L1 size");
  c.l1_sets = r.U32("L1 sets");
  c.l1_ways = r.U32("L1 ways");
  if (uint64_t(c.l1_sets) * c.l1_ways > (uint64_t(1) << 24)) r.Fail("holds an L1 of more than 2^24 lines");
  c.l2_bytes = r.U64();
  c.waves = r.U64();
  c.code_bytes = r.U32("the code bytes");
  c.traced_sm = r.I64();
  if (c.traced_sm < -1) r.Fail("holds an SM index below -1");
  c.l1_events.resize(r.Count(3, "L1 events"));
  for (auto& e : c.l1_events) {
    e.line = r.U64();
    e.slot = uint32_t(r.U64(0, uint64_t(c.l1_sets) * c.l1_ways - (c.l1_sets && c.l1_ways ? 1 : 0), "L1 slot"));
    if (!c.l1_sets || !c.l1_ways) r.Fail("holds an L1 event but no L1");
    e.valid = uint8_t(r.U64(0, 0xf, "valid sectors"));
  }
  c.l1_events_until.resize(r.Count(1, "L1 event counts"));
  // Not in order: instructions are listed warp by warp, the L1 changes as the SM serves them.
  for (auto& u : c.l1_events_until) u = uint32_t(r.U64(0, c.l1_events.size(), "L1 event count"));
  if (!c.l1_events_until.empty() && c.l1_events_until.size() != t.instructions.size())
    r.Fail("holds L1 event counts for " + std::to_string(c.l1_events_until.size()) + " of " +
           std::to_string(t.instructions.size()) + " instructions");
  c.l1_events_truncated = r.Bool();
  return t;
}

}  // namespace ws::toolchain
