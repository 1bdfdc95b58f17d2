// Time in the memory model: what is in flight, and until when. A sector read from L2 stays in
// flight until its data leaves the L2 (a DRAM fill arriving, or an L2 hit answered); other SMs'
// requests for it meanwhile merge with it. An L1 line that a wide store allocated is not there
// for later stores until some cycles have passed. Both are "a key and the cycle it is in flight
// until", kept in one small hash table each (InFlight).
//
// The cycles are those of the SM clock (the device profile's MemoryTiming gives the latencies,
// measured with tools/probes/cache_probe.cu); the hierarchy gives each warp a clock and replays
// the warps earliest first (hierarchy.h), through an IssueQueue.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

namespace ws::sim {

// Keys (sectors, or an SM's lines) in flight until a cycle. An entry whose cycle has passed is as
// good as absent: it is reused by the next insertion that probes it, so the table holds about
// what is in flight at once, not everything that ever was. Open addressing, linear probing.
class InFlight {
 public:
  InFlight();
  struct Entry {
    uint64_t until = 0;  // 0: not in flight
    uint32_t owner = 0;  // who put it in flight (an SM)
  };
  // What is in flight under `key` at `now` (until == 0: nothing).
  Entry Find(uint64_t key, uint64_t now) const;
  uint64_t Until(uint64_t key, uint64_t now) const { return Find(key, now).until; }
  // `key` is in flight until `until` (> now), for `owner`, replacing what it had.
  void Set(uint64_t key, uint64_t until, uint64_t now, uint32_t owner = 0);
  void Clear();
  // `key`'s entry, if it is in flight until `was`, is in flight until `until` for `owner` instead
  // (a replay in windows puts its pending values right: sim/replay_window.h).
  void Patch(uint64_t key, uint64_t was, uint64_t until, uint32_t owner);
  // Calls f(key, until, owner) for every entry in flight after `now`.
  template <class F>
  void ForEach(uint64_t now, F&& f) const {
    for (const Slot& s : slots_)
      if (s.until > now) f(s.key, s.until, s.owner);
  }
  // Where a look-up of `key` starts, for a prefetch (it may be stale once the table grows).
  const void* SlotMemory(uint64_t key) const { return &slots_[Home(key)]; }

