// The last replay of a launch on several threads, window by window (see sim/replay_window.h).
// Section index: the barrier · the threads and their warps · a window · the merge · after the merge
#include "sim/hierarchy_impl.h"

#include <exception>
#include <thread>

namespace ws::sim {

// ---- the barrier ----
void SpinBarrier::Wait() {
  const uint32_t gen = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
    arrived_.store(0, std::memory_order_relaxed);
    generation_.store(gen + 1, std::memory_order_release);
    generation_.notify_all();
    return;
  }
  for (int i = 0; i < 20000; ++i) {
    if (generation_.load(std::memory_order_acquire) != gen) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  while (generation_.load(std::memory_order_acquire) == gen) generation_.wait(gen, std::memory_order_acquire);
}

// ---- the threads and their warps ----
// One thread's part: its warps (their cursors' indices, in the replay's order), the queue of
// them, who pushed each (a rank, or kLocal + a turn of the window) and its place among that
// turn's pushes, its SMs' tables, what it writes down in a window.
struct MemoryHierarchy::Impl::Windows {
  struct Part {
    std::vector<uint32_t> cursor;
    IssueQueue queue;
    std::vector<uint64_t> pusher;
    std::vector<uint32_t> sub;
    SmTables tables;
    WindowLog log;
    Prefetcher ahead;
    size_t issued = 0;
    uint64_t end = 0;
    uint64_t earliest = ~0ull;  // no turn of it comes before this cycle (after a window)
    struct StampEntry {
      uint64_t key = 0;
      uint32_t exact = 0, tag = 0;
    };
    std::vector<StampEntry> stamp_table;  // Resolve's, per window (tag)
    std::vector<uint32_t> stamp_slots;
    uint32_t stamp_tag = 0;
    std::exception_ptr error;
  };
  Impl& m;
  std::vector<Cursor>& cursors;
  const std::vector<uint32_t>& first;
  std::vector<uint32_t>& arrived;
  std::vector<uint64_t>& block_end;
  bool log_now;
  std::vector<Part> parts;
  std::vector<uint32_t> local;  // per cursor: its index in its thread's part
  std::vector<size_t> head;     // the merge's: per thread, its next turn
  SpinBarrier barrier;
  uint64_t window = 0;  // the window's first cycle (the merge sets the next)
  bool done = false;
  bool failed = false;  // a thread could not read its streams (SpillFile::Read threw)
  uint64_t rank = 0;    // the last turn's rank (the merge's)
  uint32_t traced_part = ~0u;
  uint32_t l1_events = 0;  // the traced SM's L1 log's length after the last turn merged

  Windows(Impl& impl, std::vector<Cursor>& c, const std::vector<uint32_t>& f, std::vector<uint32_t>& a,
          std::vector<uint64_t>& b, bool log, uint32_t threads)
      : m(impl), cursors(c), first(f), arrived(a), block_end(b), log_now(log), parts(threads),
        local(c.size()), barrier(threads) {}

