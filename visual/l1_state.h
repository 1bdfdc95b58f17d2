// The L1 of the SM that runs the shown block, at any step, rebuilt from the simulator's log
// (Trace::caches: each event sets one slot to a line and its valid sectors). Stepping stays
// instant: moving forward applies the events since the current position; moving back restores the
// last checkpoint (a copy of the slots, kept every `every` events as they are first passed) and
// applies the few events after it. Nothing is simulated again.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/trace.h"

namespace ws::visual {

class L1State {
 public:
  static constexpr uint64_t kEmpty = ~0ull;
  explicit L1State(uint32_t every = 4096) : every_(every ? every : 1) {}

  // Starts over for this log (sets x ways slots, all empty) and returns true, or keeps the state
  // if it is the same log (false).
  bool Reset(const sim::Trace::Caches* caches);
  // The state once the first `events` events had happened (clamped to the log's length).
  void Seek(uint32_t events);
  // The events of a trace instruction's step: the log's length once it was served.
  uint32_t EventsAt(size_t trace_index) const;

  uint32_t Slots() const { return uint32_t(lines_.size()); }
  uint64_t Line(uint32_t slot) const { return lines_[slot]; }    // line address (byte / 128) or kEmpty
  uint8_t Valid(uint32_t slot) const { return valid_[slot]; }    // valid sectors, bit i = sector i
  // When the slot's line was last used: 1 + the index of the last event on the slot (0: never).
  // The log has an event for every lookup that finds or fills a line (sim/hierarchy.cpp LogL1),
  // so ordering a set's ways by it, largest first, orders them as the cache's LRU does.
  uint32_t LastUse(uint32_t slot) const { return last_[slot]; }
  // The set's ways, most recently used first, the empty ones last (`ways` entries: way numbers).
  std::vector<uint32_t> WaysByRecency(uint32_t set, uint32_t ways) const;
  uint32_t Held() const;                                         // slots holding a line
  uint32_t position() const { return pos_; }

 private:
  void Apply(uint32_t to);  // forward from pos_, saving checkpoints on the way
  const sim::Trace::Caches* caches_ = nullptr;
  const void* log_ = nullptr;  // the log's events when Reset (a new run may reuse the address)
  size_t log_size_ = 0;
  uint32_t every_;
  std::vector<uint64_t> lines_;
  std::vector<uint8_t> valid_;
  std::vector<uint32_t> last_;
  uint32_t pos_ = 0;
  struct Checkpoint {
    std::vector<uint64_t> lines;
    std::vector<uint8_t> valid;
    std::vector<uint32_t> last;
  };
  std::vector<Checkpoint> checkpoints_;  // [k]: the state after k * every_ events
};

}  // namespace ws::visual