 private:
  struct Slot {
    uint64_t key = 0;
    uint64_t until = 0;  // 0: never used
    uint32_t owner = 0;
  };
  size_t Home(uint64_t key) const { return size_t((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  void Grow(uint64_t now);
  std::vector<Slot> slots_;
  uint32_t shift_ = 0;
  size_t used_ = 0;  // slots ever filled since the last Grow (live or expired)
};

// Warps waiting to issue, earliest cycle first; warps of one cycle in the order of their keys
// (SetKey: the hierarchy's is the slice of the device its SM is in, so that a replay on several
// threads can take the same order, sim/replay_window.h), those of one key in the order they were
// pushed.
// A ring of buckets one cycle wide from the current cycle on (waits are short: a DRAM round
// trip), and a heap for the few pushed further ahead (the later blocks of a wave). A push for a
// cycle already passed is a push for the current one. A warp is in the queue at most once: each
// bucket is a list in key order threaded through one array indexed by warp (next_), with a mask
// of the keys it holds and each key's last warp (where a push of that key goes in), so a push
// writes a few small arrays where a vector per bucket cost two cache misses (its header and its
// buffer). O(1) per push and pop, where a heap of the thousands of warps of a wave cost a dozen
// misses per pop.
class IssueQueue {
 public:
  static constexpr uint32_t kKeys = 32;  // SetKey's keys: 0 .. kKeys - 1
  IssueQueue();
  // Empties the queue; its current cycle becomes `start`.
  void Restart(uint64_t start);
  // The warp's key (0 until set), while it is not in the queue.
  void SetKey(uint32_t warp, uint32_t key);
  void Push(uint64_t cycle, uint32_t warp);
  // The next warp and its cycle (never earlier than the last one popped); false when empty.
  bool Pop(uint64_t* cycle, uint32_t* warp);
  // The same for a warp of a cycle before `limit` (> the current cycle); false when there is none,
  // the current cycle then at most limit - 1 (a replay in windows, sim/replay_window.h).
  bool Pop(uint64_t* cycle, uint32_t* warp, uint64_t limit);
  // A push that the one-thread replay made kRingCycles or more ahead, in a replay in windows: such
  // pushes went to the heap and came into their cycle's bucket in warp order, each before every
  // push of its key made from nearer (sim/replay_window.h). Only with the Pop that takes a limit.
  void PushFromFar(uint64_t cycle, uint32_t warp);
  // No warp issues before this cycle (~0: the queue is empty).
  uint64_t Earliest() const { return in_ring_ ? now_ : far_.empty() ? ~0ull : far_.top().first; }
  static constexpr uint64_t kRingCycles = uint64_t(1) << 12;  // a push this far ahead goes to the heap
  // The warp kAhead places after the last one popped, as the queue held them when it came into
  // view, if it is within kAheadCycles of the current cycle (else -1): for the caller to prefetch
  // what it will touch. Warps pushed meanwhile may come before it; a hint, not a promise. Kept
  // as the pops go (one step along the queue's order per pop), where a walk of kAhead places from
  // the head at every pop was a chain of dependent loads.
  static constexpr uint64_t kAheadCycles = 32;
  static constexpr size_t kAhead = 8;
  int64_t Ahead() const { return ahead_w_ == kNone ? -1 : int64_t(ahead_w_); }

 private:
  static constexpr uint32_t kRingLog2 = 12;  // 4096 cycles: longer than any wait
  static_assert(kRingCycles == uint64_t(1) << kRingLog2);
  static_assert(kKeys <= 32);  // mask_ holds a bit per key
  template <bool kLimit>
  bool PopBefore(uint64_t* cycle, uint32_t* warp, uint64_t limit);
  static constexpr uint32_t kNone = ~0u;
  static constexpr size_t kMask = kRingCycles - 1;
  std::vector<uint32_t> head_;         // per bucket: its first warp (kNone: empty)
  std::vector<uint32_t> mask_;         // per bucket: the keys it holds
  // Per bucket, per key it holds (its mask's bit set; else unset memory, never read): its last
  // warp of the key. Left unwritten, so that only the buckets and keys in use take pages.
  std::unique_ptr<uint32_t[]> last_;
  std::vector<uint32_t> next_;         // per warp: the next of its bucket
  std::vector<uint8_t> key_;           // per warp: its key (SetKey)
  std::vector<uint16_t> from_far_;     // per bucket and key: its first warps of the key that came
                                       // from the heap (PushFromFar)
  std::vector<uint32_t> far_keys_;     // per bucket: the keys whose from_far_ is not 0 (a pop
                                       // reads 16 KiB of these, not 256 KiB of counts)
  void KeepFromFar();                  // from_far_ and far_keys_ are made on first use
  void CameFromFar(size_t bucket, uint32_t key);
  uint64_t now_;
  size_t in_ring_ = 0;  // entries in the ring not yet popped
  uint32_t Key(uint32_t warp) const { return warp < key_.size() ? key_[warp] : 0; }
  // The look-ahead (Ahead): warp ahead_w_ in bucket ahead_c_, kAhead places after the last pop
  // (more if warps were pushed before it since); kNone: none in view, looked for again next pop.
  uint64_t ahead_c_ = 0;
  uint32_t ahead_w_ = kNone;
  void StepAhead();
  using Far = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
  // Puts the warp in its bucket after `after` (kNone: first); it becomes its key's last warp if
  // `after` was that or the bucket held none of its key.
  void Link(size_t bucket, uint32_t warp, uint32_t after);
  void Append(uint64_t cycle, uint32_t warp);
};

}  // namespace ws::sim
