// The last replay of a launch on several threads, window by window (see sim/replay_window.h).
// Section index: waiting · the threads and their warps · a window · the merge ·
// after the merge
#include "sim/hierarchy_impl.h"

#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace ws::sim {

// ---- waiting ----
// A thread waiting for a merge looks again after a pause: a spin first, for up to 200 microseconds
// (a window's work is a few hundred microseconds; a spinning thread merges what it waits for
// itself, and wakes late from no sleep: the replay of stats shortcut/v1 --n 512 --shape 16x16 on
// two threads took 0.667 s where a spin of 22 microseconds took 0.675 s, medians of 10), then
// sleeps of 20 microseconds, which give the core up: on a loaded machine the thread it waits for
// may be waiting for this one's core, and with many threads the waiting ones would hold every core.
namespace {
constexpr auto kSpinTime = std::chrono::microseconds(200);
void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

// ---- the threads and their warps ----
// Windows of l2_hit / 2 cycles, W_s = start + s x l2_hit / 2. At step s a thread puts right what
// its window s - 2 left pending, pushes the warps its window s - 1 held for window s, and replays
// window s. Window s needs no answer to a request of window s - 1 (they all come at W_(s+1) or
// later), so a step begins once window s - 2 is merged: a thread may be a window ahead of a
// slower one. A window is merged once every thread has replayed it, by one thread at a time: the
// first that waits for it (else, where the waiting ones sleep, the last to replay it).
//
// One thread's part: its warps (their cursors' indices, in the replay's order), the queue of
// them, its SMs' tables, its logs.
struct MemoryHierarchy::Impl::Windows {
  struct alignas(128) Part {  // a thread's own: no cache line shared with another's
    std::vector<uint32_t> cursor;
    IssueQueue queue;
    SmTables tables;
    WindowLog logs[3];
    std::vector<Counters> per_site;
    PendingStamps pending_stamps;
    Prefetcher ahead;
    size_t issued = 0;
    uint64_t end = 0;
    std::exception_ptr error;
    const WindowLog::Answer& Answer(uint64_t v) const {
      return logs[WindowLog::LogOf(v)].answers[v & WindowLog::kIndex];
    }
    uint64_t Resolve(uint64_t v) const { return WindowLog::Pending(v) ? Answer(v).t : v; }
  };
  Impl& m;
  std::vector<Cursor>& cursors;
  const std::vector<uint32_t>& first;
  std::vector<uint32_t>& arrived;
  std::vector<uint64_t>& block_end;
  bool log_now;
  uint64_t start, step_cycles;
  std::vector<Part> parts;
  std::vector<uint32_t> local;  // per cursor: its index in its thread's part
  std::vector<size_t> head;     // the merge's: per thread, its next turn
  // Per thread: how many windows it has replayed (kFinished: it has finished). Windows 0 ..
  // merged - 1 are merged; a window is merged once every thread has replayed it (and one has not
  // finished), by a thread that has the merge's role. `halt`: cancelled, or a thread failed (what
  // ran stays counted). Each on a cache line of its own: every thread reads them while it waits.
  static constexpr uint64_t kFinished = ~0ull;
  struct alignas(64) Done {
    std::atomic<uint64_t> windows{0};
  };
  std::unique_ptr<Done[]> done;
  alignas(64) std::atomic<uint64_t> merged{0};
  alignas(64) std::atomic<uint32_t> spinning{0};  // threads spinning in WaitMerged
  alignas(64) std::atomic<uint32_t> sleeping{0};  // threads sleeping in WaitMerged
  alignas(64) std::atomic<bool> halt{false};
  std::mutex merge_role;
  uint32_t traced_part = ~0u;

  Windows(Impl& impl, std::vector<Cursor>& c, const std::vector<uint32_t>& f, std::vector<uint32_t>& a,
          std::vector<uint64_t>& b, bool log, uint64_t s, uint32_t threads)
      : m(impl), cursors(c), first(f), arrived(a), block_end(b), log_now(log), start(s),
        step_cycles(std::max<uint64_t>(impl.device.timing.l2_hit / 2, 1)), parts(threads),
        local(c.size()), head(threads, 0), done(new Done[threads]) {}

