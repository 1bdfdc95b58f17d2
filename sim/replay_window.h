// The last replay of a launch (the one Finish runs) on several threads, with every result the
// one-thread replay's bit for bit: what each thread writes down during a window of time. The
// replay itself: sim/replay_window.cpp.
//
// How it is exact. Every answer from L2 reaches an SM at least l2_hit cycles after it was asked
// (a hit: max(now + l2_hit, fill + l2_hit / 2); a miss: now + dram, dram >= l2_hit; a read merged
// with one in flight: that read's answer). Time is cut into windows of l2_hit / 2 cycles: no turn
// needs what L2 answers to a request of its own window or of the window before. The device's
// slices (contiguous ranges of merge groups, the replay queue's keys: MemoryHierarchy::Impl::
// SliceOfGroup) are split between the threads in contiguous ranges, so each thread owns its SMs'
// L1s and the tables keyed by SM or group (l1_fill, wide_store, group_flight); the L2, the
// sectors DRAM is filling into it and its counters are the merge's. A thread replays its warps
// for a window, each L2 access written down as a request whose answer is *pending* (kPending |
// its log | its index, above any cycle); a pending value goes where the answer would have gone (an
// in-flight entry, an L1 slot's stamp, a warp's wait) and is put right once the requests are
// answered. A warp whose next cycle is past its window (or pending) is pushed later, in the order
// the pushes were made: before the next window where it is known by then, else after its
// window's merge (a push the one-thread queue made kRingCycles or more ahead waited in its heap and
// came into its cycle in warp order before any push made from nearer: IssueQueue::PushFromFar).
// Each thread's queue then pops its warps in the one-thread order restricted to them: by cycle,
// a cycle's by slice, a slice's in push order. The merge performs the window's requests in that
// order: a thread's turns are in it already, and a thread's slices all come before the next
// thread's, so of the threads' next turns the first is the earliest, the lowest thread's of a
// cycle. Only the turns with requests (or a traced instruction's notes) are written down.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "sim/cache.h"
#include "sim/memory_clock.h"
#include "sim/trace.h"

namespace ws::sim {

// L1 slots whose stamp waits for pending arrivals. Such a slot's stamp is a marker, at or above
// kMarkerBase (above every cycle a look-up compares it with: IssueRecord asks l1_fill from that
// cycle on), naming its record here: the latest arrival known since the slot's fill and how many
// raises are still pending. The record goes when the last pending raise is answered (the stamp
// then exact) or when the slot is filled again; `use` tells its uses apart. (A hash table of
// waiting slots took three probes a raise.)
class PendingStamps {
 public:
  static constexpr uint32_t kMaxStamp = 0xffffffffu;
  static constexpr uint32_t kMarkers = uint32_t(1) << 24;  // more than any device's L1 slots
  static constexpr uint32_t kMarkerBase = kMaxStamp - kMarkers;
  static bool IsMarker(uint32_t stamp) { return stamp >= kMarkerBase && stamp != kMaxStamp; }
  struct Record {
    uint32_t known, pending, use;
  };
  Record& Of(uint32_t marker) { return records_[marker - kMarkerBase]; }
  // A new record (known: the slot's stamp), its marker.
  uint32_t Add(uint32_t known) {
    uint32_t r;
    if (free_.empty()) {
      r = uint32_t(records_.size());
      records_.push_back({0, 0, 0});
    } else {
      r = free_.back();
      free_.pop_back();
    }
    records_[r].known = known, records_[r].pending = 0;
    return kMarkerBase + r;
  }
  void Drop(uint32_t marker) {
    ++Of(marker).use;
    free_.push_back(marker - kMarkerBase);
  }

 private:
  std::vector<Record> records_;
  std::vector<uint32_t> free_;
};

// What one thread writes down during a window, and what the merge answers. A thread keeps three
// (window s in log s % 3: the merge of window s - 1 and the answers of s - 2 are still read while
// window s is replayed), told apart by `tag` in the pending values they hand out.
struct WindowLog {
  static constexpr uint64_t kPending = uint64_t(1) << 62;  // | tag | a request's index: its answer
  static constexpr uint64_t kIndex = (uint64_t(1) << 40) - 1;
  static constexpr uint32_t kMaxStamp = PendingStamps::kMaxStamp;
  static bool Pending(uint64_t v) { return v >= kPending; }
  static uint32_t LogOf(uint64_t v) { return uint32_t(v >> 40) & 3; }

