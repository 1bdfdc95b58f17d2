// The L1 at a step, from the recorded log (see l1_state.h).
#include "visual/l1_state.h"

#include <algorithm>

namespace ws::visual {

bool L1State::Reset(const sim::Trace::Caches* caches) {
  const size_t slots = caches ? size_t(caches->l1_sets) * caches->l1_ways : 0;
  const void* log = caches ? caches->l1_events.data() : nullptr;
  const size_t size = caches ? caches->l1_events.size() : 0;
  if (caches == caches_ && log == log_ && size == log_size_ && lines_.size() == slots) return false;
  caches_ = caches;
  log_ = log;
  log_size_ = size;
  lines_.assign(slots, kEmpty);
  valid_.assign(slots, 0);
  last_.assign(slots, 0);
  pos_ = 0;
  checkpoints_.clear();
  checkpoints_.push_back({lines_, valid_, last_});
  return true;
}

uint32_t L1State::EventsAt(size_t trace_index) const {
  if (!caches_ || trace_index >= caches_->l1_events_until.size()) return 0;
  return caches_->l1_events_until[trace_index];
}

void L1State::Seek(uint32_t events) {
  if (!caches_) return;
  events = uint32_t(std::min<size_t>(events, caches_->l1_events.size()));
  if (events < pos_) {
    const size_t k = std::min<size_t>(events / every_, checkpoints_.size() - 1);
    lines_ = checkpoints_[k].lines;
    valid_ = checkpoints_[k].valid;
    last_ = checkpoints_[k].last;
    pos_ = uint32_t(k * every_);
  }
  Apply(events);
}

void L1State::Apply(uint32_t to) {
  const auto& ev = caches_->l1_events;
  while (pos_ < to) {
    const auto& e = ev[pos_++];
    if (e.slot < lines_.size()) {
      lines_[e.slot] = e.line;
      valid_[e.slot] = e.line == kEmpty ? 0 : e.valid;
      last_[e.slot] = e.line == kEmpty ? 0 : pos_;
    }
    if (pos_ % every_ == 0 && checkpoints_.size() == pos_ / every_) checkpoints_.push_back({lines_, valid_, last_});
  }
}

std::vector<uint32_t> L1State::WaysByRecency(uint32_t set, uint32_t ways) const {
  std::vector<uint32_t> order(ways);
  for (uint32_t w = 0; w < ways; ++w) order[w] = w;
  const size_t base = size_t(set) * ways;
  if (base + ways > last_.size()) return order;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return last_[base + a] > last_[base + b]; });
  return order;
}

uint32_t L1State::Held() const {
  return uint32_t(std::count_if(lines_.begin(), lines_.end(), [](uint64_t l) { return l != kEmpty; }));
}

}  // namespace ws::visual
