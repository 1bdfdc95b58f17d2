// The sectored set-associative cache (see cache.h for what it models).
#include "sim/cache.h"

#include "sim/trace.h"

#include <algorithm>

namespace ws::sim {

SectorCache::Stats& SectorCache::Stats::operator+=(const Stats& o) {
  hits += o.hits;
  sector_misses += o.sector_misses;
  misses += o.misses;
  evictions += o.evictions;
  written_back_sectors += o.written_back_sectors;
  return *this;
}

SectorCache::SectorCache(Config config) : config_(config) {
  if (config_.ways == 0) config_.ways = 1;
  sets_ = uint32_t(config_.bytes / kLineBytes / config_.ways);
  if (sets_ == 0) sets_ = 1, config_.ways = std::max<uint32_t>(1, uint32_t(config_.bytes / kLineBytes));
  set_magic_ = ~uint64_t(0) / sets_ + 1;
  tags_.assign(size_t(sets_) * config_.ways, kNoLine);
  used_.assign(tags_.size(), 0);
  state_.assign(tags_.size(), 0);
}

void SectorCache::Reset() {
  std::fill(tags_.begin(), tags_.end(), kNoLine);
  std::fill(used_.begin(), used_.end(), 0);
  std::fill(state_.begin(), state_.end(), 0);
  clock_ = 0;
  stats_ = {};
  change_ = {};
}

// A multiplicative hash of the line address: neighbouring lines land in different sets, and so
// do lines a power of two apart (a column of a matrix), as the hardware's hashed index does.
// The remainder of the 32-bit hash by sets_ is computed as Lemire, Kaser and Kurz's "fastmod"
// ("Faster remainder by direct computation", 2019: exact for 32-bit operands): the same set as
// `hash % sets_`, without a 64-bit division on every access (docs/PERFORMANCE.md).
uint32_t SectorCache::SetOf(uint64_t line) const {
  if (sets_ == 1) return 0;
  const uint32_t hash = uint32_t((line * 0x9E3779B97F4A7C15ull) >> 32);
  return uint32_t((static_cast<unsigned __int128>(set_magic_ * hash) * sets_) >> 64);
}

bool SectorCache::Contains(uint64_t addr) const {
  const uint64_t line = addr / kLineBytes;
  const uint32_t bit = 1u << (addr / kSectorBytes % kSectorsPerLine);
  const size_t base = size_t(SetOf(line)) * config_.ways;
  for (uint32_t w = 0; w < config_.ways; ++w)
    if (tags_[base + w] == line) return state_[base + w] & bit;
  return false;
}

SectorCache::Outcome SectorCache::Access(uint64_t addr, bool allocate, bool dirty) {
  const uint64_t line = addr / kLineBytes;
  const uint8_t bit = uint8_t(1u << (addr / kSectorBytes % kSectorsPerLine));
  const size_t base = size_t(SetOf(line)) * config_.ways;
  const uint32_t ways = config_.ways;
  ++clock_;
  size_t victim = base;
  for (uint32_t w = 0; w < ways; ++w) {
    const size_t s = base + w;
    if (tags_[s] == line) {
      change_ = {line, kNoLine, uint32_t(s), uint8_t(state_[s] & 0xf)};
      if (state_[s] & bit) {
        used_[s] = clock_;
        if (dirty) state_[s] |= uint8_t(bit << 4);
        ++stats_.hits;
        return Outcome::Hit;
      }
      ++stats_.sector_misses;
      if (allocate) {
        used_[s] = clock_;
        state_[s] |= uint8_t(bit | (dirty ? bit << 4 : 0));
        change_.valid = state_[s] & 0xf;
      }
      return Outcome::SectorMiss;
    }
    // The victim: an empty slot if there is one, else the least recently used.
    if (tags_[victim] != kNoLine && (tags_[s] == kNoLine || used_[s] < used_[victim])) victim = s;
  }
  ++stats_.misses;
  change_ = {kNoLine, kNoLine, uint32_t(victim), 0};
  if (!allocate) return Outcome::Miss;
  if (tags_[victim] != kNoLine) {
    ++stats_.evictions;
    stats_.written_back_sectors += PopCount(state_[victim] >> 4);
    change_.evicted = tags_[victim];
  }
  tags_[victim] = line;
  used_[victim] = clock_;
  state_[victim] = uint8_t(bit | (dirty ? bit << 4 : 0));
  change_.line = line;
  change_.valid = bit;
  return Outcome::Miss;
}

}  // namespace ws::sim
