// The memory hierarchy's state and its replay (see hierarchy.h), shared by sim/hierarchy.cpp (the
// recording, the replay on one thread, the finish) and sim/replay_window.cpp (the last replay on
// several threads). Section index: recording · replay · a turn · L2 · finish
#pragma once
#include "sim/hierarchy.h"

#include "sim/cache_log.h"
#include "sim/cache_policy.h"
#include "sim/rules.h"
#include "sim/memory_clock.h"
#include "sim/replay_window.h"
#include "sim/sector_stream.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace ws::sim {

struct MemoryHierarchy::Impl {
  const DeviceProfile& device;
  uint32_t registers;
  LaunchShape shape;
  std::vector<Counters>* per_site;
  Trace* trace;
  int64_t traced_block;
  uint32_t traced_sm = ~0u;
  bool log_l1 = false;       // the traced SM's L1 is being logged
  uint64_t logged_until_wave = 0;

  Residency residency;
  bool fixed = false;
  uint64_t waves = 0;
  const std::atomic<bool>* cancel = nullptr;  // set: stop replaying at the next turn
  std::function<void()> traced_final;         // WhenTracedFinal
  uint32_t code_bytes = kEmptyKernelCodeBytes;  // the kernel's code, read from DRAM once
  uint64_t wave_start = 0;  // first block of the wave being recorded
  WaveStreams streams;  // the wave being recorded
  std::vector<std::unique_ptr<SectorCache>> l1;  // per SM, made on first use
  std::unique_ptr<SectorCache> l2;
  // Time (memory_clock.h): sectors in flight to a merge group of SMs (key: sector x kMaxGroups +
  // group; owner: the SM that asked << 2 | where the data comes from), sectors DRAM is filling
  // into L2, L1 lines that a wide store has not yet placed (key: SM << 48 | line), and sectors a
  // load's miss allocated in an SM's L1 that are still on their way there (key: SM << 48 |
  // sector). `clock`: where the next wave starts.
  static constexpr uint64_t kMaxGroups = 256;
  struct SmTables {  // keyed by SM or merge group: each thread of a replay in windows has its own
    InFlight group_flight, wide_store, l1_fill;
  };
  SmTables tables;
  InFlight l2_fill;
  uint32_t replay_threads = 1;  // the last replay's threads (sim/replay_window.cpp)
  IssueQueue ready;  // the replay's warps by the cycle they issue next
  // Per place in a wave (block b - wave start): when the block there last started (first wave) or
  // ended (after a replay), the cycle the next wave's block at that place starts.
  std::vector<uint64_t> slot_end;
  uint64_t clock = 0;
  static constexpr uint64_t kMaxStamp = WindowLog::kMaxStamp;  // L1 slot stamps: cycles up to this
  // A prefix replay (CutWarp): the traced instructions recorded and those issued before it stopped.
  bool any_cut = false;
  std::vector<uint8_t> traced_recorded, traced_issued;
  SectorCache::Change l2_change;  // what the L2 lookup of the sector being served changed
  StepL2Lines step_l2;  // a traced instruction's L2 lines while it is issued

  Impl(const DeviceProfile& d, uint32_t regs, const LaunchShape& s, std::vector<Counters>* ps,
       Trace* t, int64_t tb, uint64_t buffer_bytes)
      : device(d), registers(regs ? regs : kDefaultRegistersPerThread), shape(s), per_site(ps),
        trace(t), traced_block(tb), streams(buffer_bytes) {
    l2 = std::make_unique<SectorCache>(SectorCache::Config{device.l2_bytes, device.l2_ways});
    if (traced_block >= 0) traced_sm = SmOfBlock(device, uint64_t(traced_block));
  }

  // Residency is decided once block 0 has run: its shared arrays are then known.
  void Fix(uint64_t shared_bytes);

  SectorCache& L1(uint32_t sm) {
    if (!l1[sm]) l1[sm] = std::make_unique<SectorCache>(SectorCache::Config{residency.l1_bytes, device.l1_ways, true});
    return *l1[sm];
  }

