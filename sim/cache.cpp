// The sectored set-associative cache (see cache.h for what it models).
#include "sim/cache.h"

#include "sim/trace.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
  if (config_.ways > 255) config_.ways = 255;  // a rank is one byte (see cache.h)
  sets_ = uint32_t(config_.bytes / kLineBytes / config_.ways);
  if (sets_ == 0) sets_ = 1, config_.ways = std::clamp<uint32_t>(uint32_t(config_.bytes / kLineBytes), 1, 255);
  set_magic_ = ~uint64_t(0) / sets_ + 1;
  meta_words_ = (3 * config_.ways + 7) / 8;
  set_words_ = (meta_words_ + config_.ways + (config_.stamps ? (config_.ways + 1) / 2 : 0) + 7) / 8 * 8;
  blocks_ = size_t(sets_) * set_words_ / 8;
  memory_.reset(std::calloc(blocks_ * sizeof(Block) + alignof(Block), 1));
  if (!memory_) throw std::bad_alloc();
  const uintptr_t at = reinterpret_cast<uintptr_t>(memory_.get());
  store_ = reinterpret_cast<Block*>((at + alignof(Block) - 1) / alignof(Block) * alignof(Block));
}

void SectorCache::Free::operator()(void* p) const { std::free(p); }

// One write per page that reads nothing first (an atomic OR of 0 is one write access): a read
// would map the page to the shared zero page, and the write after it would replace that mapping,
// which makes the kernel flush the TLBs of every other core running the process (an interrupt
// per page; 1% of two threads' samples, perf, when each replay thread touched its own L1s).
void SectorCache::Touch(uint32_t part, uint32_t parts) {
  char* p = reinterpret_cast<char*>(store_);
  const size_t pages = (blocks_ * sizeof(Block) + 4095) / 4096;
  const size_t end = std::min(blocks_ * sizeof(Block), pages * (part + 1) / parts * 4096);
  for (size_t i = pages * part / parts * 4096; i < end; i += 4096) __atomic_fetch_or(p + i, char(0), __ATOMIC_RELAXED);
}

void SectorCache::Reset() {
  std::memset(static_cast<void*>(store_), 0, blocks_ * sizeof(Block));
  stats_ = {};
  change_ = {};
}

// The set's parts (see cache.h). Const because lookups that change nothing (Contains, SlotLine)
// use it too; Access is the only caller that writes through it.
SectorCache::SetRef SectorCache::Set(uint32_t set) const {
  uint64_t* p = store_->word + size_t(set) * set_words_;
  uint8_t* m = reinterpret_cast<uint8_t*>(p);
  const uint32_t w = config_.ways;
  return {m, m + w, m + 2 * w, p + meta_words_,
          config_.stamps ? reinterpret_cast<uint32_t*>(p + meta_words_ + w) : nullptr};
}

int SectorCache::Find(const SetRef& s, uint64_t line, uint8_t fp) const {
  const uint32_t ways = config_.ways;
#if defined(__SSE2__)
  if (ways == 16) {  // the L2's sets: the 16 fingerprints compared at once
    const __m128i eq = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.fp)),
                                      _mm_set1_epi8(char(fp)));
    for (uint32_t m = uint32_t(_mm_movemask_epi8(eq)); m; m &= m - 1) {
      const uint32_t w = uint32_t(__builtin_ctz(m));
      if (s.state[w] && s.tag[w] == line) return int(w);
    }
    return -1;
  }
#endif
  for (uint32_t w = 0; w < ways; ++w)
    if (s.fp[w] == fp && s.state[w] && s.tag[w] == line) return int(w);
  return -1;
}

// Every line used more recently than `way` (rank below `rank`: its rank, or ways for a line
// just filled into an empty slot) ages by one; `way` becomes rank 0. Empty slots' ranks age
// too, harmlessly: they are set when the slot is filled and never read before.
void SectorCache::Touch(const SetRef& s, uint32_t way, uint8_t rank) const {
  if (rank == 0) return;  // already the most recent (a line's next sector, mostly)
  for (uint32_t w = 0; w < config_.ways; ++w) s.rank[w] = uint8_t(s.rank[w] + (s.rank[w] < rank));
  s.rank[way] = 0;
}

