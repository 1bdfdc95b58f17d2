// Keys in flight until a cycle (see memory_clock.h).
#include "sim/memory_clock.h"

#include <algorithm>

namespace ws::sim {

namespace {
constexpr uint32_t kInitialLog2 = 12;
}

InFlight::InFlight() { Clear(); }

void InFlight::Clear() {
  slots_.assign(size_t(1) << kInitialLog2, Slot{});
  shift_ = 64 - kInitialLog2;
  used_ = 0;
}

InFlight::Entry InFlight::Find(uint64_t key, uint64_t now) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(key);; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.until == 0) return {};  // never used: the probe sequence ends here
    if (s.key == key) return s.until > now ? Entry{s.until, s.owner} : Entry{};
  }
}

void InFlight::Set(uint64_t key, uint64_t until, uint64_t now, uint32_t owner) {
  const size_t mask = slots_.size() - 1;
  size_t reuse = slots_.size();  // the first expired slot on the way
  for (size_t i = Home(key);; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.until != 0 && s.key == key) {
      s.until = until;
      s.owner = owner;
      return;
    }
    if (s.until != 0 && s.until <= now && reuse == slots_.size()) reuse = i;
    if (s.until == 0) {
      if (reuse != slots_.size()) {
        slots_[reuse] = {key, until, owner};
        return;
      }
      s = {key, until, owner};
      if (++used_ * 2 > slots_.size()) Grow(now);
      return;
    }
  }
}

void InFlight::Patch(uint64_t key, uint64_t was, uint64_t until, uint32_t owner) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(key);; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.until == 0) return;
    if (s.key == key) {
      if (s.until == was) s.until = until, s.owner = owner;
      return;
    }
  }
}

// Doubles the table when over half of it was ever filled (or keeps its size when most entries
// have expired) and moves the live entries over.
void InFlight::Grow(uint64_t now) {
  std::vector<Slot> old;
  old.swap(slots_);
  size_t live = 0;
  for (const Slot& s : old) live += s.until > now;
  const size_t size = live * 4 > old.size() ? old.size() * 2 : old.size();
  slots_.assign(size, Slot{});
  shift_ = 64 - uint32_t(__builtin_ctzll(size));
  used_ = 0;
  const size_t mask = size - 1;
  for (const Slot& s : old) {
    if (s.until <= now) continue;
    size_t i = Home(s.key);
    while (slots_[i].until != 0) i = (i + 1) & mask;
    slots_[i] = s;
    ++used_;
  }
}

IssueQueue::IssueQueue()
    : head_(size_t(1) << kRingLog2, kNone), tail_(size_t(1) << kRingLog2, kNone), now_(0) {}

void IssueQueue::Restart(uint64_t start) {
  if (in_ring_) {  // left mid-way (a cancelled replay); else every bucket is empty
    std::fill(head_.begin(), head_.end(), kNone);
    std::fill(tail_.begin(), tail_.end(), kNone);
  }
  far_ = {};
  if (!from_far_.empty()) std::fill(from_far_.begin(), from_far_.end(), uint16_t(0));
  in_ring_ = 0;
  now_ = start;
  ahead_w_ = kNone;
}

void IssueQueue::Append(size_t bucket, uint32_t warp) {
  if (warp >= next_.size()) next_.resize(size_t(warp) + 1, kNone);
  next_[warp] = kNone;
  if (tail_[bucket] == kNone)
    head_[bucket] = warp;
  else
    next_[tail_[bucket]] = warp;
  tail_[bucket] = warp;
  ++in_ring_;
}

void IssueQueue::Push(uint64_t cycle, uint32_t warp) {
  if (cycle < now_) cycle = now_;
  if (cycle - now_ >= head_.size()) {
    far_.push({cycle, warp});
    return;
  }
  Append(cycle & (head_.size() - 1), warp);
}

bool IssueQueue::Pop(uint64_t* cycle, uint32_t* warp) { return PopBefore<false>(cycle, warp, 0); }
bool IssueQueue::Pop(uint64_t* cycle, uint32_t* warp, uint64_t limit) {
  if (from_far_.empty()) from_far_.assign(head_.size(), 0);
  return PopBefore<true>(cycle, warp, limit);
}

void IssueQueue::PushFromFar(uint64_t cycle, uint32_t warp) {
  if (from_far_.empty()) from_far_.assign(head_.size(), 0);
  if (cycle - now_ >= head_.size()) {
    far_.push({cycle, warp});
    return;
  }
  // After the bucket's first warps from the heap with a lower index.
  const size_t b = cycle & (head_.size() - 1);
  if (warp >= next_.size()) next_.resize(size_t(warp) + 1, kNone);
  uint32_t prev = kNone, at = head_[b];
  for (uint16_t k = 0; k < from_far_[b] && at < warp; ++k) prev = at, at = next_[at];
  next_[warp] = at;
  if (prev == kNone) head_[b] = warp;
  else next_[prev] = warp;
  if (at == kNone) tail_[b] = warp;
  ++from_far_[b];
  ++in_ring_;
}

template <bool kLimit>
bool IssueQueue::PopBefore(uint64_t* cycle, uint32_t* warp, uint64_t limit) {
  const size_t mask = head_.size() - 1;
  for (;;) {
    const size_t b = now_ & mask;
    if (const uint32_t w = head_[b]; w != kNone) {
      head_[b] = next_[w];
      if (head_[b] == kNone) tail_[b] = kNone;
      if constexpr (kLimit) from_far_[b] -= from_far_[b] != 0;
      --in_ring_;
      *cycle = now_;
      *warp = w;
      StepAhead();
      return true;
    }
    if (kLimit && now_ + 1 >= limit) return false;
    if (in_ring_ == 0) {
      if constexpr (kLimit) {
        now_ = far_.empty() ? limit - 1 : std::min(far_.top().first, limit - 1);
      } else {
        if (far_.empty()) return false;
        now_ = far_.top().first;  // nothing nearer: jump to the far heap's first
      }
    } else {
      ++now_;
    }
    // Far entries that the ring now reaches move into it (in cycle order).
    while (!far_.empty() && far_.top().first - now_ < head_.size()) {
      if constexpr (kLimit) ++from_far_[far_.top().first & mask];
      Append(far_.top().first & mask, far_.top().second);
      far_.pop();
    }
  }
}

// After a pop: the look-ahead moves one place on (the pop took one place off its distance), or,
// when it had none in view, is looked for kAhead places from the head. A warp leaves the queue only
// by a pop from the head, and the look-ahead stays kAhead places or more beyond the head, so the
// warp it names is still in bucket ahead_c_.
void IssueQueue::StepAhead() {
  const size_t mask = head_.size() - 1;
  const uint64_t until = now_ + kAheadCycles;
  if (ahead_w_ != kNone) {
    if (const uint32_t w = next_[ahead_w_]; w != kNone) {
      ahead_w_ = w;
      return;
    }
    for (uint64_t c = ahead_c_ + 1; c < until; ++c)
      if (const uint32_t w = head_[c & mask]; w != kNone) {
        ahead_c_ = c;
        ahead_w_ = w;
        return;
      }
    ahead_w_ = kNone;
    return;
  }
  size_t k = kAhead;
  for (uint64_t c = now_; c < until; ++c)
    for (uint32_t w = head_[c & mask]; w != kNone; w = next_[w])
      if (--k == 0) {
        ahead_c_ = c;
        ahead_w_ = w;
        return;
      }
}

}  // namespace ws::sim
