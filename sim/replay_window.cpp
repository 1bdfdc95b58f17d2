// The last replay of a launch on several threads, window by window (see sim/replay_window.h).
// Section index: the barrier · pending stamps · the threads and their warps · a window · the merge
// · after the merge
#include "sim/hierarchy_impl.h"

#include <exception>
#include <thread>

namespace ws::sim {

// ---- the barrier ----
// A short spin (2,000 pauses: tens of microseconds; a step's work is about half a millisecond),
// then a wait that gives the core up: on a loaded machine the thread awaited may be waiting for
// this one's core. On the device machine's idle cores 2,000 and 20,000 pauses gave the same wall
// times, the shorter spin 10-20% less user time.
void SpinBarrier::Wait() {
  constexpr int kSpins = 2000;
  const uint32_t gen = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
    arrived_.store(0, std::memory_order_relaxed);
    generation_.store(gen + 1, std::memory_order_release);
    generation_.notify_all();
    return;
  }
  for (int i = 0; i < kSpins; ++i) {
    if (generation_.load(std::memory_order_acquire) != gen) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  while (generation_.load(std::memory_order_acquire) == gen) generation_.wait(gen, std::memory_order_acquire);
}

// ---- pending stamps ----
void PendingStamps::Erase(uint64_t key) {
  if (size_ == 0) return;
  const size_t mask = slots_.size() - 1;
  size_t i = Home(key);
  for (;; i = (i + 1) & mask) {
    if (!used_[i]) return;
    if (slots_[i].key == key) break;
  }
  // Backward-shift deletion: later entries of the probe run move into the hole.
  used_[i] = 0;
  --size_;
  for (size_t j = (i + 1) & mask; used_[j]; j = (j + 1) & mask) {
    const size_t home = Home(slots_[j].key);
    if (((j - home) & mask) >= ((j - i) & mask)) {
      slots_[i] = slots_[j];
      used_[i] = 1;
      used_[j] = 0;
      i = j;
    }
  }
}

void PendingStamps::Grow() {
  std::vector<Entry> old;
  std::vector<uint8_t> old_used;
  old.swap(slots_);
  old_used.swap(used_);
  const size_t size = std::max<size_t>(1024, old.size() * 2);
  slots_.assign(size, Entry{});
  used_.assign(size, 0);
  for (size_t k = 0; k < old.size(); ++k) {
    if (!old_used[k]) continue;
    size_t i = Home(old[k].key);
    while (used_[i]) i = (i + 1) & (size - 1);
    used_[i] = 1;
    slots_[i] = old[k];
  }
}

// ---- the threads and their warps ----
// Windows of l2_hit / 2 cycles, W_s = start + s x l2_hit / 2. At step s each thread puts right
// what window s - 2 left pending (its merge ran during step s - 1), pushes the warps window s - 1
// held for window s, and replays window s, while thread 0 also merges window s - 1: window s
// needs no answer to a request of window s - 1, which all come at W_(s+1) or later. Then the
// threads meet (one barrier a step).
//
// One thread's part: its warps (their cursors' indices, in the replay's order), the queue of
// them, who pushed each and its place among that turn's pushes, its SMs' tables, its logs.
struct MemoryHierarchy::Impl::Windows {
  struct Part {
    std::vector<uint32_t> cursor;
    IssueQueue queue;
    std::vector<uint64_t> pusher;
    std::vector<uint32_t> sub;
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
  SpinBarrier barrier;
  // Per step (s % 3) and thread: 1, it replayed a turn, held a push or has warps queued; 2, it
  // could not read its streams. Per step: the launch was cancelled (thread 0 sets it).
  std::vector<uint8_t> busy[3];
  bool stop[3] = {false, false, false};
  uint64_t rank = 0;     // the last turn's rank (the merge's)
  uint32_t traced_part = ~0u;
  uint32_t l1_events = 0;  // the traced SM's L1 log's length after the last turn merged

  Windows(Impl& impl, std::vector<Cursor>& c, const std::vector<uint32_t>& f, std::vector<uint32_t>& a,
          std::vector<uint64_t>& b, bool log, uint64_t s, uint32_t threads)
      : m(impl), cursors(c), first(f), arrived(a), block_end(b), log_now(log), start(s),
        step_cycles(std::max<uint64_t>(impl.device.timing.l2_hit / 2, 1)), parts(threads),
        local(c.size()), head(threads, 0), barrier(threads) {
    for (auto& b3 : busy) b3.assign(threads, 0);
  }

