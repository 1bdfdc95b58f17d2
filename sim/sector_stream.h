// A warp's recorded global sectors as a compact byte stream (varint deltas), and the temporary
// file that takes a wave's streams when they outgrow their memory budget (sim/hierarchy.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws::sim {

// ---- stream encoding ----------------------------------------------------------------------
// A warp's records, one after another: varint header (0: barrier; else (site+1) << 3 | op << 1
// | traced), [varint trace index], varint sector count, zigzag varint of the first sector minus
// the first sector of the last instruction at a site with the same site % 8, then each further
// sector as varint (gap - 1). A loop's read of the next element usually costs 3-4 bytes.
inline constexpr int kSiteSlots = 8;

// Writes v at p (at most 10 bytes); returns the end.
inline uint8_t* PutVarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = uint8_t(v | 0x80);
    v >>= 7;
  }
  *p++ = uint8_t(v);
  return p;
}
inline uint64_t GetVarint(const uint8_t*& p) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t c = *p++;
    v |= uint64_t(c & 0x7f) << shift;
    if (!(c & 0x80)) return v;
  }
}
inline uint64_t ZigZag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
inline int64_t UnZigZag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }

// The longest record: header (5 bytes), trace index (10), count (1), first sector (10) and 31
// gaps (10 each). A replay window always holds at least this much, or the rest of its chunk.
inline constexpr size_t kMaxRecordBytes = 5 + 10 + 1 + 10 + 31 * 10;
inline constexpr size_t kWindowBytes = 2048;

// Where a warp's earlier records went when the wave's streams outgrew their budget.
struct SpilledChunk {
  uint64_t offset;
  uint64_t bytes;
};

struct WarpStream {
  std::vector<SpilledChunk> spilled;  // its first records, in order, in the spill file
  std::vector<uint8_t> bytes;  // the records after them, in memory
  uint64_t last[kSiteSlots] = {};  // encoder state (the decoder keeps its own copy)
  bool Empty() const { return spilled.empty() && bytes.empty(); }
};

// ---- spill file ---------------------------------------------------------------------------
// A temporary file in $TMPDIR (or /tmp), unlinked as soon as it is made: the system removes it
// when the file is closed or the process ends, whatever happens. When no file can be made or
// written, the streams stay in memory (unbounded, as before) rather than losing counts.
class SpillFile {
 public:
  SpillFile() = default;
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;
  ~SpillFile();
  bool usable() const { return !failed_; }

  // Appends n bytes; false (and unusable from then on) if they could not be written.
  bool Append(const uint8_t* p, size_t n, uint64_t* offset);
  // Reads n bytes written at `offset`; throws std::runtime_error when they cannot be read.
  void Read(uint64_t offset, uint8_t* p, size_t n) const;

 private:
  bool Open();
  int fd_ = -1;
  bool failed_ = false;
  uint64_t end_ = 0;
};

}  // namespace ws::sim
