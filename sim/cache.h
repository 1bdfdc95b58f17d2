// A sectored set-associative cache: the model behind each SM's L1 and the device's L2.
// 128-byte lines of four 32-byte sectors, one valid and one dirty bit per sector, LRU per set.
//
// What is modelled: capacity, associativity, sector granularity (a line can be present with
// some of its sectors missing: a "sector miss"), allocation on demand, write-back of dirty
// sectors when their line is evicted. Time (misses in flight, their merging) is the
// hierarchy's (sim/memory_clock.h), and what each access does here its policy's
// (sim/cache_policy.h). Not modelled: the real set-index function and replacement policy (NVIDIA
// publishes neither; the model uses LRU over a hashed set index so that power-of-two strides do
// not fall into a few sets), and the L2's split into two partitions.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/geometry.h"

namespace ws::sim {

class SectorCache {
 public:
  static constexpr uint32_t kLineBytes = sim::kLineBytes;  // sim/geometry.h
  static constexpr uint32_t kSectorBytes = sim::kSectorBytes;
  static constexpr uint32_t kSectorsPerLine = sim::kSectorsPerLine;
  static constexpr uint64_t kNoLine = ~0ull;

  struct Config {
    uint64_t bytes = 0;  // capacity (bytes); rounded down to whole sets
    uint32_t ways = 4;   // lines per set
    bool stamps = false; // a 32-bit word per slot for the caller (Stamp), kept with its set
  };
  // Sector-level outcomes of one access.
  enum class Outcome : uint8_t {
    Hit,         // the sector was valid
    SectorMiss,  // the line was present, this sector was not
    Miss,        // the line was not present
  };
  struct Stats {
    uint64_t hits = 0, sector_misses = 0, misses = 0;
    uint64_t evictions = 0;              // lines evicted to make room
    uint64_t written_back_sectors = 0;   // dirty sectors of evicted lines
    Stats& operator+=(const Stats& o);
    uint64_t Accesses() const { return hits + sector_misses + misses; }
  };
  // What the last Access changed, for a picture of the cache: the line filled or updated and
  // the line it evicted (kNoLine if none), the slot (set * ways + way) both used.
  struct Change {
    uint64_t line = kNoLine;     // line address (byte address / 128) now in the slot
    uint64_t evicted = kNoLine;  // line address that left the slot
    uint32_t slot = 0;
    uint8_t valid = 0;           // the slot's valid sectors afterwards (bit i = sector i)
    uint32_t old_stamp = 0;      // with Config::stamps: the slot's stamp before a new line took it
  };

  explicit SectorCache(Config config);
  // Looks up the sector holding byte `addr`. On a miss with `allocate` the sector is filled
  // (the set's least recently used line is evicted if the line is absent and the set is full);
  // `dirty` marks it written (write-back: it reaches DRAM when its line is evicted). A hit
  // makes the line the most recently used. Without `allocate` nothing changes on a miss.
  Outcome Access(uint64_t addr, bool allocate, bool dirty = false);
  bool Contains(uint64_t addr) const;  // the sector is valid (no LRU update)
  // The first byte of the memory of the set holding `addr`, for the caller to prefetch before
  // it asks (a set is one 64-byte line for an L1's 4 ways; the hierarchy's replay does).
  const void* SetMemory(uint64_t addr) const { return Set(SetOf(addr / kLineBytes)).fp; }
  // With Config::stamps: the caller's word of a slot (0 when its line was filled; the slot of the
  // last Access is last_change().slot), in its set's memory, so reading it costs no cache miss
  // more than the access did.
  uint32_t& Stamp(uint32_t slot) const { return Set(slot / config_.ways).stamp[slot % config_.ways]; }
  void Reset();
  // Writes every page of the sets' memory, changing nothing, before any look-up reads it. A page
  // calloc left unmapped and that a look-up read maps as the kernel's zero page; its first write
  // then costs a TLB flush on every core the process runs on. Part `part` of `parts` equal parts
  // of the pages: threads may share the work.
  void Touch(uint32_t part = 0, uint32_t parts = 1);

  const Config& config() const { return config_; }
  uint32_t Sets() const { return sets_; }
  uint32_t Ways() const { return config_.ways; }
  const Stats& stats() const { return stats_; }
  const Change& last_change() const { return change_; }
  // The set a line maps to, and the way that holds it (-1: absent); no LRU update.
  uint32_t SetOfLine(uint64_t line) const { return SetOf(line); }
  int WayOf(uint64_t line) const { return Find(Set(SetOf(line)), line, Fingerprint(line)); }
  // A set's slots, most recently used first, then the empty ones: lines[i] (kNoLine if empty)
  // and valid[i], Ways() of each.
  void SetByRecency(uint32_t set, uint64_t* lines, uint8_t* valid) const;
  // The line address held by a slot (kNoLine if empty) and its valid sectors.
  uint64_t SlotLine(uint32_t slot) const;
  uint8_t SlotValid(uint32_t slot) const { return StateOf(slot) & 0xf; }

 private:
  // The state is kept set by set so that one lookup reads one set's memory, not three arrays
  // at random (the L2 of an H100 is 25,600 sets): per set, `ways` bytes each of fingerprint
  // (8 bits of the line's hash, compared before the full tag), state (valid sectors in bits
  // 0-3, dirty sectors in bits 4-7; 0: the slot is empty) and LRU rank (0: most recently used;
  // the valid slots' ranks are 0 .. valid - 1), then `ways` 64-bit tags (line addresses),
  // padded to whole 64-byte lines. Ranks order the lines as last-use stamps did: the victim
  // is the first empty slot, else the line of rank ways - 1.
  struct alignas(64) Block {
    uint64_t word[8];
  };
  struct SetRef {
    uint8_t* fp;
    uint8_t* state;
    uint8_t* rank;
    uint64_t* tag;
    uint32_t* stamp;  // after the tags (Config::stamps), else null
  };
  uint32_t SetOf(uint64_t line) const;
  static uint8_t Fingerprint(uint64_t line) { return uint8_t((line * 0x9E3779B97F4A7C15ull) >> 24); }
  SetRef Set(uint32_t set) const;
  int Find(const SetRef& s, uint64_t line, uint8_t fp) const;  // the way holding line, or -1
  void Touch(const SetRef& s, uint32_t way, uint8_t rank) const;  // way becomes the most recent
  uint8_t StateOf(uint32_t slot) const { return Set(slot / config_.ways).state[slot % config_.ways]; }
  Config config_;
  uint32_t sets_ = 0;
  uint64_t set_magic_ = 0;  // ~0 / sets_ + 1: the remainder by sets_ without a division (SetOf)
  uint32_t meta_words_ = 0;  // 64-bit words of fingerprints, states and ranks per set
  uint32_t set_words_ = 0;   // 64-bit words per set (meta_words_ + ways [+ stamps], padded to a Block)
  // The sets, zeroed (all slots empty). From calloc: a large block comes from mmap as pages the
  // kernel zeroes when first touched, so a launch that touches few of the L2's sets does not
  // clear all 4.9 MB of it.
  struct Free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, Free> memory_;
  Block* store_ = nullptr;  // memory_ aligned to 64 bytes
  size_t blocks_ = 0;
  Stats stats_;
  Change change_;
};

}  // namespace ws::sim