  void Run(uint32_t t);
  bool ReplayWindow(Part& part, uint64_t s);
  void Merge(uint64_t s);
  void MergeTurn(uint32_t t, WindowLog& log, const WindowLog::Turn& u);
  void Resolve(Part& part, uint64_t s);
  void PushSoon(Part& part, uint64_t s);
  void Push(Part& part, const WindowLog& log, const WindowLog::Held& h, uint64_t t, uint64_t pusher);
};

bool MemoryHierarchy::Impl::ReplayInWindows(std::vector<Cursor>& cursors, const std::vector<uint32_t>& first,
                                            std::vector<uint32_t>& arrived, std::vector<uint64_t>& block_end,
                                            uint64_t start, uint64_t& end, bool log_now) {
  const auto& tm = device.timing;
  const uint32_t group_sms = std::max<uint32_t>(device.merge_group_sms, 1);
  const uint32_t groups = (device.sms + group_sms - 1) / group_sms;
  // Every L2 answer comes l2_hit or more after its request: two windows on.
  if (tm.l2_hit < 2 || tm.dram < tm.l2_hit || groups > kMaxGroups) return false;
  // Groups of SMs to threads: contiguous ranges. Thread 0 also merges, which took about 0.3 of
  // the other threads' turns at two threads and more at four: it takes a smaller share of the
  // warps, none from four threads on.
  std::vector<uint64_t> group_warps(groups, 0);
  for (const Cursor& c : cursors) ++group_warps[c.block->sm / group_sms];
  uint32_t used = 0;
  for (uint64_t w : group_warps) used += w != 0;
  const uint32_t threads = std::min(replay_threads, used + 1);
  if (threads < 2) return false;
  const double share0 = std::max(0.0, (1.0 - 0.3 * (threads - 1)) / threads);
  const double share = (1.0 - share0) / (threads - 1);
  std::vector<uint32_t> part_of(groups, 0);
  uint64_t before = 0;
  for (uint32_t g = 0; g < groups; ++g) {
    const double at = (double(before) + 0.5 * double(group_warps[g])) / double(cursors.size());
    part_of[g] = at < share0 ? 0 : uint32_t(std::min<double>(threads - 1, 1 + (at - share0) / share));
    before += group_warps[g];
  }
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
  tables.l1_fill.ForEach(start, [&](uint64_t key, uint64_t until, uint32_t owner) {
    win.parts[part_of[(key >> 48) / group_sms]].tables.l1_fill.Set(key, until, start, owner);
  });
  if (traced_sm < device.sms) win.traced_part = part_of[traced_sm / group_sms];
  for (uint32_t t = 0; t < threads; ++t) {
    auto& part = win.parts[t];
    part.per_site.assign(per_site->size(), Counters{});
    for (uint32_t k = 0; k < 3; ++k) {
      part.logs[k].tag = uint64_t(k) << 40;
      part.logs[k].per_site = part.per_site.data();
      part.logs[k].pending_stamps = &part.pending_stamps;
      part.logs[k].owns_traced = t == win.traced_part;
      part.logs[k].family = part.logs;
    }
    part.end = end;
    part.queue.Restart(start);
    part.pusher.assign(part.cursor.size(), 0);  // the first pushes: rank 0, in cursor order
    part.sub.resize(part.cursor.size());
    for (uint32_t li = 0; li < part.cursor.size(); ++li) {
      Cursor& c = cursors[part.cursor[li]];
      part.sub[li] = part.cursor[li];
      NextHints(c, part.tables);
      part.queue.Push(c.t, li);
    }
  }
  std::vector<std::thread> helpers;
  for (uint32_t t = 1; t < threads; ++t) helpers.emplace_back([&win, t] { win.Run(t); });
  win.Run(0);
  for (auto& h : helpers) h.join();
  // The threads' L1 hits, and what is still in flight, back into the hierarchy.
  tables = SmTables{};
  for (auto& part : win.parts) {
    if (part.error) std::rethrow_exception(part.error);
    for (size_t s = 0; s < part.per_site.size(); ++s)
      for (int o = 0; o < 4; ++o) (*per_site)[s].l1_hits[o] += part.per_site[s].l1_hits[o];
    end = std::max(end, part.end);
    part.tables.group_flight.ForEach(0, [&](uint64_t k, uint64_t u, uint32_t w) { tables.group_flight.Set(k, u, 0, w); });
    part.tables.wide_store.ForEach(0, [&](uint64_t k, uint64_t u, uint32_t w) { tables.wide_store.Set(k, u, 0, w); });
    part.tables.l1_fill.ForEach(0, [&](uint64_t k, uint64_t u, uint32_t w) { tables.l1_fill.Set(k, u, 0, w); });
  }
  return true;
}

// Thread t's steps (see above). It stops after a step when no thread was busy in it or in the
// step before (nothing replayed, held or queued: every window's requests merged and answered).
void MemoryHierarchy::Impl::Windows::Run(uint32_t t) {
  Part& part = parts[t];
  for (uint64_t s = 0;; ++s) {
    if (s >= 2) Resolve(part, s - 2);
    part.logs[s % 3].Clear();
    if (s >= 1) PushSoon(part, s - 1);
    bool did = false;
    try {
      did = ReplayWindow(part, s);
    } catch (...) {
      part.error = std::current_exception();
    }
    // What every thread reads after the barrier is written per step (s % 3): a thread may be a
    // step ahead writing the next step's before a slower one has read this one's.
    busy[s % 3][t] = uint8_t((did || part.queue.Earliest() != ~0ull || !part.logs[s % 3].held.empty() ? 1 : 0) |
                             (part.error ? 2 : 0));
    if (t == 0) {
      if (s >= 1) Merge(s - 1);
      stop[s % 3] = m.Cancelled();
    }
    barrier.Wait();
    bool any = false, failed = false;
    for (uint32_t k = 0; k < parts.size(); ++k) {
      any = any || (busy[s % 3][k] & 1) || (s >= 1 && (busy[(s - 1) % 3][k] & 1));
      failed = failed || (busy[s % 3][k] & 2);
    }
    if (failed || stop[s % 3]) return;  // what ran stays counted
    if (!any) {
      // The last window's merge, and what it answered, when every thread is done.
      if (t == 0) Merge(s);
      barrier.Wait();
      if (s >= 1) Resolve(part, s - 1);
      Resolve(part, s);
      return;
    }
  }
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
    const uint64_t turn = log.turns.size();
    const uint64_t me = WindowLog::kLocal | log.tag | turn;
    log.BeginTurn(now, part.pusher[li], part.sub[li]);
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
          const uint32_t lk = local[k];
          part.queue.Push(now, lk);
          part.pusher[lk] = me;
          part.sub[lk] = k;
        }
      }
    } else if (!log.TurnWaits() && c.t < limit) {
      part.end = std::max(part.end, c.t);
      if (ended) {
        block_end[c.block_slot] = std::max(block_end[c.block_slot], c.t);
      } else {
        part.queue.Push(c.t, li);
        part.pusher[li] = me;
        part.sub[li] = 0;
      }
    } else {
      log.held.push_back({li, uint32_t(turn), c.t, log.turn_waits, uint32_t(log.waits.size()), ended, false});
    }
  }
  return did;
}