  void Run(uint32_t t);
  void ReplayWindow(Part& part, uint64_t limit);
  void Merge();
  void MergeTurn(uint32_t t, const WindowLog::Turn& u);
  void Resolve(Part& part);
};

bool MemoryHierarchy::Impl::ReplayInWindows(std::vector<Cursor>& cursors, const std::vector<uint32_t>& first,
                                            std::vector<uint32_t>& arrived, std::vector<uint64_t>& block_end,
                                            uint64_t start, uint64_t& end, bool log_now) {
  const auto& tm = device.timing;
  const uint32_t group_sms = std::max<uint32_t>(device.merge_group_sms, 1);
  const uint32_t groups = (device.sms + group_sms - 1) / group_sms;
  // A window is l2_hit long: every L2 answer must come that late.
  if (tm.l2_hit == 0 || tm.dram < tm.l2_hit || groups > kMaxGroups) return false;
  // Groups of SMs to threads: contiguous ranges with about as many warps each.
  std::vector<uint64_t> group_warps(groups, 0);
  for (const Cursor& c : cursors) ++group_warps[c.block->sm / group_sms];
  uint32_t used = 0;
  for (uint64_t w : group_warps) used += w != 0;
  const uint32_t threads = std::min(replay_threads, used);
  if (threads < 2) return false;
  std::vector<uint32_t> part_of(groups, 0);
  uint64_t before = 0;
  for (uint32_t g = 0; g < groups; ++g) {
    part_of[g] = uint32_t(std::min<uint64_t>(threads - 1, before * threads / cursors.size()));
    before += group_warps[g];
  }
  Windows win(*this, cursors, first, arrived, block_end, log_now, threads);
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
    part.log.per_site.assign(per_site->size(), Counters{});
    part.log.owns_traced = t == win.traced_part;
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
  win.window = start;
  std::vector<std::thread> helpers;
  for (uint32_t t = 1; t < threads; ++t) helpers.emplace_back([&win, t] { win.Run(t); });
  win.Run(0);
  for (auto& h : helpers) h.join();
  // The threads' L1 hits, and what is still in flight, back into the hierarchy.
  tables = SmTables{};
  for (auto& part : win.parts) {
    if (part.error) std::rethrow_exception(part.error);
    for (size_t s = 0; s < part.log.per_site.size(); ++s)
      for (int o = 0; o < 4; ++o) (*per_site)[s].l1_hits[o] += part.log.per_site[s].l1_hits[o];
    end = std::max(end, part.end);
    part.tables.group_flight.ForEach(0, [&](uint64_t k, uint64_t u, uint32_t w) { tables.group_flight.Set(k, u, 0, w); });
    part.tables.wide_store.ForEach(0, [&](uint64_t k, uint64_t u, uint32_t w) { tables.wide_store.Set(k, u, 0, w); });
    part.tables.l1_fill.ForEach(0, [&](uint64_t k, uint64_t u, uint32_t w) { tables.l1_fill.Set(k, u, 0, w); });
  }
  return true;
}

// Thread t's part of every window: its turns, the merge (thread 0), its pending values put right.
void MemoryHierarchy::Impl::Windows::Run(uint32_t t) {
  Part& part = parts[t];
  for (;;) {
    const uint64_t limit = window + m.device.timing.l2_hit;
    try {
      ReplayWindow(part, limit);
    } catch (...) {
      part.error = std::current_exception();
    }
    barrier.Wait();
    if (t == 0) Merge();
    barrier.Wait();
    if (!failed) Resolve(part);
    if (done) return;
  }
}

// ---- a window ----
// The thread's turns before `limit`, as the one-thread replay takes them (Replay), each written
// down with its requests; pushes at or past `limit`, or pending, held until the merge.
void MemoryHierarchy::Impl::Windows::ReplayWindow(Part& part, uint64_t limit) {
  WindowLog& log = part.log;
  uint64_t now;
  for (uint32_t li; part.queue.Pop(&now, &li, limit); ++part.issued) {
    const int64_t ahead = part.queue.Ahead();
    part.ahead.Turn(cursors.data(), ahead < 0 ? -1 : int64_t(part.cursor[size_t(ahead)]), part.issued);
    Cursor& c = cursors[part.cursor[li]];
    if (c.p == c.end) continue;
    const uint64_t turn = log.turns.size();
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
          part.pusher[lk] = WindowLog::kLocal + turn;
          part.sub[lk] = k;
        }
      }
    } else if (!log.TurnWaits() && c.t < limit) {
      part.end = std::max(part.end, c.t);
      if (ended) {
        block_end[c.block_slot] = std::max(block_end[c.block_slot], c.t);
      } else {
        part.queue.Push(c.t, li);
        part.pusher[li] = WindowLog::kLocal + turn;
        part.sub[li] = 0;
      }
    } else {
      log.held.push_back({li, uint32_t(turn), c.t, log.turn_waits, uint32_t(log.waits.size()), ended});
    }
  }
  // No turn of this thread comes before `earliest`: a pending answer comes at `limit` or later.
  part.earliest = part.queue.Earliest();
  for (const auto& h : log.held)
    if (!h.ended)
      part.earliest = std::min(part.earliest, h.waits_end > h.waits_begin ? std::max(h.known, limit) : h.known);
}

