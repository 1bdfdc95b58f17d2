// A sectored set-associative cache: the model behind each SM's L1 and the device's L2.
// 128-byte lines of four 32-byte sectors, one valid and one dirty bit per sector, LRU per set.
//
// What is modelled: capacity, associativity, sector granularity (a line can be present with
// some of its sectors missing: a "sector miss"), allocation on demand, write-back of dirty
// sectors when their line is evicted. What is not: timing (misses in flight, merging of
// misses to one sector by several warps while the first is outstanding), the real set-index
// function and replacement policy (NVIDIA publishes neither; the model uses LRU over a hashed
// set index so that power-of-two strides do not fall into a few sets), and the L2's split into
// two partitions.
#pragma once
#include <cstdint>
#include <vector>

namespace ws::sim {

class SectorCache {
 public:
  static constexpr uint32_t kLineBytes = 128;
  static constexpr uint32_t kSectorBytes = 32;
  static constexpr uint32_t kSectorsPerLine = kLineBytes / kSectorBytes;
  static constexpr uint64_t kNoLine = ~0ull;

  struct Config {
    uint64_t bytes = 0;  // capacity (bytes); rounded down to whole sets
    uint32_t ways = 4;   // lines per set
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
  };

  explicit SectorCache(Config config);
  // Looks up the sector holding byte `addr`. On a miss with `allocate` the sector is filled
  // (the set's least recently used line is evicted if the line is absent and the set is full);
  // `dirty` marks it written (write-back: it reaches DRAM when its line is evicted). A hit
  // makes the line the most recently used. Without `allocate` nothing changes on a miss.
  Outcome Access(uint64_t addr, bool allocate, bool dirty = false);
  bool Contains(uint64_t addr) const;  // the sector is valid (no LRU update)
  void Reset();

  const Config& config() const { return config_; }
  uint32_t Sets() const { return sets_; }
  uint32_t Ways() const { return config_.ways; }
  const Stats& stats() const { return stats_; }
  const Change& last_change() const { return change_; }
  // The line address held by a slot (kNoLine if empty) and its valid sectors.
  uint64_t SlotLine(uint32_t slot) const { return tags_[slot]; }
  uint8_t SlotValid(uint32_t slot) const { return state_[slot] & 0xf; }

 private:
  uint32_t SetOf(uint64_t line) const;
  Config config_;
  uint32_t sets_ = 0;
  uint64_t set_magic_ = 0;  // ~0 / sets_ + 1: the remainder by sets_ without a division (SetOf)
  uint64_t clock_ = 0;
  std::vector<uint64_t> tags_;   // per slot: line address or kNoLine
  std::vector<uint64_t> used_;   // per slot: clock_ at last use (LRU)
  std::vector<uint8_t> state_;   // per slot: valid sectors (bits 0-3), dirty sectors (bits 4-7)
  Stats stats_;
  Change change_;
};

}  // namespace ws::sim
