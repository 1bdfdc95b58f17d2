// The memory hierarchy of a launch (see hierarchy.h): recording per warp, replay per wave.
// Section index: recording · replay · finish (the streams: sim/sector_stream.h; the sectors an
// instruction touches: DistinctSectors, sim/rules.h; what the trace keeps of the caches for the
// traced steps: sim/cache_log.h).
#include "sim/hierarchy_impl.h"

namespace ws::sim {

// Residency is decided once block 0 has run: its shared arrays are then known.
void MemoryHierarchy::Impl::Fix(uint64_t shared_bytes) {
  if (fixed) return;
  fixed = true;
  residency = ComputeResidency(device, shape, registers, shared_bytes);
  if (residency.blocks_per_sm == 0) {
    // Over a per-SM limit: the GPU refuses the launch; the simulator still runs it, one
    // block per SM, and says why in Trace::caches.limited_by.
    residency.blocks_per_sm = 1;
    residency.limited_by += " (over the limit: the GPU would refuse this launch)";
    residency.l1_bytes = device.l1_shared_bytes -
                         std::min<uint64_t>(device.max_shared_per_sm, shared_bytes);
    residency.blocks_per_wave = device.sms;
  }
  l1.resize(device.sms);
  auto& c = trace->caches;
  c.device = device.name;
  c.registers_per_thread = registers;
  c.blocks_per_sm = residency.blocks_per_sm;
  c.limited_by = residency.limited_by;
  c.l1_bytes = residency.l1_bytes;
  c.l2_bytes = device.l2_bytes;
  SectorCache probe({residency.l1_bytes, device.l1_ways});
  c.l1_sets = probe.Sets();
  c.l1_ways = probe.Ways();
  c.l2_sets = l2->Sets();
  c.l2_ways = l2->Ways();
  c.traced_sm = traced_block >= 0 ? int64_t(traced_sm) : -1;
  if (traced_block >= 0) {
    log_l1 = true;
    logged_until_wave = WaveOfBlock(residency, uint64_t(traced_block));
  }
}

// ---- recording ----
void MemoryHierarchy::Impl::BeginBlock(uint64_t block, uint32_t warps, uint64_t shared_bytes) {
  if (block >= 1) Fix(shared_bytes);
  if (fixed && block >= wave_start + residency.blocks_per_wave) {
    const bool traced_wave = log_l1 && WaveOfBlock(residency, wave_start) == logged_until_wave;
    Replay();
    wave_start = block - block % residency.blocks_per_wave;
    if (traced_wave && traced_final && !Cancelled()) std::exchange(traced_final, {})();
  }
  streams.Begin(block, SmOfBlock(device, block), warps);
}

void MemoryHierarchy::Impl::Record(const WarpInstruction& ins, int64_t trace_index, const uint64_t* given, int given_n) {
  auto& blocks = streams.blocks();
  if (blocks.empty() || ins.warp >= blocks.back().warps.size()) return;
  uint64_t found[kWarpSize];
  const bool have = given && given_n >= 0;
  const int n = have ? given_n : DistinctSectors(ins, found);
  const uint64_t* s = have ? given : found;
  if (n == 0) return;
  if (trace_index >= 0) Note(traced_recorded, trace_index);
  streams.Append(ins.warp, ins.site, uint32_t(ins.op), trace_index, s, n);
}

void MemoryHierarchy::Impl::CutWarp(uint32_t warp) {
  auto& blocks = streams.blocks();
  if (blocks.empty() || warp >= blocks.back().warps.size()) return;
  streams.Cut(warp);
  any_cut = true;
}

// ---- replay ----
void MemoryHierarchy::Impl::Replay(bool last) {
  auto& blocks = streams.blocks();
  if (blocks.empty()) return;
  ++waves;
  const uint64_t wave = WaveOfBlock(residency, blocks.front().block);
  const bool log_now = log_l1 && wave <= logged_until_wave;
  std::vector<Cursor> cursors;
  size_t warps = 0;
  for (const auto& b : blocks) warps += b.warps.size();
  cursors.reserve(warps);  // never moved: a cursor may point into its own window
  // Per block: its cursors [first[b], first[b+1]) and how many of them wait at a barrier.
  std::vector<uint32_t> first(blocks.size() + 1, 0), arrived(blocks.size(), 0);
  std::vector<uint64_t> block_end(blocks.size(), 0);  // when each block's last warp finished
  for (uint32_t bi = 0; bi < blocks.size(); ++bi) {
    first[bi] = uint32_t(cursors.size());
    for (size_t wi = 0; wi < blocks[bi].warps.size(); ++wi) {
      const WarpStream& w = blocks[bi].warps[wi];
      const bool cut = wi < blocks[bi].cut.size() && blocks[bi].cut[wi];
      if (w.Empty() && !cut) continue;
      cursors.emplace_back();
      Cursor& c = cursors.back();
      c.block = &blocks[bi];
      c.sites = blocks[bi].sites.empty() ? nullptr : blocks[bi].sites.data();
      c.block_slot = bi;
      c.warp = &w;
      c.cut = cut;
      c.in_memory = w.spilled.empty();
      if (c.in_memory) c.p = w.bytes.data(), c.end = c.p + w.bytes.size();
      // Its first records are read (Refill) by the thread that replays it, below.
    }
  }
  first[blocks.size()] = uint32_t(cursors.size());
  // Warps issue earliest clock first; a cycle's warps slice by slice of the device (SliceOfGroup),
  // a slice's in the order they became ready (at the start, block and warp order). In the first
  // wave block k starts k x block_dispatch cycles after the launch; in a later one, when the
  // block its place held in the wave before ended (on the same SM: the hardware starts a block
  // as soon as one finishes, so the blocks of a later wave start as staggered as the earlier
  // ones ended). A warp at __syncthreads waits until every warp of its block has reached it, and
  // all go on when the last one has.
  const auto& tm = device.timing;
  if (slot_end.size() < blocks.size()) {
    const size_t had = slot_end.size();
    slot_end.resize(blocks.size());
    for (size_t bi = had; bi < blocks.size(); ++bi) slot_end[bi] = clock + bi * tm.block_dispatch;
  }
  uint64_t start = ~0ull;
  for (uint32_t bi = 0; bi < blocks.size(); ++bi) start = std::min(start, slot_end[bi]);
  for (Cursor& c : cursors) c.t = slot_end[c.block_slot];
  uint64_t end = clock;
  if (last && replay_threads > 1 && !any_cut && !Cancelled() && ReplayInWindows(cursors, first, arrived, block_end, start, end, log_now)) {
    // done on several threads (sim/replay_window.cpp)
  } else {
    ready.Restart(start);
    for (uint32_t i = 0; i < cursors.size(); ++i) {
      Refill(cursors[i]);
      NextHints(cursors[i], tables);
      ready.SetKey(i, SliceOfSm(cursors[i].block->sm));
      ready.Push(cursors[i].t, i);
    }
    uint64_t now = start;
    size_t issued = 0;
    Prefetcher ahead;
    for (uint32_t i; ready.Pop(&now, &i); ++issued) {
      ahead.Turn(cursors.data(), ready.Ahead(), issued);
      Cursor& c = cursors[i];
      // A cut warp's turn past its last record: what it issues next was not recorded, and every
      // later turn may depend on it (hierarchy.h, "What decides the traced block's marks").
      if (c.p == c.end && c.cut) break;
      if (c.p == c.end) continue;
      c.t = now;
      const bool at_barrier = IssueRecord<false>(c, log_now, tables, nullptr);
      Refill(c);
      NextHints(c, tables);
      end = std::max(end, c.t);
      if (c.p == c.end) block_end[c.block_slot] = std::max(block_end[c.block_slot], c.t);
      if (at_barrier) {
        c.waiting = true;
        const uint32_t b = c.block_slot;
        if (++arrived[b] == first[b + 1] - first[b]) {
          arrived[b] = 0;
          for (uint32_t k = first[b]; k < first[b + 1]; ++k) {
            cursors[k].waiting = false;
            if (cursors[k].p != cursors[k].end || cursors[k].cut) ready.Push(now, k);
          }
        }
      } else if (c.p != c.end || c.cut) {
        ready.Push(c.t, i);
      }
      if ((issued & 1023) == 1023 && Cancelled()) break;  // a cancelled launch's counters cover only what ran
    }
  }
  clock = end;
  for (uint32_t bi = 0; bi < blocks.size(); ++bi) slot_end[bi] = std::max(slot_end[bi], block_end[bi]);
  streams.Clear();
}

// ---- finish ----
void MemoryHierarchy::Impl::Finish(uint64_t shared_bytes) {
  Fix(shared_bytes);
  if (Cancelled()) streams.Clear();  // nothing more is replayed: the user asked to stop
  Replay(true);
  trace->caches.waves = waves;
  if (any_cut) {
    // The traced steps before the first recorded one that the replay did not issue are final.
    size_t k = 0;
    while (k < trace->instructions.size() &&
           !(k < traced_recorded.size() && traced_recorded[k] && !(k < traced_issued.size() && traced_issued[k])))
      ++k;
    trace->caches.final_steps = k;
  }
  // The launch's own reads (its code, parameters and constants) belong to no source line.
  trace->total.dram_read_bytes += device.launch_read_bytes + code_bytes;
  trace->caches.code_bytes = code_bytes;
  CompleteL1Steps(*trace);
  if (!trace->caches.l2_lines.empty() || !trace->caches.l2_steps.empty()) trace->caches.l2_steps.resize(trace->instructions.size());
}

MemoryHierarchy::MemoryHierarchy(const DeviceProfile& device, uint32_t registers_per_thread,
                                 const LaunchShape& shape, std::vector<Counters>* per_site,
                                 Trace* trace, int64_t traced_block, uint64_t buffer_bytes)
    : impl_(std::make_unique<Impl>(device, registers_per_thread, shape, per_site, trace,
                                   traced_block, buffer_bytes)) {}
MemoryHierarchy::~MemoryHierarchy() = default;
void MemoryHierarchy::BeginBlock(uint64_t block, uint32_t warps, uint64_t shared_bytes) {
  impl_->BeginBlock(block, warps, shared_bytes);
}
void MemoryHierarchy::Record(const WarpInstruction& ins, int64_t trace_index, const uint64_t* sectors, int n) {
  impl_->Record(ins, trace_index, sectors, n);
}
void MemoryHierarchy::Barrier() { impl_->Barrier(); }
void MemoryHierarchy::AdoptBlock(std::vector<WarpStream>&& warps, std::vector<uint32_t> sites) {
  impl_->AdoptBlock(std::move(warps), std::move(sites));
}
void MemoryHierarchy::ReplayOn(uint32_t threads) { impl_->replay_threads = std::max<uint32_t>(threads, 1); }
void MemoryHierarchy::CutWarp(uint32_t warp) { impl_->CutWarp(warp); }
uint64_t MemoryHierarchy::BlocksPerWave() const { return impl_->fixed ? impl_->residency.blocks_per_wave : 0; }
void MemoryHierarchy::Finish(uint64_t shared_bytes) { impl_->Finish(shared_bytes); }
void MemoryHierarchy::StopWhen(const std::atomic<bool>* cancel) { impl_->cancel = cancel; }
void MemoryHierarchy::WhenTracedFinal(std::function<void()> then) { impl_->traced_final = std::move(then); }
bool MemoryHierarchy::TracedFinalToCome() const {
  const Impl& m = *impl_;
  if (!m.fixed || !m.traced_final || m.traced_block < 0) return false;
  const uint64_t waves = (m.shape.grid.Count() + m.residency.blocks_per_wave - 1) / m.residency.blocks_per_wave;
  return WaveOfBlock(m.residency, uint64_t(m.traced_block)) + 1 < waves;
}

void MemoryHierarchy::ReadsCode(uint32_t bytes) { impl_->code_bytes = bytes ? bytes : kEmptyKernelCodeBytes; }

}  // namespace ws::sim
