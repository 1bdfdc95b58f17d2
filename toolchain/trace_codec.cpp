// A Trace as bytes and back (toolchain/trace_codec.h). Every field of the trace types is named
// once, in TraceFields, which both directions run: the size checks below fail the build when a
// type gains a field, so that it is not lost on its way back from the runner.
#include "toolchain/trace_codec.h"

#include <cstdint>

#include "toolchain/wire_fields.h"

namespace ws::toolchain {

using sim::Trace;

static_assert(sizeof(sim::WarpInstruction) == 312 && sizeof(sim::Finding) == 96 && sizeof(sim::ArrayInfo) == 120 &&
                  sizeof(sim::Site) == 40 && sizeof(Trace::Caches) == 272 && sizeof(Trace) == 912 &&
                  sizeof(sim::LaunchShape) == 28,
              "a trace type changed: encode and decode its new fields in toolchain/trace_codec.cpp, then update "
              "these sizes");

namespace {

using wire::In;
using wire::Out;

// Every field of a Trace, in the order of the bytes; T is `const Trace` (Out) or `Trace` (In).
template <class Io, class T>
void TraceFields(Io& io, T& t) {
  io.Dim(t.shape.grid, "grid size");
  io.Dim(t.shape.block, "block size");
  io.U32(t.shape.dynamic_shared_bytes, "dynamic shared bytes");
  io.Size(t.sites, 3, "sites");
  for (auto& s : t.sites) {
    io.Text(s.file);
    io.U32(s.line, "line");
    io.U32(s.column, "column");
  }
  io.Size(t.arrays, 8, "arrays");
  for (size_t id = 0; id < t.arrays.size(); ++id) {
    auto& a = t.arrays[id];
    if constexpr (Io::kIn) a.id = int(id);
    io.Text(a.name);
    io.Text(a.type);
    io.Num(a.elem_bytes, 1, 1 << 20, "element size");
    io.Num(a.count, 0, uint64_t(1) << 48, "element count");
    io.Num(a.rows, 0, uint64_t(1) << 48, "rows");
    io.Num(a.cols, 0, uint64_t(1) << 48, "columns");
    if constexpr (Io::kIn)
      io.Check(!(a.rows && a.cols && a.rows > (uint64_t(1) << 48) / a.cols), "holds an array of more than 2^48 cells");
    io.Num(a.space, 0, uint64_t(sim::Space::Shared), "memory space");
    io.Num(a.base);
  }
  io.Size(t.instructions, 20, "instructions");
  for (auto& i : t.instructions) {
    io.Num(i.site, 0, t.sites.empty() ? 0 : t.sites.size() - 1, "instruction site");
    if constexpr (Io::kIn) io.Check(!t.sites.empty(), "holds an instruction but no source sites");
    io.Index(i.array, t.arrays.size(), "instruction array");
    io.Num(i.op, 0, uint64_t(sim::Op::Reduction), "operation");
    io.Num(i.space, 0, uint64_t(sim::Space::Shared), "memory space");
    io.Num(i.width, 1, 16, "access width");
    if constexpr (Io::kIn) io.Check(!(i.width & (i.width - 1)), "holds an access width that is not 1, 2, 4, 8 or 16");
    io.U32(i.mask, "lane mask");
    io.U32(i.block, "block");
    io.U32(i.warp, "warp");
    io.U32(i.epoch, "iteration");
    io.Flag(i.is_volatile);
    io.Num(i.add, 0, uint64_t(sim::AtomicAdd::Float), "atomic kind");
    // Active lanes only, each as the difference from the active lane before it: the lanes of a
    // request are usually a few bytes apart.
    uint64_t prev = 0;
    for (int lane = 0; lane < sim::kWarpSize; ++lane) {
      if (!(i.mask >> lane & 1)) continue;
      int64_t delta = int64_t(i.addr[lane] - prev);
      io.Signed(delta);
      if constexpr (Io::kIn) i.addr[lane] = prev + uint64_t(delta);
      prev = i.addr[lane];
    }
    // At most one distinct sector, line, wavefront or bank word per lane and piece.
    constexpr uint64_t kMost = 16 * sim::kWarpSize;
    for (auto* v : {&i.sectors, &i.lines, &i.ideal_sectors, &i.wavefronts, &i.ideal_wavefronts, &i.conflict_degree,
                    &i.same_address_lanes, &i.l2_requests})
      io.Num(*v, 0, kMost, "instruction cost");
    io.Num(i.served);
  }
  io.Flag(t.truncated);
  io.Counters(t.total);
  if constexpr (Io::kIn) {
    const size_t lines = io.r.Count(1 + wire::kCounterWords, "per-line counters");
    for (size_t k = 0; k < lines; ++k) {
      uint32_t line = 0;
      io.U32(line, "line");
      io.Counters(t.per_line[line]);
    }
  } else {
    io.w.U64(t.per_line.size());
    for (const auto& [line, c] : t.per_line) {
      io.U32(line, "line");
      io.Counters(c);
    }
  }
  io.Size(t.findings, 12, "findings");
  for (auto& f : t.findings) {
    io.Num(f.kind, 0, uint64_t(sim::FindingKind::Cancelled), "finding kind");
    io.Num(f.scope, 0, uint64_t(sim::FindingScope::Thread), "finding scope");
    io.Flag(f.has_address);
    io.Text(f.message);
    io.Dim(f.block, "block index");
    io.Dim(f.thread, "thread index");
    io.Index(f.site, t.sites.size(), "finding site");
    io.Index(f.array, t.arrays.size(), "finding array");
    io.Num(f.address);
    io.Signed(f.index);
    io.Num(f.occurrences);
  }
  io.Num(t.barriers);
  io.Real(t.seconds);
  io.U32(t.threads, "threads");
  io.Text(t.threads_note);
  auto& c = t.caches;
  io.Text(c.device);
  io.U32(c.registers_per_thread, "registers per thread");
  io.U32(c.blocks_per_sm, "blocks per SM");
  io.Text(c.limited_by);
  io.U32(c.l1_bytes, "L1 size");
  io.U32(c.l1_sets, "L1 sets");
  io.U32(c.l1_ways, "L1 ways");
  if constexpr (Io::kIn) io.Check(uint64_t(c.l1_sets) * c.l1_ways <= (uint64_t(1) << 24), "holds an L1 of more than 2^24 lines");
  io.Num(c.l2_bytes);
  io.Num(c.waves);
  io.U32(c.code_bytes, "the code bytes");
  io.Signed(c.traced_sm);
  if constexpr (Io::kIn) io.Check(c.traced_sm >= -1, "holds an SM index below -1");
  io.Num(c.final_steps);
  io.Size(c.l1_events, 3, "L1 events");
  for (auto& e : c.l1_events) {
    io.Num(e.line);
    io.Num(e.slot, 0, uint64_t(c.l1_sets) * c.l1_ways - (c.l1_sets && c.l1_ways ? 1 : 0), "L1 slot");
    if constexpr (Io::kIn) io.Check(c.l1_sets && c.l1_ways, "holds an L1 event but no L1");
    io.Num(e.valid, 0, 0xf, "valid sectors");
  }
  io.Size(c.l1_events_until, 1, "L1 event counts");
  // Not in order: instructions are listed warp by warp, the L1 changes as the SM serves them.
  for (auto& u : c.l1_events_until) io.Num(u, 0, c.l1_events.size(), "L1 event count");
  if constexpr (Io::kIn)
    io.Check(c.l1_events_until.empty() || c.l1_events_until.size() == t.instructions.size(),
             "holds L1 event counts for " + std::to_string(c.l1_events_until.size()) + " of " +
                 std::to_string(t.instructions.size()) + " instructions");
  io.Flag(c.l1_events_truncated);
  io.U32(c.l2_sets, "L2 sets");
  io.Num(c.l2_ways, 0, 255, "L2 ways");
  io.Size(c.l2_set_ways, 2, "L2 set slots");
  for (auto& w : c.l2_set_ways) {
    io.Num(w.line);
    io.Num(w.valid, 0, 0xf, "valid sectors");
  }
  io.Size(c.l2_lines, 12, "L2 lines");
  for (auto& l : c.l2_lines) {
    io.Num(l.line);
    io.Num(l.evicted);
    io.Num(l.set, 0, c.l2_sets ? c.l2_sets - 1 : 0, "L2 set");
    io.Num(l.way);
    if constexpr (Io::kIn) io.Check(l.way == ~0u || l.way < c.l2_ways, "holds an L2 way past the set's ways");
    io.Num(l.valid, 0, 0xf, "valid sectors");
    io.Num(l.hit, 0, 0xf, "L2 hit sectors");
    io.Num(l.dram, 0, 0xf, "DRAM sectors");
    io.Num(l.merged, 0, 0xf, "merged sectors");
    io.Num(l.ways_first, 0, c.l2_set_ways.size(), "L2 set slot");
    if constexpr (Io::kIn)
      io.Check(uint64_t(l.ways_first) + c.l2_ways <= c.l2_set_ways.size(), "holds an L2 set past its slots");
  }
  io.Size(c.l2_steps, 2, "L2 step ranges");
  for (auto& r : c.l2_steps) {
    io.Num(r.begin, 0, c.l2_lines.size(), "L2 line index");
    io.Num(r.end, r.begin, c.l2_lines.size(), "L2 line index");
  }
  if constexpr (Io::kIn)
    io.Check(c.l2_steps.empty() || c.l2_steps.size() == t.instructions.size(),
             "holds L2 lines for " + std::to_string(c.l2_steps.size()) + " of " + std::to_string(t.instructions.size()) +
                 " instructions");
  io.Flag(c.l2_lines_truncated);
}

}  // namespace

void EncodeTrace(const Trace& t, wire::Writer& w) {
  Out out{w};
  TraceFields(out, t);
}

Trace DecodeTrace(wire::Reader& r) {
  Trace t;
  In in{r};
  TraceFields(in, t);
  return t;
}

}  // namespace ws::toolchain
