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
    : head_(size_t(kRingCycles), kNone), mask_(size_t(kRingCycles), 0), last_(new uint32_t[size_t(kRingCycles) * kKeys]),
      now_(0) {}

void IssueQueue::Restart(uint64_t start) {
  if (in_ring_) {  // left mid-way (a cancelled replay); else every bucket is empty
    std::fill(head_.begin(), head_.end(), kNone);
    std::fill(mask_.begin(), mask_.end(), 0u);
  }
  far_ = {};
  if (!from_far_.empty()) {
    std::fill(from_far_.begin(), from_far_.end(), uint16_t(0));
    std::fill(far_keys_.begin(), far_keys_.end(), 0u);
  }
  in_ring_ = 0;
  now_ = start;
  ahead_w_ = kNone;
}

void IssueQueue::SetKey(uint32_t warp, uint32_t key) {
  if (warp >= key_.size()) key_.resize(size_t(warp) + 1, 0);
  key_[warp] = uint8_t(std::min(key, kKeys - 1));
}

void IssueQueue::Link(size_t b, uint32_t warp, uint32_t after) {
  if (after == kNone) {
    next_[warp] = head_[b];
    head_[b] = warp;
  } else {
    next_[warp] = next_[after];
    next_[after] = warp;
  }
  const uint32_t k = Key(warp);
  if (!(mask_[b] >> k & 1) || last_[b * kKeys + k] == after) last_[b * kKeys + k] = warp;
  mask_[b] |= 1u << k;
  ++in_ring_;
}

// After the last warp of the highest key up to its own.
void IssueQueue::Append(uint64_t cycle, uint32_t warp) {
  if (warp >= next_.size()) next_.resize(size_t(warp) + 1, kNone);
  const size_t b = cycle & kMask;
  const uint32_t upto = mask_[b] & ((2u << Key(warp)) - 1);
  Link(b, warp, upto ? last_[b * kKeys + (31 - uint32_t(__builtin_clz(upto)))] : kNone);
}

void IssueQueue::Push(uint64_t cycle, uint32_t warp) {
  if (cycle < now_) cycle = now_;
  if (cycle - now_ >= kRingCycles) {
    far_.push({cycle, warp});
    return;
  }
  Append(cycle, warp);
}

bool IssueQueue::Pop(uint64_t* cycle, uint32_t* warp) { return PopBefore<false>(cycle, warp, 0); }
bool IssueQueue::Pop(uint64_t* cycle, uint32_t* warp, uint64_t limit) {
  KeepFromFar();
  return PopBefore<true>(cycle, warp, limit);
}

void IssueQueue::KeepFromFar() {
  if (!from_far_.empty()) return;
  from_far_.assign(size_t(kRingCycles) * kKeys, 0);
  far_keys_.assign(size_t(kRingCycles), 0);
}

void IssueQueue::CameFromFar(size_t bucket, uint32_t key) {
  ++from_far_[bucket * kKeys + key];
  far_keys_[bucket] |= 1u << key;
}

void IssueQueue::PushFromFar(uint64_t cycle, uint32_t warp) {
  KeepFromFar();
  if (cycle < now_) cycle = now_;
  if (cycle - now_ >= kRingCycles) {
    far_.push({cycle, warp});
    return;
  }
  // After its key's first warps from the heap with a lower index (its key's first: after the last
  // warp of a lower key).
  if (warp >= next_.size()) next_.resize(size_t(warp) + 1, kNone);
  const size_t b = cycle & kMask;
  const uint32_t k = Key(warp);
  const uint32_t below = mask_[b] & ((1u << k) - 1);
  uint32_t prev = below ? last_[b * kKeys + (31 - uint32_t(__builtin_clz(below)))] : kNone;
  const uint16_t far = from_far_[b * kKeys + k];
  for (uint16_t i = 0; i < far; ++i) {
    const uint32_t at = prev == kNone ? head_[b] : next_[prev];
    if (at >= warp) break;  // kNone too
    prev = at;
  }
  Link(b, warp, prev);
  CameFromFar(b, k);
}

template <bool kLimit>
bool IssueQueue::PopBefore(uint64_t* cycle, uint32_t* warp, uint64_t limit) {
  for (;;) {
    const size_t b = now_ & kMask;
    if (const uint32_t w = head_[b]; w != kNone) {
      const uint32_t n = next_[w], k = Key(w);
      head_[b] = n;
      if (n == kNone || Key(n) != k) mask_[b] &= ~(1u << k);  // its key's last
      if constexpr (kLimit)
        if (far_keys_[b] >> k & 1)  // one of its key's first warps from the heap
          if (--from_far_[b * kKeys + k] == 0) far_keys_[b] &= ~(1u << k);
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
    while (!far_.empty() && far_.top().first - now_ < kRingCycles) {
      if constexpr (kLimit) CameFromFar(far_.top().first & kMask, Key(far_.top().second));
      Append(far_.top().first, far_.top().second);
      far_.pop();
    }
  }
}

// After a pop: the look-ahead moves one place on (the pop took one place off its distance), or,
// when it had none in view, is looked for kAhead places from the head. A warp leaves the queue only
// by a pop from the head, and the look-ahead stays kAhead places or more beyond the head, so the
// warp it names is still in bucket ahead_c_.
void IssueQueue::StepAhead() {
  const uint64_t until = now_ + kAheadCycles;
  if (ahead_w_ != kNone) {
    if (const uint32_t w = next_[ahead_w_]; w != kNone) {
      ahead_w_ = w;
      return;
    }
    for (uint64_t c = ahead_c_ + 1; c < until; ++c)
      if (const uint32_t w = head_[c & kMask]; w != kNone) {
        ahead_c_ = c;
        ahead_w_ = w;
        return;
      }
    ahead_w_ = kNone;
    return;
  }
  size_t k = kAhead;
  for (uint64_t c = now_; c < until; ++c)
    for (uint32_t w = head_[c & kMask]; w != kNone; w = next_[w])
      if (--k == 0) {
        ahead_c_ = c;
        ahead_w_ = w;
        return;
      }
}

}  // namespace ws::sim