// ---- the merge ----
// Every thread's turns of window s in the one-thread replay's order, their requests performed
// on the L2 in it. Each thread's turns are in that order already; of the threads' next turns the
// first is the one of the earliest cycle, then of the earliest pusher, then of the first place
// among its pushes. A pusher of this window not merged yet counts as last: the true next turn's
// pusher came before it, so it has been merged and has its rank.
void MemoryHierarchy::Impl::Windows::Merge(uint64_t s) {
  const uint32_t threads = uint32_t(parts.size());
  const uint32_t cur = uint32_t(s % 3);
  for (auto& part : parts) {
    WindowLog& log = part.logs[cur];
    log.answers.resize(log.requests.size());
    log.ranks.clear();
  }
  head.assign(threads, 0);
  for (;;) {
    uint32_t best = threads;
    uint64_t best_cycle = 0, best_rank = 0;
    uint32_t best_sub = 0;
    for (uint32_t t = 0; t < threads; ++t) {
      const WindowLog& log = parts[t].logs[cur];
      if (head[t] == log.turns.size()) continue;
      const WindowLog::Turn& u = log.turns[head[t]];
      uint64_t r = u.pusher;
      if (r & WindowLog::kLocal) {
        const uint32_t k = WindowLog::LogOf(r);
        const uint64_t j = r & WindowLog::kIndex;
        r = k != cur ? parts[t].logs[k].ranks[j] : j < head[t] ? log.ranks[j] : ~0ull;
      }
      if (best == threads || u.cycle < best_cycle ||
          (u.cycle == best_cycle && (r < best_rank || (r == best_rank && u.sub < best_sub)))) {
        best = t, best_cycle = u.cycle, best_rank = r, best_sub = u.sub;
      }
    }
    if (best == threads) break;
    WindowLog& log = parts[best].logs[cur];
    log.ranks.push_back(++rank);
    MergeTurn(best, log, log.turns[head[best]]);
    ++head[best];
  }
}