  // ---- recording ----
  void BeginBlock(uint64_t block, uint32_t warps, uint64_t shared_bytes);

  void Record(const WarpInstruction& ins, int64_t trace_index, const uint64_t* given, int given_n);

  void Barrier() {
    if (!streams.blocks().empty()) streams.Barrier();
  }
  void AdoptBlock(std::vector<WarpStream>&& warps, std::vector<uint32_t> sites) {
    if (!streams.blocks().empty()) streams.Adopt(std::move(warps), std::move(sites));
  }

  static void Note(std::vector<uint8_t>& v, int64_t i) {
    if (v.size() <= size_t(i)) v.resize(size_t(i) + 1, 0);
    v[size_t(i)] = 1;
  }

  void CutWarp(uint32_t warp);

  // ---- replay ----
  // A warp's place in its stream: its spilled chunks are read through a small window, then
  // its records in memory are read in place. p == end: the warp has no record left.
  // What a turn reads comes first, in the cursor's first two cache lines (a turn is a cache miss
  // on another warp's cursor: 8,448 of them in rotation); the spill window's state after them.
  struct alignas(64) Cursor {
    BlockStream* block;
    const uint8_t* p = nullptr;
    const uint8_t* end = nullptr;
    uint64_t t = 0;  // the warp's clock: when it issues its next record (cycles)
    // Where its next record's first sector will be looked up: its L1 set and its slot in the
    // table of sectors on their way to the L1 (null: none; see NextHints).
    const void* next_set = nullptr;
    const void* next_fill = nullptr;
    const uint32_t* sites = nullptr;  // its block's BlockStream::sites (null: the launch's ids)
    uint32_t block_slot;
    bool waiting = false;
    bool cut = false;        // its stream ends before the warp did (CutWarp)
    bool in_memory = false;  // reading warp->bytes
    uint64_t last[kSiteSlots] = {};
    const WarpStream* warp;
    size_t chunk = 0;        // the spilled chunk being read
    uint64_t chunk_read = 0; // its bytes already in the window
    std::vector<uint8_t> window;
  };

  // Keeps at least one whole record ahead of c.p (chunks hold whole records), or moves to the
  // next chunk, or to the records in memory once the chunks are read.
  void Refill(Cursor& c) const {
    const WarpStream& w = *c.warp;
    while (!c.in_memory && size_t(c.end - c.p) < kMaxRecordBytes) {
      const size_t left = size_t(c.end - c.p);
      if (c.chunk < w.spilled.size() && c.chunk_read < w.spilled[c.chunk].bytes) {
        const SpilledChunk& k = w.spilled[c.chunk];
        if (c.window.empty()) c.window.resize(kWindowBytes);
        if (left) std::memmove(c.window.data(), c.p, left);
        const size_t take = size_t(std::min<uint64_t>(kWindowBytes - left, k.bytes - c.chunk_read));
        streams.spill().Read(k.offset + c.chunk_read, c.window.data() + left, take);
        c.chunk_read += take;
        c.p = c.window.data();
        c.end = c.p + left + take;
      } else if (left) {
        return;  // the rest of a chunk: whole records
      } else if (c.chunk + 1 < w.spilled.size()) {
        ++c.chunk;
        c.chunk_read = 0;
      } else {
        std::vector<uint8_t>().swap(c.window);
        c.in_memory = true;
        c.p = w.bytes.data();
        c.end = c.p + w.bytes.size();
      }
    }
  }