uint64_t SectorCache::SlotLine(uint32_t slot) const {
  const SetRef s = Set(slot / config_.ways);
  const uint32_t w = slot % config_.ways;
  return s.state[w] ? s.tag[w] : kNoLine;
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

void SectorCache::SetByRecency(uint32_t set, uint64_t* lines, uint8_t* valid) const {
  const SetRef s = Set(set);
  const uint32_t ways = config_.ways;
  uint32_t held = 0;
  for (uint32_t w = 0; w < ways; ++w) held += s.state[w] != 0;
  for (uint32_t i = 0; i < ways; ++i) lines[i] = kNoLine, valid[i] = 0;
  // The valid slots' ranks are 0 .. held - 1 (see Touch).
  for (uint32_t w = 0; w < ways; ++w)
    if (s.state[w] && s.rank[w] < held) lines[s.rank[w]] = s.tag[w], valid[s.rank[w]] = s.state[w] & 0xf;
}

bool SectorCache::Contains(uint64_t addr) const {
  const uint64_t line = addr / kLineBytes;
  const uint32_t bit = 1u << (addr / kSectorBytes % kSectorsPerLine);
  const SetRef s = Set(SetOf(line));
  const int w = Find(s, line, Fingerprint(line));
  return w >= 0 && (s.state[w] & bit);
}

SectorCache::Outcome SectorCache::Access(uint64_t addr, bool allocate, bool dirty) {
  const uint64_t line = addr / kLineBytes;
  const uint8_t bit = uint8_t(1u << (addr / kSectorBytes % kSectorsPerLine));
  const uint32_t set = SetOf(line);
  const SetRef s = Set(set);
  const uint32_t ways = config_.ways;
  const uint32_t base = set * ways;
  const uint8_t fp = Fingerprint(line);
  const int found = Find(s, line, fp);
  if (found >= 0) {
    const uint32_t w = uint32_t(found);
    uint8_t& state = s.state[w];
    change_ = {line, kNoLine, base + w, uint8_t(state & 0xf)};
    if (state & bit) {
      Touch(s, w, s.rank[w]);
      if (dirty) state |= uint8_t(bit << 4);
      ++stats_.hits;
      return Outcome::Hit;
    }
    ++stats_.sector_misses;
    if (allocate) {
      Touch(s, w, s.rank[w]);
      state |= uint8_t(bit | (dirty ? bit << 4 : 0));
      change_.valid = state & 0xf;
    }
    return Outcome::SectorMiss;
  }
  // The victim: the first empty slot if there is one, else the least recently used line.
  uint32_t victim = ways;
  for (uint32_t w = 0; w < ways; ++w)
    if (!s.state[w]) { victim = w; break; }
  const bool full = victim == ways;
  if (full) victim = 0;  // replaced below: exactly one valid line has rank ways - 1
  if (full)
    for (uint32_t w = 0; w < ways; ++w)
      if (s.rank[w] == ways - 1) { victim = w; break; }
  ++stats_.misses;
  change_ = {kNoLine, kNoLine, base + victim, 0};
  if (!allocate) return Outcome::Miss;
  if (full) {
    ++stats_.evictions;
    stats_.written_back_sectors += PopCount(s.state[victim] >> 4);
    change_.evicted = s.tag[victim];
  }
  Touch(s, victim, full ? s.rank[victim] : uint8_t(ways));
  s.tag[victim] = line;
  if (s.stamp) change_.old_stamp = std::exchange(s.stamp[victim], 0u);
  s.fp[victim] = fp;
  s.state[victim] = uint8_t(bit | (dirty ? bit << 4 : 0));
  change_.line = line;
  change_.valid = bit;
  return Outcome::Miss;
}

}  // namespace ws::sim
