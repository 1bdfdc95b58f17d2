// A warp's recorded global sectors as a compact byte stream (varint deltas), the temporary file
// that takes a wave's streams when they outgrow their memory budget, and the wave's streams
// block by block as the cache model records them, or takes a block's whole where another thread
// encoded them (its replay reads them: sim/hierarchy.cpp).
// Section index: stream encoding · spill file · a wave's streams
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

// Appends one record to w's bytes in the encoding above (n >= 1 distinct sectors in ascending
// order; trace_index -1: not traced), in one piece; returns how much the bytes' capacity grew.
size_t EncodeRecord(WarpStream& w, uint32_t site, uint32_t op, int64_t trace_index, const uint64_t* sectors, int n);
// Appends the warp's arrival at a barrier; returns how much the bytes' capacity grew.
size_t EncodeBarrier(WarpStream& w);

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

// ---- a wave's streams ---------------------------------------------------------------------
struct BlockStream {
  uint64_t block = 0;
  uint32_t sm = 0;
  std::vector<WarpStream> warps;
  std::vector<uint8_t> cut;  // per warp: its stream ends before the warp did (Cut), else empty
  // The launch's site for each site id its records hold, where they were encoded with other ids
  // (Adopt: a block simulated on another thread); empty: the launch's own ids.
  std::vector<uint32_t> sites;
};

// The streams of the wave being recorded, one block after another. They hold at most `budget`
// bytes of memory (their vectors' capacity): beyond it every warp's records in memory move to the
// end of the spill file, each warp's records staying in order (its chunks, then what it records
// next), and stay in memory if no file can be written.
class WaveStreams {
 public:
  explicit WaveStreams(uint64_t budget) : budget_(budget) {}
  WaveStreams(const WaveStreams&) = delete;
  WaveStreams& operator=(const WaveStreams&) = delete;

  std::vector<BlockStream>& blocks() { return blocks_; }
  const SpillFile& spill() const { return spill_; }
  void Begin(uint64_t block, uint32_t sm, uint32_t warps);
  // One record of warp `warp` of the last block begun: its site, op (sim::Op), trace index (-1:
  // not traced) and n >= 1 distinct sectors in ascending order. Encoded here, then appended in
  // one piece (not byte by byte).
  void Append(uint32_t warp, uint32_t site, uint32_t op, int64_t trace_index, const uint64_t* sectors, int n);
  // Every warp of the last block begun reached a barrier.
  void Barrier();
  // The last block begun, whose records were encoded elsewhere (EncodeRecord, EncodeBarrier: a
  // block simulated on another thread), takes them all at once: one stream per warp, their site
  // ids mapped to the launch's by `sites`. Its streams must still be empty.
  void Adopt(std::vector<WarpStream>&& warps, std::vector<uint32_t> sites);
  // Warp `warp` of the last block begun stops recording before it ends (a prefix pass).
  void Cut(uint32_t warp);
  // The wave was replayed: its streams go.
  void Clear();

 private:
  void Spill();
  std::vector<BlockStream> blocks_;
  uint64_t buffered_ = 0, budget_;
  SpillFile spill_;
};

}  // namespace ws::sim
