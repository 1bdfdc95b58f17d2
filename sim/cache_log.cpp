// What the trace keeps of the caches for the traced steps (see sim/cache_log.h).
#include "sim/cache_log.h"

namespace ws::sim {

void LogL1Change(Trace& trace, const SectorCache& l1) {
  const auto& ch = l1.last_change();
  auto& ev = trace.caches.l1_events;
  if (ch.line == SectorCache::kNoLine) return;  // a miss that changed nothing
  if (ev.size() >= kMaxL1Events) {
    trace.caches.l1_events_truncated = true;
    return;
  }
  ev.push_back({ch.line, ch.slot, ch.valid});
}

void StepL2Lines::Note(uint64_t sector, ServedFrom from, bool merged, const SectorCache::Change& l2_change) {
  const uint64_t line = sector / SectorCache::kSectorsPerLine;
  const uint8_t bit = uint8_t(1u << (sector % SectorCache::kSectorsPerLine));
  int at = 0;
  while (at < n_ && noted_[at].line != line) ++at;
  if (at == n_) {
    if (n_ == kWarpSize) return;
    noted_[n_++] = Trace::Caches::L2Line{};
    noted_[at].line = line;
  }
  auto& r = noted_[at];
  if (merged) r.merged |= bit;
  else if (from == ServedFrom::Dram) r.dram |= bit;
  else r.hit |= bit;
  if (!merged && l2_change.evicted != SectorCache::kNoLine && l2_change.line == line) r.evicted = l2_change.evicted;
}

void StepL2Lines::Keep(Trace& trace, const SectorCache& l2, size_t trace_index) const {
  auto& c = trace.caches;
  if (c.l2_steps.size() < trace.instructions.size()) c.l2_steps.resize(trace.instructions.size());
  const uint32_t begin = uint32_t(c.l2_lines.size());
  c.l2_steps[trace_index] = {begin, begin};
  if (n_ == 0) return;
  if (c.l2_lines.size() + size_t(n_) > kMaxL2Lines) {
    c.l2_lines_truncated = true;
    return;
  }
  const uint32_t ways = l2.Ways();
  uint64_t lines[256];
  uint8_t valid[256];
  for (int i = 0; i < n_; ++i) {
    auto r = noted_[i];
    r.set = l2.SetOfLine(r.line);
    const int way = l2.WayOf(r.line);
    r.way = way < 0 ? ~0u : uint32_t(way);
    r.valid = way < 0 ? 0 : l2.SlotValid(r.set * ways + uint32_t(way));
    r.ways_first = uint32_t(c.l2_set_ways.size());
    l2.SetByRecency(r.set, lines, valid);
    for (uint32_t w = 0; w < ways; ++w) c.l2_set_ways.push_back({lines[w], valid[w]});
    c.l2_lines.push_back(r);
  }
  c.l2_steps[trace_index].end = uint32_t(c.l2_lines.size());
}

void CompleteL1Steps(Trace& trace) {
  auto& until = trace.caches.l1_events_until;
  if (trace.caches.traced_sm < 0) {
    until.clear();
    return;
  }
  until.resize(trace.instructions.size(), ~0u);
  uint32_t prev = 0;
  for (auto& u : until) {
    if (u == ~0u) u = prev;
    prev = u;
  }
}

}  // namespace ws::sim