// One turn's requests on the L2 (L2Read, L2Write, as the one-thread replay's IssueRecord does
// them), and for a traced instruction its L2 lines, its sectors' marks and its place in the L1 log.
void MemoryHierarchy::Impl::Windows::MergeTurn(uint32_t t, WindowLog& log, const WindowLog::Turn& u) {
  if (t == traced_part) l1_events = u.l1_events;
  if (u.requests_begin == u.requests_end && u.notes_begin == u.notes_end) return;
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
    m.NoteL1Events(size_t(u.trace_index), l1_events);
  }
  k.dram_write_bytes += (m.l2->stats().written_back_sectors - written_back) * SectorCache::kSectorBytes;
}

// ---- after the merge ----
// What window s left pending, put right once its merge has answered: in-flight entries, L1
// stamps whose last pending raise is answered (with the copies window s + 1 made of its values),
// and the pushes it held that PushSoon did not push, in the order they were made, each with its
// pusher's rank.
void MemoryHierarchy::Impl::Windows::Resolve(Part& part, uint64_t s) {
  WindowLog& log = part.logs[s % 3];
  for (const auto& q : log.patches) {
    const WindowLog::Answer& a = part.Answer(q.pending);
    q.table->Patch(q.key, q.pending, a.t, q.sm == ~0u ? 0 : q.sm << 2 | a.from);
  }
  for (const auto& raise : log.stamps) {
    PendingStamps::Entry* e = part.pending_stamps.Find(raise.key);
    if (!e || e->id != raise.id) continue;  // its slot was filled again since
    e->known = std::max(e->known, uint32_t(std::min<uint64_t>(part.Resolve(raise.value), kMaxStamp)));
    if (--e->pending == 0) {
      m.L1(uint32_t(raise.key >> 32)).Stamp(uint32_t(raise.key)) = e->known;
      part.pending_stamps.Erase(raise.key);
    }
  }
  for (auto& h : log.held) {
    if (h.pushed) continue;
    uint64_t t = h.known;
    for (uint32_t w = h.waits_begin; w < h.waits_end; ++w) t = std::max(t, part.Resolve(log.waits[w]));
    Push(part, log, h, t, log.ranks[h.turn]);
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
    Push(part, log, h, t, WindowLog::kLocal | log.tag | h.turn);
    h.pushed = true;
  }
}

void MemoryHierarchy::Impl::Windows::Push(Part& part, const WindowLog& log, const WindowLog::Held& h, uint64_t t,
                                          uint64_t pusher) {
  part.end = std::max(part.end, t);
  Cursor& c = cursors[part.cursor[h.warp]];
  if (h.ended) {
    block_end[c.block_slot] = std::max(block_end[c.block_slot], t);
  } else if (t - log.turns[h.turn].cycle >= IssueQueue::kRingCycles) {
    // The one-thread replay's queue held it in its heap (a wait that long comes from what an
    // earlier wave left in flight later than this one's first blocks start), then placed it
    // in warp order before the warps pushed from nearer: as a first push.
    part.queue.PushFromFar(t, h.warp);
    part.pusher[h.warp] = 0;
    part.sub[h.warp] = part.cursor[h.warp];
  } else {
    part.queue.Push(t, h.warp);
    part.pusher[h.warp] = pusher;
    part.sub[h.warp] = 0;
  }
}

}  // namespace ws::sim