  // A turn of the window that the merge has work for (requests, or a traced instruction's notes):
  // when, its instruction, its requests (in sector order) and, for a traced instruction, every
  // sector's note and the traced SM's L1 log's length after it.
  struct Turn {
    uint64_t cycle;
    uint32_t site;
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
  // An L1 slot's stamp raised by a pending arrival, while it was marker `marker` (use `use`).
  struct StampRaise {
    uint32_t sm, slot, marker, use;
    uint64_t value;
  };
  // A warp's push held past the window: its cycle is at or past the window's end, or pending
  // (max(known, the answers of waits[waits_begin, waits_end)). Pushed before the next window
  // where it can be worked out then and comes before that window's end, else after this
  // window's merge (Windows::PushSoon, Windows::Resolve).
  struct Held {
    uint32_t warp;   // the thread's own index
    uint64_t cycle;  // its turn's
    uint64_t known;
    uint32_t waits_begin, waits_end;
    bool ended;  // the warp's stream ended with this turn
    bool pushed;
  };

  uint64_t tag = 0;  // log index << 40
  std::vector<Turn> turns;
  std::vector<uint64_t> requests;  // sectors
  std::vector<Answer> answers;     // per request, from the merge
  std::vector<Note> notes;
  std::vector<uint64_t> waits;     // the pending values the held pushes wait for
  std::vector<Patch> patches;
  std::vector<StampRaise> stamps;
  std::vector<Held> held;
  // The thread's own, shared by its three logs. A pending value of the window before that this
  // window copies (a read merged with one in flight, an L1 hit on a sector on its way) is put
  // right with that window's (its answer comes first): its patch and stamp raise go to that log.
  WindowLog* family = nullptr;     // the thread's three logs
  Counters* per_site = nullptr;    // its L1 hits, per site
  PendingStamps* pending_stamps = nullptr;
  bool owns_traced = false;        // the traced SM is this thread's
  uint32_t turn_waits = 0;         // waits.size() when the turn began
  Turn turn{};                     // the turn being replayed

  void BeginTurn(uint64_t cycle) {
    const uint32_t r = uint32_t(requests.size()), n = uint32_t(notes.size());
    turn = {cycle, 0, -1, r, r, n, n, 0, 0};
    turn_waits = uint32_t(waits.size());
  }
  void Instruction(uint32_t site, uint8_t op, int64_t trace_index) {
    turn.site = site, turn.op = op, turn.trace_index = trace_index;
  }
  uint64_t Request(uint64_t sector) {
    requests.push_back(sector);
    return kPending | tag | (requests.size() - 1);
  }
  // The warp waits for v (its data): known values raise `data`, pending ones are kept. Inlined:
  // once per sector, mostly a known value (a call was 85 of two threads' 12,937 samples, perf).
  [[gnu::always_inline]] void Wait(uint64_t& data, uint64_t v) {
    if (Pending(v)) [[unlikely]] waits.push_back(v);
    else data = std::max(data, v);
  }
  void DropWaits() { waits.resize(turn_waits); }
  bool TurnWaits() const { return waits.size() > turn_waits; }
  // Kept for the merge if it has work there.
  void EndTurn(size_t l1_events) {
    turn.requests_end = uint32_t(requests.size());
    turn.notes_end = uint32_t(notes.size());
    turn.l1_events = uint32_t(l1_events);
    if (turn.requests_end != turn.requests_begin || turn.notes_end != turn.notes_begin) turns.push_back(turn);
  }
  // A load's miss raises its L1 slot's stamp to its arrival v (the one-thread rule: the latest
  // arrival of the line's sectors since the slot's fill, saturated at kMaxStamp; a stamp is only
  // ever compared with a cycle, so one above the rule's is as good: a known arrival at or past
  // kMarkerBase saturates it).
  void RaiseStamp(uint32_t sm, uint32_t slot, uint32_t& stamp, uint64_t v) {
    if (Pending(v)) {
      if (!PendingStamps::IsMarker(stamp)) stamp = pending_stamps->Add(stamp);
      PendingStamps::Record& r = pending_stamps->Of(stamp);
      ++r.pending;
      family[LogOf(v)].stamps.push_back({sm, slot, stamp, r.use, v});
      return;
    }
    const uint32_t x = v >= PendingStamps::kMarkerBase ? kMaxStamp : uint32_t(v);
    if (PendingStamps::IsMarker(stamp)) {
      PendingStamps::Record& r = pending_stamps->Of(stamp);
      r.known = std::max(r.known, x);
    } else {
      stamp = std::max(stamp, x);
    }
  }
  // An in-flight entry now holds pending value `pending`.
  void AddPatch(InFlight* table, uint64_t key, uint64_t pending, uint32_t sm) {
    family[LogOf(pending)].patches.push_back({table, key, pending, sm});
  }
  // A slot whose stamp was `old` was filled with another line (its stamp 0).
  void Refilled(uint32_t old) {
    if (PendingStamps::IsMarker(old)) pending_stamps->Drop(old);
  }
  void Clear() {
    turns.clear(), requests.clear(), answers.clear(), notes.clear(), waits.clear();
    patches.clear(), stamps.clear(), held.clear();
  }
};

}  // namespace ws::sim