  void Run(uint32_t t);
  void Prepare(uint32_t t);
  void Steps(uint32_t t);
  bool Mergeable(uint64_t* window) const;
  bool TryMerge();
  bool WaitMerged(uint64_t windows);
  bool ReplayWindow(Part& part, uint64_t s);
  void Merge(uint64_t s);
  void MergeTurn(uint32_t t, WindowLog& log, const WindowLog::Turn& u);
  void Resolve(Part& part, uint64_t s);
  void PushSoon(Part& part, uint64_t s);
  void Push(Part& part, const WindowLog::Held& h, uint64_t t);
};

bool MemoryHierarchy::Impl::ReplayInWindows(std::vector<Cursor>& cursors, const std::vector<uint32_t>& first,
                                            std::vector<uint32_t>& arrived, std::vector<uint64_t>& block_end,
                                            uint64_t start, uint64_t& end, bool log_now) {
  const auto& tm = device.timing;
  const uint32_t group_sms = std::max<uint32_t>(device.merge_group_sms, 1);
  const uint32_t groups = (device.sms + group_sms - 1) / group_sms;
  // Every L2 answer comes l2_hit or more after its request: two windows on.
  if (tm.l2_hit < 2 || tm.dram < tm.l2_hit || groups > kMaxGroups) return false;
  // A thread's PendingStamps markers are fewer than its L1 slots (and L1 stamps are cycles below
  // the markers: checked below, where what earlier waves left in flight is handed out).
  if (uint64_t(device.sms) * (residency.l1_bytes / SectorCache::kLineBytes) >= PendingStamps::kMarkers) return false;
  // The device's slices (SliceOfGroup) to threads: contiguous ranges of about as many warps each
  // (a window's merge falls to the first thread that waits for it), so at most as many threads as
  // slices with warps.
  std::vector<uint64_t> slice_warps(IssueQueue::kKeys, 0);
  for (const Cursor& c : cursors) ++slice_warps[SliceOfSm(c.block->sm)];
  uint32_t used = 0;
  for (uint64_t w : slice_warps) used += w != 0;
  const uint32_t threads = std::min(replay_threads, used);
  if (threads < 2) return false;
  std::vector<uint32_t> thread_of_slice(IssueQueue::kKeys, 0);
  uint64_t before = 0;
  for (uint32_t k = 0; k < IssueQueue::kKeys; ++k) {
    const double at = (double(before) + 0.5 * double(slice_warps[k])) / double(cursors.size());
    thread_of_slice[k] = std::min<uint32_t>(threads - 1, uint32_t(at * threads));
    before += slice_warps[k];
  }
  std::vector<uint32_t> part_of(groups, 0);  // per group: its thread
  for (uint32_t g = 0; g < groups; ++g) part_of[g] = thread_of_slice[SliceOfGroup(g)];
  Windows win(*this, cursors, first, arrived, block_end, log_now, start, threads);
  for (uint32_t i = 0; i < cursors.size(); ++i) {
    auto& part = win.parts[part_of[cursors[i].block->sm / group_sms]];
    win.local[i] = uint32_t(part.cursor.size());
    part.cursor.push_back(i);
  }
  // What earlier waves left in flight goes to the thread owning its SM or group.
  tables.group_flight.ForEach(start, [&](uint64_t key, uint64_t until, uint32_t owner) {
    win.parts[part_of[key % kMaxGroups]].tables.group_flight.Set(key, until, start, owner);
  });
  tables.wide_store.ForEach(start, [&](uint64_t key, uint64_t until, uint32_t owner) {
    win.parts[part_of[(key >> 48) / group_sms]].tables.wide_store.Set(key, until, start, owner);
  });
  uint64_t latest = start;  // bounds every L1 stamp
  tables.l1_fill.ForEach(start, [&](uint64_t key, uint64_t until, uint32_t owner) {
    win.parts[part_of[(key >> 48) / group_sms]].tables.l1_fill.Set(key, until, start, owner);
    latest = std::max(latest, until);
  });
  if (latest >= PendingStamps::kMarkerBase) return false;  // nothing has run: the one-thread replay
  if (traced_sm < device.sms) win.traced_part = part_of[traced_sm / group_sms];
  for (auto& part : win.parts) part.end = end;
  std::vector<std::thread> helpers;
  for (uint32_t t = 1; t < threads; ++t) helpers.emplace_back([&win, t] { win.Run(t); });
  win.Run(0);
  for (auto& h : helpers) h.join();
  // The threads' L1 hits back into the hierarchy. What is still in flight stays in their tables:
  // no replay follows the launch's last (5 ms of copying, serial, at n = 512).
  for (auto& part : win.parts) {
    if (part.error) std::rethrow_exception(part.error);
    for (size_t s = 0; s < part.per_site.size(); ++s)
      for (int o = 0; o < 4; ++o) (*per_site)[s].l1_hits[o] += part.per_site[s].l1_hits[o];
    end = std::max(end, part.end);
  }
  return true;
}

// Thread t's steps (see above). A step begins once windows 0 .. s - 2 are merged (what it puts
// right and pushes needs their answers), so a thread may be a window ahead of a slower one.
// The thread finishes after two steps in which it had nothing to do (no turn, no warp queued,
// no push held): its warps have all ended and what it left pending is put right. Its logs of
// those two windows are empty, so the merges still to come find nothing of it.
void MemoryHierarchy::Impl::Windows::Run(uint32_t t) {
  try {
    Prepare(t);
    Steps(t);
  } catch (...) {  // a stream that cannot be read, memory: every thread stops, what ran stays counted
    parts[t].error = std::current_exception();
    halt.store(true, std::memory_order_relaxed);
  }
}

// Thread t's part before its first step: its SMs' L1 pages and its share of the L2's written
// before any look-up (SectorCache::Touch: a first write to a page a read had mapped to the zero
// page would make the kernel flush the other threads' TLBs), its warps' first records read, its
// counters, logs and queue. The L2 is first used by window 0's merge, once every thread has
// replayed that window.
void MemoryHierarchy::Impl::Windows::Prepare(uint32_t t) {
  Part& part = parts[t];
  m.l2->Touch(t, uint32_t(parts.size()));
  part.per_site.assign(m.per_site->size(), Counters{});
  for (uint32_t k = 0; k < 3; ++k) {
    part.logs[k].tag = uint64_t(k) << 40;
    part.logs[k].per_site = part.per_site.data();
    part.logs[k].pending_stamps = &part.pending_stamps;
    part.logs[k].owns_traced = t == traced_part;
    part.logs[k].family = part.logs;
  }
  std::vector<uint8_t> touched(m.device.sms, 0);
  part.queue.Restart(start);
  for (uint32_t li = 0; li < part.cursor.size(); ++li) {
    Cursor& c = cursors[part.cursor[li]];
    if (!std::exchange(touched[c.block->sm], uint8_t(1))) m.L1(c.block->sm).Touch();
    m.Refill(c);
    m.NextHints(c, part.tables);
    part.queue.SetKey(li, m.SliceOfSm(c.block->sm));
    part.queue.Push(c.t, li);
  }
}

void MemoryHierarchy::Impl::Windows::Steps(uint32_t t) {
  Part& part = parts[t];
  bool idle_before = false;
  for (uint64_t s = 0;; ++s) {
    if (s >= 2 && !WaitMerged(s - 1)) return;
    if (s >= 2) Resolve(part, s - 2);
    part.logs[s % 3].Clear();
    if (s >= 1) PushSoon(part, s - 1);
    const bool did = ReplayWindow(part, s);
    const bool idle = !did && part.queue.Earliest() == ~0ull && part.logs[s % 3].held.empty();
    if (idle && idle_before) {
      part.logs[(s + 1) % 3].Clear();  // window s - 2's, merged
      done[t].windows.store(kFinished, std::memory_order_release);
    } else {
      done[t].windows.store(s + 1, std::memory_order_release);
    }
    if (t == 0 && m.Cancelled()) halt.store(true, std::memory_order_relaxed);
    if (halt.load(std::memory_order_relaxed)) return;
    // The first thread to need a window merges it: the one ahead, with time to spare. (The last
    // to replay it, the one behind, merged it here: stats shortcut/v1 --n 512 on two threads took
    // 1.46 and 1.475 s, now 1.44 and 1.46 s, medians of 12 and 20 rounds in turn.) Only where the
    // waiting threads sleep does the last to replay a window merge it at once.
    if (sleeping.load(std::memory_order_relaxed) != 0 && spinning.load(std::memory_order_relaxed) == 0) TryMerge();
    if (idle && idle_before) return;
    idle_before = idle;
  }
}

// Whether window *window, the next to merge, can be merged: every thread has replayed it and one
// has not finished (a finished thread's logs are empty from its last window on, so when all have
// finished every window with a turn is merged).
bool MemoryHierarchy::Impl::Windows::Mergeable(uint64_t* window) const {
  *window = merged.load(std::memory_order_acquire);
  bool open = false;
  for (size_t t = 0; t < parts.size(); ++t) {
    const uint64_t d = done[t].windows.load(std::memory_order_acquire);
    if (d <= *window) return false;
    open = open || d != kFinished;
  }
  return open;
}

// Merges the windows that can be merged, unless another thread has the merge's role: that one
// looks again once it has let the role go. Returns whether it merged one. A waiting thread calls
// it at each look, so a window is merged at the latest by the thread that needs it.
bool MemoryHierarchy::Impl::Windows::TryMerge() {
  bool any = false;
  uint64_t k;
  while (Mergeable(&k)) {
    std::unique_lock<std::mutex> role(merge_role, std::try_to_lock);
    if (!role.owns_lock()) return any;
    for (; Mergeable(&k); any = true) {
      Merge(k);
      merged.store(k + 1, std::memory_order_release);
    }
  }
  return any;
}

// Waits until windows 0 .. windows - 1 are merged, merging what it can meanwhile. False: halted.
bool MemoryHierarchy::Impl::Windows::WaitMerged(uint64_t windows) {
  using Clock = std::chrono::steady_clock;
  bool spin = true;
  Clock::time_point spin_until{};
  spinning.fetch_add(1, std::memory_order_relaxed);
  for (uint32_t looks = 0; merged.load(std::memory_order_acquire) < windows && !halt.load(std::memory_order_relaxed); ++looks) {
    if (TryMerge()) continue;
    if (!spin) {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    } else if (looks % 64 != 0) {
      Pause();
    } else if (looks == 0) {
      spin_until = Clock::now() + kSpinTime;
    } else if (Clock::now() >= spin_until) {
      spin = false;
      sleeping.fetch_add(1, std::memory_order_relaxed);
      spinning.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  if (spin) spinning.fetch_sub(1, std::memory_order_relaxed);
  else sleeping.fetch_sub(1, std::memory_order_relaxed);
  return !halt.load(std::memory_order_relaxed);
}

// ---- a window ----
// The thread's turns of window s, as the one-thread replay takes them (Replay), each written
// down with its requests. A push into the window goes into the queue at once; one known and
// before the next window's end is held for PushSoon, the rest for Resolve after the merge.
// Returns whether it replayed a turn.
bool MemoryHierarchy::Impl::Windows::ReplayWindow(Part& part, uint64_t s) {
  WindowLog& log = part.logs[s % 3];
  const uint64_t limit = start + (s + 1) * step_cycles;
  uint64_t now;
  bool did = false;
  for (uint32_t li; part.queue.Pop(&now, &li, limit); ++part.issued) {
    const int64_t ahead = part.queue.Ahead();
    part.ahead.Turn(cursors.data(), ahead < 0 ? -1 : int64_t(part.cursor[size_t(ahead)]), part.issued);
    Cursor& c = cursors[part.cursor[li]];
    if (c.p == c.end) continue;
    did = true;
    log.BeginTurn(now);
    c.t = now;
    const bool at_barrier = m.IssueRecord<true>(c, log_now, part.tables, &log);
    log.EndTurn(log.owns_traced ? m.trace->caches.l1_events.size() : 0);
    m.Refill(c);
    m.NextHints(c, part.tables);
    const bool ended = c.p == c.end;
    if (at_barrier) {
      part.end = std::max(part.end, now);
      if (ended) block_end[c.block_slot] = std::max(block_end[c.block_slot], now);
      c.waiting = true;
      const uint32_t b = c.block_slot;
      if (++arrived[b] == first[b + 1] - first[b]) {
        arrived[b] = 0;
        for (uint32_t k = first[b]; k < first[b + 1]; ++k) {
          cursors[k].waiting = false;
          if (cursors[k].p == cursors[k].end) continue;
          part.queue.Push(now, local[k]);
        }
      }
    } else if (!log.TurnWaits() && c.t < limit) {
      part.end = std::max(part.end, c.t);
      if (ended) {
        block_end[c.block_slot] = std::max(block_end[c.block_slot], c.t);
      } else {
        part.queue.Push(c.t, li);
      }
    } else {
      log.held.push_back({li, now, c.t, log.turn_waits, uint32_t(log.waits.size()), ended, false});
    }
  }
  return did;
}

// ---- the merge ----
// Every thread's turns of window s in the one-thread replay's order, their requests performed
// on the L2 in it: by cycle, a cycle's in SM order. Each thread's turns are in that order
// already, and a thread's SMs all come before the next thread's: of the threads' next turns the
// first is the earliest, the lowest thread's of a cycle.
void MemoryHierarchy::Impl::Windows::Merge(uint64_t s) {
  const uint32_t threads = uint32_t(parts.size());
  const uint32_t cur = uint32_t(s % 3);
  for (auto& part : parts) {
    WindowLog& log = part.logs[cur];
    log.answers.resize(log.requests.size());
  }
  head.assign(threads, 0);
  for (;;) {
    uint32_t best = threads;
    uint64_t best_cycle = ~0ull;
    for (uint32_t t = 0; t < threads; ++t) {
      const WindowLog& log = parts[t].logs[cur];
      if (head[t] < log.turns.size() && log.turns[head[t]].cycle < best_cycle) best = t, best_cycle = log.turns[head[t]].cycle;
    }
    if (best == threads) break;
    WindowLog& log = parts[best].logs[cur];
    // The thread's turns up to the next thread's next cycle come first.
    uint64_t until = ~0ull;
    for (uint32_t t = 0; t < threads; ++t) {
      if (t == best) continue;
      const WindowLog& other = parts[t].logs[cur];
      if (head[t] < other.turns.size()) until = std::min(until, other.turns[head[t]].cycle + (t > best ? 1 : 0));
    }
    while (head[best] < log.turns.size() && log.turns[head[best]].cycle < until) {
      MergeTurn(best, log, log.turns[head[best]]);
      ++head[best];
    }
  }
}

// One turn's requests on the L2 (L2Read, L2Write, as the one-thread replay's IssueRecord does
// them), and for a traced instruction its L2 lines, its sectors' marks and its place in the L1 log.
void MemoryHierarchy::Impl::Windows::MergeTurn(uint32_t t, WindowLog& log, const WindowLog::Turn& u) {
  Counters& k = (*m.per_site)[u.site];
  const AccessPolicy& p = m.device.cache_policy.Of(Op(u.op));
  const int o = int(u.op);
  const uint64_t written_back = m.l2->stats().written_back_sectors;
  auto perform = [&](uint32_t r) {
    ServedFrom from = ServedFrom::L2;
    const uint64_t sector = log.requests[r];
    const uint64_t at = p.writes ? m.L2Write(sector, u.cycle, o, k, p, from) : m.L2Read(sector, u.cycle, o, k, from);
    log.answers[r] = {at, uint8_t(from)};
    return from;
  };
  uint32_t r = u.requests_begin;
  if (u.notes_begin == u.notes_end) {
    for (; r < u.requests_end; ++r) perform(r);
  } else {
    m.step_l2.Begin();
    uint64_t served = 0;
    for (uint32_t i = u.notes_begin; i < u.notes_end; ++i) {
      const WindowLog::Note& n = log.notes[i];
      ServedFrom from = ServedFrom::L1;
      if (n.kind == WindowLog::kRequest) {
        from = perform(r++);
        m.step_l2.Note(n.sector, from, false, m.l2_change);
      } else if (n.kind == WindowLog::kMerged) {
        from = WindowLog::Pending(n.value) ? ServedFrom(parts[t].Answer(n.value).from) : ServedFrom(n.from);
        m.step_l2.Note(n.sector, from, true, m.l2_change);
      }
      served |= uint64_t(from) << (2 * (i - u.notes_begin));
    }
    m.step_l2.Keep(*m.trace, *m.l2, size_t(u.trace_index));
    m.trace->instructions[size_t(u.trace_index)].served = served;
    m.NoteL1Events(size_t(u.trace_index), u.l1_events);
  }
  k.dram_write_bytes += (m.l2->stats().written_back_sectors - written_back) * SectorCache::kSectorBytes;
}

// ---- after the merge ----
// What window s left pending, put right once its merge has answered: in-flight entries, L1
// stamps whose last pending raise is answered (with the copies window s + 1 made of its values),
// and the pushes it held that PushSoon did not push, in the order they were made.
void MemoryHierarchy::Impl::Windows::Resolve(Part& part, uint64_t s) {
  WindowLog& log = part.logs[s % 3];
  for (const auto& q : log.patches) {
    const WindowLog::Answer& a = part.Answer(q.pending);
    q.table->Patch(q.key, q.pending, a.t, q.sm == ~0u ? 0 : q.sm << 2 | a.from);
  }
  for (const auto& raise : log.stamps) {
    PendingStamps::Record& r = part.pending_stamps.Of(raise.marker);
    if (r.use != raise.use) continue;  // its slot was filled again since
    const uint64_t v = part.Resolve(raise.value);
    r.known = std::max(r.known, v >= PendingStamps::kMarkerBase ? PendingStamps::kMaxStamp : uint32_t(v));
    if (--r.pending == 0) {
      m.L1(raise.sm).Stamp(raise.slot) = r.known;
      part.pending_stamps.Drop(raise.marker);
    }
  }
  for (auto& h : log.held) {
    if (h.pushed) continue;
    uint64_t t = h.known;
    for (uint32_t w = h.waits_begin; w < h.waits_end; ++w) t = std::max(t, part.Resolve(log.waits[w]));
    Push(part, h, t);
  }
}

// Before window s + 1: the pushes window s held that come before that window's end and can be
// worked out already (known, or waiting for answers of the window before s, merged), in the
// order they were made; after those window s - 1 held to its merge, which came first.
void MemoryHierarchy::Impl::Windows::PushSoon(Part& part, uint64_t s) {
  WindowLog& log = part.logs[s % 3];
  const uint64_t next_end = start + (s + 2) * step_cycles;
  for (auto& h : log.held) {
    uint64_t t = h.known;
    bool known = true;
    for (uint32_t w = h.waits_begin; w < h.waits_end && known; ++w) {
      const uint64_t v = log.waits[w];
      known = WindowLog::LogOf(v) != s % 3;
      if (known) t = std::max(t, part.Resolve(v));
    }
    if (!known || t >= next_end) continue;
    Push(part, h, t);
    h.pushed = true;
  }
}

void MemoryHierarchy::Impl::Windows::Push(Part& part, const WindowLog::Held& h, uint64_t t) {
  part.end = std::max(part.end, t);
  Cursor& c = cursors[part.cursor[h.warp]];
  if (h.ended) {
    block_end[c.block_slot] = std::max(block_end[c.block_slot], t);
  } else if (t - h.cycle >= IssueQueue::kRingCycles) {
    // The one-thread replay's queue held it in its heap (a wait that long comes from what an
    // earlier wave left in flight later than this one's first blocks start), then placed it
    // in warp order before the warps pushed from nearer: as a first push.
    part.queue.PushFromFar(t, h.warp);
  } else {
    part.queue.Push(t, h.warp);
  }
}

}  // namespace ws::sim