  bool Cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }

  // The warps come in no order memory likes: the cursor of the warp kAhead turns on is fetched,
  // and kAhead / 2 turns later (when that warp is as many turns away) its record and the L1 set
  // of the record's first sector, which its cursor names (most of a replay's time is waiting
  // for them). `seen`: the look-ahead of the last kAhead turns.
  struct Prefetcher {
    static constexpr size_t kAhead = IssueQueue::kAhead;
    int64_t seen[kAhead];
    Prefetcher() { std::fill(seen, seen + kAhead, -1); }
    // At turn `issued`, the queue's look-ahead j (a cursor, or -1).
    void Turn(const Cursor* cursors, int64_t j, size_t issued) {
      if (j >= 0) {
        __builtin_prefetch(&cursors[size_t(j)]);
        __builtin_prefetch(reinterpret_cast<const char*>(&cursors[size_t(j)]) + 64);
      }
      seen[issued % kAhead] = j;
      if (const int64_t h = seen[(issued + kAhead / 2) % kAhead]; h >= 0) {
        const Cursor& n = cursors[size_t(h)];
        __builtin_prefetch(n.p);
        if (n.next_set) {
          __builtin_prefetch(n.next_set, 1);
          __builtin_prefetch(n.next_fill);
        }
      }
    }
  };

  // The slice of the device a merge group of SMs is in: IssueQueue::kKeys ranges of groups, in
  // order, the queue's keys. A cycle's warps issue slice by slice, so that a replay on several
  // threads, each of which takes whole slices, can take the same order (sim/replay_window.h).
  uint32_t SliceOfGroup(uint32_t group) const {
    const uint32_t group_sms = std::max<uint32_t>(device.merge_group_sms, 1);
    const uint64_t groups = (device.sms + group_sms - 1) / group_sms;
    return uint32_t(uint64_t(group) * IssueQueue::kKeys / std::max<uint64_t>(groups, 1));
  }
  uint32_t SliceOfSm(uint32_t sm) const { return SliceOfGroup(sm / std::max<uint32_t>(device.merge_group_sms, 1)); }

  // Replays the wave recorded (last: the launch's last, from Finish).
  void Replay(bool last = false);

  // The launch's last replay on several threads (sim/replay_window.cpp; only the last: what it
  // leaves in flight is not kept for another): false, with nothing done, where the device's
  // latencies or its merge groups do not allow it or one group holds every warp.
  struct Windows;
  bool ReplayInWindows(std::vector<Cursor>& cursors, const std::vector<uint32_t>& first,
                       std::vector<uint32_t>& arrived, std::vector<uint64_t>& block_end, uint64_t start,
                       uint64_t& end, bool log_now);

  // The L1 set and the l1_fill slot of the first sector of the warp's next record (decoded, not
  // consumed), for a prefetch before its turn; null if it has none, or its SM's L1 is not made yet.
  void NextHints(Cursor& c, const SmTables& tb) const {
    c.next_set = c.next_fill = nullptr;
    if (c.p == c.end || !l1[c.block->sm]) return;
    const uint8_t* q = c.p;  // a whole record lies ahead (Refill)
    const uint64_t head = GetVarint(q);
    if (head == 0) return;  // a barrier
    const uint32_t recorded_site = uint32_t((head >> 3) - 1);
    if (head & 1) GetVarint(q);  // its trace index
    GetVarint(q);                // n
    const uint64_t sector = c.last[recorded_site % kSiteSlots] + uint64_t(UnZigZag(GetVarint(q)));
    c.next_set = l1[c.block->sm]->SetMemory(sector * SectorCache::kSectorBytes);
    c.next_fill = tb.l1_fill.SlotMemory(uint64_t(c.block->sm) << 48 | sector);
  }

  // ---- a turn ----
  // Issues the warp's next record: an instruction (false), or its arrival at a barrier (true).
  // On one thread (kWindow false) everything is done at once; in a window of the replay on several
  // threads (sim/replay_window.h) `tb` is the thread's own tables and each L2 access a request
  // written down in `w`, its answer pending until the window's merge (L2Write, L2Read).
  template <bool kWindow>
  bool IssueRecord(Cursor& c, bool log_now, SmTables& tb, WindowLog* w) {
    const uint8_t* q = c.p;  // read here, in a register, and stored once at the end
    const uint64_t head = GetVarint(q);
    if (head == 0) {
      c.p = q;
      return true;
    }
    const uint32_t recorded_site = uint32_t((head >> 3) - 1);  // as its encoder numbered it
    const uint32_t site = c.sites ? c.sites[recorded_site] : recorded_site;
    const Op op = Op((head >> 1) & 3);
    const int64_t trace_index = (head & 1) ? int64_t(GetVarint(q)) : -1;
    const int n = int(GetVarint(q));
    uint64_t& last = c.last[recorded_site % kSiteSlots];
    uint64_t sector = last + uint64_t(UnZigZag(GetVarint(q)));
    last = sector;
    Counters& k = kWindow ? w->per_site[site] : (*per_site)[site];
    if constexpr (kWindow) w->Instruction(site, uint8_t(op), trace_index);
    SectorCache& l1c = L1(c.block->sm);
    const bool log = log_now && c.block->sm == traced_sm;
    const auto& tm = device.timing;
    const AccessPolicy& p = device.cache_policy.Of(op);
    const uint64_t now = c.t;
    uint64_t served = 0, data = now;  // data: when the last sector the warp waits for arrives
    uint64_t missed_line = ~0ull;     // a line this instruction found absent (l1_hit_by_line)
    const int o = int(op);
    // An allocating write to more lines than wide_store_lines places them in L1 only
    // wide_store_delay later.
    const bool wide = p.writes && p.l1_allocate && n > int(tm.wide_store_lines) && WideStore(q, sector, n);
    // Dirty L2 sectors that the record's accesses evict reach DRAM (counted once for the record).
    const uint64_t written_back = kWindow ? 0 : l2->stats().written_back_sectors;
    // A traced instruction's L2 lines, for the L2 view (see Trace::Caches::L2Line).
    const bool note_l2 = trace_index >= 0 && size_t(trace_index) < trace->instructions.size();
    if (!kWindow && note_l2) step_l2.Begin();
    for (int i = 0; i < n; ++i) {
      if (i) sector += GetVarint(q) + 1;
      const uint64_t addr = sector * SectorCache::kSectorBytes;
      ServedFrom from = ServedFrom::L2;
      const uint64_t l2_lookups = kWindow ? w->requests.size() : note_l2 ? l2->stats().Accesses() : 0;
      uint64_t value = 0;  // kWindow: the sector's answer (a traced instruction's note)
      bool l1_hit = false;
      if (p.l1_lookup) {
        const auto r1 = l1c.Access(addr, p.l1_allocate);
        // A new line in the slot: a stamp that waited for pending arrivals (a marker) no longer
        // waits.
        if (kWindow && r1 == SectorCache::Outcome::Miss && p.l1_allocate) w->Refilled(l1c.last_change().old_stamp);
        if (p.l1_hit_by_line) {
          // The line's presence when the instruction first touched it decides: its own allocation
          // does not make its later sectors hits (ncu counts a 4-sector store to an absent line as
          // 4 misses), nor does a line a wide store placed less than wide_store_delay ago.
          const uint64_t line = sector / SectorCache::kSectorsPerLine;
          const uint64_t line_key = uint64_t(c.block->sm) << 48 | line;
          const bool placed = tb.wide_store.Until(line_key, now) == 0;
          if (r1 == SectorCache::Outcome::Miss) missed_line = line;
          l1_hit = r1 != SectorCache::Outcome::Miss && placed && line != missed_line;
          if (wide || !placed) tb.wide_store.Set(line_key, now + tm.wide_store_delay, now);
        } else {
          l1_hit = r1 == SectorCache::Outcome::Hit;
        }
        if (log) LogL1Change(*trace, l1c);
      }
      if (l1_hit) ++k.l1_hits[o];
      if (p.writes) {
        // Written at L2 (through L1, or performed there).
        if constexpr (kWindow) w->Wait(data, value = w->Request(sector));
        else data = std::max(data, L2Write(sector, now, o, k, p, from));
      } else if (l1_hit) {
        // A hit on a sector still on its way (another warp's miss allocated it) has its data when
        // the sector arrives, not an L1 round trip on: measured, a second warp asking 160 cycles
        // after the first got the sector at the first's cycle, 641 cycles on
        // (tools/reports/cache_probe_clocks_H200.txt, "ld2 dram delay=100").
        // The slot's stamp is the latest arrival of a sector of its line (saturated at
        // kMaxStamp): where it has passed, nothing of the line is on its way and l1_fill, a
        // cache miss, need not be asked. (A pending arrival is past the window's end: its
        // stamp is a marker until the merge, above every cycle compared with it: PendingStamps.)
        from = ServedFrom::L1;
        const uint32_t stamp = l1c.Stamp(l1c.last_change().slot);
        const uint64_t arrives = stamp > now || now >= (kWindow ? PendingStamps::kMarkerBase : kMaxStamp)
                                     ? tb.l1_fill.Until(uint64_t(c.block->sm) << 48 | sector, now) : 0;
        if constexpr (kWindow) {
          data = std::max(data, now + tm.l1_hit);
          w->Wait(data, arrives);
        } else {
          data = std::max(data, std::max(now + tm.l1_hit, arrives));
        }
      } else {
        const uint64_t arrives = ReadL2<kWindow>(sector, c.block->sm, now, o, k, from, tb, w);
        if (p.l1_allocate) {
          const uint64_t key = uint64_t(c.block->sm) << 48 | sector;
          tb.l1_fill.Set(key, arrives, now);
          if (kWindow && WindowLog::Pending(arrives)) w->AddPatch(&tb.l1_fill, key, arrives, ~0u);
          if (p.l1_lookup) {
            uint32_t& stamp = l1c.Stamp(l1c.last_change().slot);
            if constexpr (kWindow) w->RaiseStamp(c.block->sm, l1c.last_change().slot, stamp, arrives);
            else stamp = std::max(stamp, uint32_t(std::min<uint64_t>(arrives, kMaxStamp)));
          }
        }
        if constexpr (kWindow) w->Wait(data, value = arrives);
        else data = std::max(data, arrives);
      }
      if constexpr (kWindow) {
        if (note_l2)
          w->notes.push_back({sector, value, uint8_t(from),
                              uint8_t(from == ServedFrom::L1 ? WindowLog::kL1
                                      : w->requests.size() == l2_lookups ? WindowLog::kMerged : WindowLog::kRequest)});
      } else {
        served |= uint64_t(from) << (2 * i);
        if (note_l2 && from != ServedFrom::L1) step_l2.Note(sector, from, l2->stats().Accesses() == l2_lookups, l2_change);
      }
    }
    c.p = q;
    // The warp waits for the data it needs before its next instruction; else it goes on at once.
    c.t = std::max(now + 1, p.waits ? data : now + 1);
    if constexpr (kWindow) {
      if (!p.waits) w->DropWaits();
      return false;  // the rest is the merge's (WindowMerge)
    }
    k.dram_write_bytes += (l2->stats().written_back_sectors - written_back) * SectorCache::kSectorBytes;
    if (note_l2) step_l2.Keep(*trace, *l2, size_t(trace_index));
    if (any_cut && trace_index >= 0) Note(traced_issued, trace_index);
    if (note_l2) {
      trace->instructions[trace_index].served = served;
      NoteL1Events(size_t(trace_index), trace->caches.l1_events.size());
    }
    return false;
  }

  // Where the traced SM's L1 log stood when traced instruction i was issued.
  void NoteL1Events(size_t i, size_t events) {
    auto& until = trace->caches.l1_events_until;
    if (until.size() < trace->instructions.size()) until.resize(trace->instructions.size(), ~0u);
    until[i] = uint32_t(events);
  }

  // ---- L2 ----
  // An L1 miss of `sector` at `now` (op o): merged with the same sector in flight for another SM
  // of its merge group (no L2 read of its own: its data comes with the other's), else an L2 read
  // (L2Read; in a window, a request). Returns when the data reaches the SM; `from` says where it
  // came from.
  template <bool kWindow>
  uint64_t ReadL2(uint64_t sector, uint32_t sm, uint64_t now, int o, Counters& k, ServedFrom& from,
                  SmTables& tb, WindowLog* w) {
    const uint64_t key = sector * kMaxGroups + sm / std::max<uint32_t>(device.merge_group_sms, 1) % kMaxGroups;
    const InFlight::Entry f = tb.group_flight.Find(key, now);
    if (f.until && f.owner >> 2 != sm) {
      from = ServedFrom(f.owner & 3);
      return f.until;
    }
    uint64_t t;
    if constexpr (kWindow) {
      t = w->Request(sector);
      w->AddPatch(&tb.group_flight, key, t, sm);
    } else {
      t = L2Read(sector, now, o, k, from);
    }
    tb.group_flight.Set(key, t, now, sm << 2 | uint32_t(from));
    return t;
  }

  // An L2 read of `sector` at `now`: a hit (waiting for the sector if DRAM is still filling it) or
  // a miss that DRAM fills. Returns when the data reaches the SM; `from` is set to Dram for a miss.
  uint64_t L2Read(uint64_t sector, uint64_t now, int o, Counters& k, ServedFrom& from) {
    const auto& tm = device.timing;
    ++k.l2_sectors[o];
    const bool hit = l2->Access(sector * SectorCache::kSectorBytes, true) == SectorCache::Outcome::Hit;
    l2_change = l2->last_change();
    if (hit) {
      ++k.l2_hits[o];
      const uint64_t fill = l2_fill.Until(sector, now);
      return fill ? std::max(now + tm.l2_hit, fill + tm.l2_hit / 2) : now + tm.l2_hit;
    }
    from = ServedFrom::Dram;
    return FillFromDram(sector, now, k);
  }

  // A store's or an atomic's sector written at L2 at `now` (through L1, or performed there). ncu's
  // lts__t_sector_hit_rate counts a write that needs no fill from DRAM as a hit. Returns when
  // L2 answers; `from` is set to Dram when DRAM fills it.
  uint64_t L2Write(uint64_t sector, uint64_t now, int o, Counters& k, const AccessPolicy& p, ServedFrom& from) {
    ++k.l2_sectors[o];
    const bool l2_hit = l2->Access(sector * SectorCache::kSectorBytes, true, true) == SectorCache::Outcome::Hit;
    l2_change = l2->last_change();
    if (!device.cache_policy.l2_write_back) k.dram_write_bytes += SectorCache::kSectorBytes;
    if (l2_hit || !p.l2_fill) {
      ++k.l2_hits[o];
      return now + device.timing.l2_hit;
    }
    from = ServedFrom::Dram;
    return FillFromDram(sector, now, k);
  }

  // An L2 miss of `sector` (already allocated in L2) at `now`: DRAM is read in aligned pieces of
  // dram_fetch_bytes (a sector pair on Hopper), and every sector of the piece that L2 lacked is
  // filled, arriving at L2 half an L2 round trip before the data reaches the SM. Returns when it
  // reaches the SM.
  uint64_t FillFromDram(uint64_t sector, uint64_t now, Counters& k) {
    const auto& tm = device.timing;
    const uint64_t per_fetch = std::max<uint32_t>(device.dram_fetch_bytes / SectorCache::kSectorBytes, 1);
    const uint64_t first = sector / per_fetch * per_fetch;
    const uint64_t at_l2 = now + tm.dram - tm.l2_hit / 2;
    uint32_t fetched = 1;
    for (uint64_t s = first; s < first + per_fetch; ++s)
      if (s != sector && !l2->Contains(s * SectorCache::kSectorBytes)) {
        l2->Access(s * SectorCache::kSectorBytes, true);
        l2_fill.Set(s, at_l2, now);
        ++fetched;
      }
    k.dram_read_bytes += uint64_t(fetched) * SectorCache::kSectorBytes;
    l2_fill.Set(sector, at_l2, now);
    return now + tm.dram;
  }

  // Whether an instruction's n sectors, the first `first`, the others' gaps next in the record
  // (read ahead, not consumed), lie in more than wide_store_lines lines.
  bool WideStore(const uint8_t* p, uint64_t first, int n) const {
    uint64_t s = first, line = first / SectorCache::kSectorsPerLine;
    uint32_t lines = 1;
    for (int i = 1; i < n; ++i) {
      s += GetVarint(p) + 1;
      if (s / SectorCache::kSectorsPerLine != line) ++lines, line = s / SectorCache::kSectorsPerLine;
    }
    return lines > device.timing.wide_store_lines;
  }

  // ---- finish ----
  void Finish(uint64_t shared_bytes);
};

}  // namespace ws::sim