// ---- the merge ----
// Every thread's turns of the window in the one-thread replay's order, their requests performed
// on the L2 in it. Each thread's turns are in that order already; of the threads' next turns the
// first is the one of the earliest cycle, then of the earliest pusher, then of the first place
// among its pushes. A pusher of this window not merged yet counts as last: the true next turn's
// pusher came before it, so it has been merged and has its rank.
void MemoryHierarchy::Impl::Windows::Merge() {
  const uint32_t threads = uint32_t(parts.size());
  for (auto& part : parts) {
    failed = failed || part.error;
    part.log.answers.resize(part.log.requests.size());
  }
  head.assign(threads, 0);
  for (;;) {
    uint32_t best = threads;
    uint64_t best_cycle = 0, best_rank = 0;
    uint32_t best_sub = 0;
    for (uint32_t t = 0; t < threads; ++t) {
      const WindowLog& log = parts[t].log;
      if (head[t] == log.turns.size()) continue;
      const WindowLog::Turn& u = log.turns[head[t]];
      uint64_t r = u.pusher;
      if (r >= WindowLog::kLocal) r = r - WindowLog::kLocal < head[t] ? log.ranks[r - WindowLog::kLocal] : ~0ull;
      if (best == threads || u.cycle < best_cycle ||
          (u.cycle == best_cycle && (r < best_rank || (r == best_rank && u.sub < best_sub)))) {
        best = t, best_cycle = u.cycle, best_rank = r, best_sub = u.sub;
      }
    }
    if (best == threads) break;
    WindowLog& log = parts[best].log;
    log.ranks.push_back(++rank);
    MergeTurn(best, log.turns[head[best]]);
    ++head[best];
  }
  // The next window starts where the first turn can be, and no earlier than this one's end.
  uint64_t earliest = ~0ull;
  for (const auto& part : parts) earliest = std::min(earliest, part.earliest);
  const uint64_t limit = window + m.device.timing.l2_hit;
  done = failed || m.Cancelled() || earliest == ~0ull;
  window = std::max(limit, earliest);
}

// One turn's requests on the L2 (L2Read, L2Write, as the one-thread replay's IssueRecord does
// them), and for a traced instruction its L2 lines, its sectors' marks and its place in the L1 log.
void MemoryHierarchy::Impl::Windows::MergeTurn(uint32_t t, const WindowLog::Turn& u) {
  WindowLog& log = parts[t].log;
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
        from = WindowLog::Pending(n.value) ? ServedFrom(log.answers[n.value - WindowLog::kPending].from) : ServedFrom(n.from);
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
// The thread's pending values put right: in-flight entries, L1 stamps, the held pushes (in the
// order they were made, each with its pusher's rank).
void MemoryHierarchy::Impl::Windows::Resolve(Part& part) {
  WindowLog& log = part.log;
  for (const auto& q : log.patches) {
    const WindowLog::Answer& a = log.answers[q.pending - WindowLog::kPending];
    q.table->Patch(q.key, q.pending, a.t, q.sm == ~0u ? 0 : q.sm << 2 | a.from);
  }
  // A stamp is the latest arrival raised since its slot was filled (a refill sets it to 0); one
  // raised by a pending arrival read kMaxStamp meanwhile. Each raise, in order, from the stamp
  // before it (or the value worked out here for the slot's raise before, if none refilled it since).
  if (!log.stamps.empty()) {
    // The slots raised, in an open-addressed table the thread keeps (a tag per window, no clearing).
    size_t size = 64;
    while (size < 2 * log.stamps.size()) size *= 2;
    if (part.stamp_table.size() < size) part.stamp_table.assign(size, {});
    size = part.stamp_table.size();
    if (++part.stamp_tag == 0) part.stamp_table.assign(size, {}), part.stamp_tag = 1;
    part.stamp_slots.clear();
    for (const auto& s : log.stamps) {
      const uint64_t key = uint64_t(s.sm) << 32 | s.slot;
      size_t i = size_t((key * 0x9E3779B97F4A7C15ull) >> 40) & (size - 1);
      while (part.stamp_table[i].tag == part.stamp_tag && part.stamp_table[i].key != key) i = (i + 1) & (size - 1);
      auto& e = part.stamp_table[i];
      uint32_t base = s.prior;
      if (e.tag == part.stamp_tag) {
        if (base != 0) base = e.exact;
      } else {
        e = {key, 0, part.stamp_tag};
        part.stamp_slots.push_back(uint32_t(i));
      }
      e.exact = std::max(base, uint32_t(std::min<uint64_t>(log.Resolve(s.value), kMaxStamp)));
    }
    for (uint32_t i : part.stamp_slots) {
      const auto& e = part.stamp_table[i];
      uint32_t& stamp = m.L1(uint32_t(e.key >> 32)).Stamp(uint32_t(e.key));
      if (stamp != 0) stamp = e.exact;  // else refilled since its last raise
    }
  }
  for (const auto& h : log.held) {
    uint64_t t = h.known;
    for (uint32_t w = h.waits_begin; w < h.waits_end; ++w) t = std::max(t, log.Resolve(log.waits[w]));
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
      part.pusher[h.warp] = log.ranks[h.turn];
      part.sub[h.warp] = 0;
    }
  }
  log.Clear();
}

}  // namespace ws::sim
