// The last replay of a launch (the one Finish runs) on several threads, with every result the
// one-thread replay's bit for bit: what each thread writes down during a window of time, and the
// barrier the threads meet at. The replay itself: sim/replay_window.cpp.
//
// How it is exact. Every answer from L2 reaches an SM at least l2_hit cycles after it was asked
// (a hit: max(now + l2_hit, fill + l2_hit / 2); a miss: now + dram, dram >= l2_hit; a read merged
// with one in flight: that read's answer). So time is cut into windows [W, W + l2_hit): within
// one, no turn needs what L2 answers to a request of the same window. The SMs are split between
// the threads by merge group, so each thread owns its SMs' L1s and the tables keyed by SM or group
// (l1_fill, wide_store, group_flight); the L2, the sectors DRAM is filling into it and its counters
// are the merge's. A thread replays its warps for the window, each L2 access written down as a
// request whose answer is *pending* (a value kPending + its index, above any cycle); a pending
// value goes where the answer would have gone (an in-flight entry, an L1 slot's stamp, a warp's
// wait) and is put right once the window's requests are answered. At the window's end one thread
// performs every thread's requests on the L2 in the one-thread replay's order: the order of the
// turns, which is the order of (cycle, the rank of the turn that pushed the warp, its place among
// that turn's pushes; the replay's first pushes rank before every turn, in cursor order, and so do
// pushes the one-thread queue made kRingCycles or more ahead: they waited in its heap and came
// into their cycle in warp order before any push made from nearer, IssueQueue::PushFromFar). A
// warp whose next cycle is at or past the window's end (or pending) is pushed after the merge,
// in the order the pushes were made. Each thread's queue then pops its warps in the one-thread
// order restricted to them, and the merge takes the threads' turns in that order: of the threads'
// next turns, the earliest (cycle, pusher's rank, place); a pusher of the window not merged yet
// counts as last, since the true next turn's pusher came before it and has its rank.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "sim/cache.h"
#include "sim/memory_clock.h"
#include "sim/trace.h"

namespace ws::sim {

// What one thread writes down during a window, and what the merge answers.
struct WindowLog {
  static constexpr uint64_t kPending = uint64_t(1) << 62;  // + a request's index: its answer
  static constexpr uint64_t kLocal = uint64_t(1) << 63;    // + a turn's index: a pusher of this window
  static bool Pending(uint64_t v) { return v >= kPending; }

  // A turn of the window: when, who pushed the warp (a rank from an earlier window, 0 for the
  // replay's first pushes, or kLocal + a turn of this window) and its place among that turn's
  // pushes; its instruction, its requests (in sector order) and, for a traced instruction, every
  // sector's note; the traced SM's L1 log's length after it (the thread that owns that SM).
  struct Turn {
    uint64_t cycle, pusher;
    uint32_t sub, site;
    int64_t trace_index;
    uint32_t requests_begin, requests_end, notes_begin, notes_end, l1_events;
    uint8_t op;
  };
  // A traced instruction's sector: served by L1, merged with a read in flight (`value`: its
  // answer, pending or not; `from` where it came from if not pending) or a request of its own.
  enum NoteKind : uint8_t { kL1, kMerged, kRequest };
  struct Note {
    uint64_t sector, value;
    uint8_t from, kind;
  };
  struct Answer {
    uint64_t t;
    uint8_t from;
  };
  // An in-flight entry that holds a pending value, to be put right after the merge.
  struct Patch {
    InFlight* table;
    uint64_t key, pending;
    uint32_t sm;  // group_flight: the SM that asked (its owner gets the answer's `from`); else ~0
  };
  // An L1 slot's stamp raised by a load's miss (value: its arrival, maybe pending); prior: the
  // stamp before (0: the slot was refilled since its last raise, or never raised).
  struct StampRaise {
    uint32_t sm, slot, prior;
    uint64_t value;
  };
  // A warp's push held until after the merge: its cycle is at or past the window's end, or
  // pending (max(known, the answers of waits[waits_begin, waits_end)).
  struct Held {
    uint32_t warp;  // the thread's own index
    uint32_t turn;
    uint64_t known;
    uint32_t waits_begin, waits_end;
    bool ended;  // the warp's stream ended with this turn
  };

  std::vector<Turn> turns;
  std::vector<uint64_t> requests;  // sectors
  std::vector<Answer> answers;     // per request, from the merge
  std::vector<Note> notes;
  std::vector<uint64_t> waits;     // the pending values the held pushes wait for
  std::vector<Patch> patches;
  std::vector<StampRaise> stamps;
  std::vector<Held> held;
  std::vector<uint64_t> ranks;     // per turn, from the merge
  std::vector<Counters> per_site;  // the thread's L1 hits
  bool owns_traced = false;        // the traced SM is this thread's
  uint32_t turn_waits = 0;         // waits.size() when the turn began

  void BeginTurn(uint64_t cycle, uint64_t pusher, uint32_t sub) {
    const uint32_t r = uint32_t(requests.size()), n = uint32_t(notes.size());
    turns.push_back({cycle, pusher, sub, 0, -1, r, r, n, n, 0, 0});
    turn_waits = uint32_t(waits.size());
  }
  void Instruction(uint32_t site, uint8_t op, int64_t trace_index) {
    Turn& t = turns.back();
    t.site = site, t.op = op, t.trace_index = trace_index;
  }
  uint64_t Request(uint64_t sector) {
    requests.push_back(sector);
    return kPending + requests.size() - 1;
  }
  // The warp waits for v (its data): known values raise `data`, pending ones are kept.
  void Wait(uint64_t& data, uint64_t v) {
    if (Pending(v)) waits.push_back(v);
    else data = std::max(data, v);
  }
  void DropWaits() { waits.resize(turn_waits); }
  bool TurnWaits() const { return waits.size() > turn_waits; }
  void EndTurn(size_t l1_events) {
    Turn& t = turns.back();
    t.requests_end = uint32_t(requests.size());
    t.notes_end = uint32_t(notes.size());
    t.l1_events = uint32_t(l1_events);
  }
  uint64_t Resolve(uint64_t v) const { return Pending(v) ? answers[v - kPending].t : v; }
  void Clear() {
    turns.clear(), requests.clear(), answers.clear(), notes.clear(), waits.clear();
    patches.clear(), stamps.clear(), held.clear(), ranks.clear();
  }
};

// Threads meeting between a window's phases: a spin first (a window's phase is short), then a
// wait on the generation word.
class SpinBarrier {
 public:
  explicit SpinBarrier(uint32_t threads) : threads_(threads) {}
  void Wait();

 private:
  const uint32_t threads_;
  std::atomic<uint32_t> arrived_{0};
  std::atomic<uint32_t> generation_{0};
};

}  // namespace ws::sim
