// Memory rules: coalescing into sectors and lines; shared-memory banks and wavefronts.
#include "sim/rules.h"

#include <algorithm>

#include "sim/geometry.h"

namespace ws::sim {
namespace {

// Sorts a small array; the access patterns are mostly sorted runs, where insertion sort wins.
void SmallSort(uint64_t* v, int n) {
  for (int i = 1; i < n; ++i) {
    uint64_t x = v[i];
    int j = i - 1;
    if (v[j] <= x) continue;
    while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; --j; }
    v[j + 1] = x;
  }
}

// The active lanes' addresses, ascending (repeats kept); returns how many. The lanes' order is
// mostly a few ascending runs (a column: one; two half-warp rows, or the two halves of a 16-wide
// block reading one column: two; a tile: a few), which are merged pairwise, one pass of at most 32
// moves per halving of the runs, where insertion sort would move every lane of the second half
// past the first's.
int SortedActiveAddresses(const WarpInstruction& ins, uint64_t (&out)[kWarpSize]) {
  int n = 0, runs = 0;
  uint8_t end[kWarpSize + 1];  // where each ascending run ends
  for (uint32_t m = ins.mask; m; m &= m - 1) {
    const uint64_t a = ins.addr[__builtin_ctz(m)];
    if (n > 0 && a < out[n - 1]) end[runs++] = uint8_t(n);
    out[n++] = a;
  }
  if (n == 0) return 0;
  end[runs++] = uint8_t(n);
  if (runs > 8) {  // scattered: three merge passes or more; insertion sort is as quick there
    SmallSort(out, n);
    return n;
  }
  uint64_t tmp[kWarpSize];
  uint64_t *src = out, *dst = tmp;
  while (runs > 1) {
    int merged = 0, from = 0;
    for (int r = 0; r < runs; r += 2) {
      const int mid = end[r], to = r + 1 < runs ? end[r + 1] : mid;
      int i = from, j = mid, k = from;
      while (i < mid && j < to) dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < to) dst[k++] = src[j++];
      end[merged++] = uint8_t(to);
      from = to;
    }
    runs = merged;
    std::swap(src, dst);
  }
  if (src != out) std::copy(src, src + n, out);
  return n;
}

int CountDistinctSorted(const uint64_t* v, int n) {
  int d = n > 0;
  for (int i = 1; i < n; ++i) d += v[i] != v[i - 1];
  return d;
}

// Most active lanes on one address (atomics: the updates that serialise).
int MostLanesOnOneAddress(const WarpInstruction& ins) {
  uint64_t adr[kWarpSize];
  const int k = SortedActiveAddresses(ins, adr);
  int most = k > 0, run = 1;
  for (int i = 1; i < k; ++i) {
    run = adr[i] == adr[i - 1] ? run + 1 : 1;
    most = std::max(most, run);
  }
  return most;
}

}  // namespace

namespace {
// The bytes of a piece of `w` bytes at `a` that fall in a's sector, as a mask of its 32 bytes.
static_assert(kSectorBytes == 32, "a sector's bytes are the bits of a uint32_t mask");
inline uint32_t PieceBytes(uint64_t a, uint32_t w) {
  const uint32_t off = uint32_t(a % kSectorBytes), n = std::min<uint32_t>(w, kSectorBytes - off);
  return uint32_t(((1ull << n) - 1) << off);
}

// Distinct bytes from per-sector byte masks: the sectors `present` marks, each its mask's bytes.
inline uint64_t MaskedBytes(const uint32_t* bytes, uint64_t present) {
  uint64_t n = 0;
  for (; present; present &= present - 1) n += PopCount(uint64_t(bytes[__builtin_ctzll(present)]));
  return n;
}

inline uint16_t Sectors16(uint64_t bytes) { return uint16_t(SectorsFor(bytes)); }

// Marks sector s of a window and adds a piece's bytes to its mask (a mask is read only once its
// sector's bit is set, so the masks need no clearing).
inline void AddPiece(uint64_t& present, uint32_t* bytes, uint64_t s, uint32_t piece) {
  bytes[s] = (present >> s & 1) ? bytes[s] | piece : piece;
  present |= 1ull << s;
}
}  // namespace

// The ideal (rules.h): the distinct bytes the active lanes ask for, rounded up to sectors. Pieces
// within 64 sectors (2 KiB) of one another: a 32-bit mask of bytes per sector; lanes in
// ascending order without overlap: width bytes each; otherwise DistinctBytes merges ranges.
uint16_t IdealSectors(const WarpInstruction& ins) {
  const uint32_t w = ins.width;
  uint64_t lo = ~0ull, hi = 0, next = 0;
  int n = 0;
  bool ascending = true;
  for (uint32_t m = ins.mask; m; m &= m - 1, ++n) {
    const uint64_t a = ins.addr[__builtin_ctz(m)];
    lo = std::min(lo, SectorIndex(a));
    hi = std::max(hi, SectorIndex(a + w - 1));
    ascending &= n == 0 || a >= next;
    next = a + w;
  }
  if (n == 0) return 0;
  if (ascending) return Sectors16(uint64_t(n) * w);
  if (hi - lo >= 64) return Sectors16(DistinctBytes(ins));
  uint32_t bytes[64];
  uint64_t present = 0;
  for (uint32_t m = ins.mask; m; m &= m - 1) {
    uint64_t a = ins.addr[__builtin_ctz(m)];
    for (const uint64_t end = a + w; a < end; a = (a | (kSectorBytes - 1)) + 1)  // a piece may cross a sector
      AddPiece(present, bytes, SectorIndex(a) - lo, PieceBytes(a, uint32_t(end - a)));
  }
  return Sectors16(MaskedBytes(bytes, present));
}

bool CompilerAggregates(const WarpInstruction& ins) {
  if (ins.op != Op::Reduction || ins.add != AtomicAdd::Integer || ins.space != Space::Global || ins.mask == 0)
    return false;
  const uint64_t first = ins.addr[__builtin_ctz(ins.mask)];
  for (uint32_t m = ins.mask; m; m &= m - 1)
    if (ins.addr[__builtin_ctz(m)] != first) return false;
  return true;
}

namespace {
// The atomic rule (see Coalesce in rules.h) on the sorted addresses of the active lanes: runs
// of one address are the updates that serialise; each sector (line) costs its longest run.
void AtomicCost(WarpInstruction& ins) {
  uint64_t adr[kWarpSize];
  const int k = SortedActiveAddresses(ins, adr);
  int sectors = 0, l2 = 0, most = 0;
  int run = 0, sector_most = 0, line_most = 0;
  for (int i = 0; i < k; ++i) {
    if (i == 0 || SectorIndex(adr[i]) != SectorIndex(adr[i - 1])) {  // a new sector: the last one is done
      sectors += sector_most;
      sector_most = 0;
    }
    if (i == 0 || LineIndex(adr[i]) != LineIndex(adr[i - 1])) {  // a new line
      l2 += line_most;
      line_most = 0;
    }
    run = i > 0 && adr[i] == adr[i - 1] ? run + 1 : 1;
    sector_most = std::max(sector_most, run);
    line_most = std::max(line_most, run);
    most = std::max(most, run);
  }
  sectors += sector_most;
  l2 += line_most;
  const bool aggregated = CompilerAggregates(ins);
  ins.sectors = uint16_t(aggregated ? 1 : sectors);
  ins.l2_requests = uint16_t(aggregated ? 1 : l2);
  ins.same_address_lanes = uint16_t(most);
}
}  // namespace

// Sectors and lines from a bitmask of sectors relative to a line-aligned base.
static_assert(kSectorsPerLine == 4, "a line is four bits of a window: the 0x1111... masks below");
inline void AddWindow(uint64_t bits, int& sectors, int& lines) {
  uint64_t line_bits = bits | (bits >> 1);
  line_bits |= line_bits >> 2;
  sectors += PopCount(bits);
  lines += PopCount(line_bits & 0x1111111111111111ull);
}

// The sectors of a window's bits, ascending.
inline int ListWindow(uint64_t base, uint64_t bits, uint64_t* out) {
  int n = 0;
  for (; bits; bits &= bits - 1) out[n++] = base + uint64_t(__builtin_ctzll(bits));
  return n;
}

void Coalesce(WarpInstruction& ins, SectorList* distinct) {
  if (distinct) distinct->n = -1;
  const uint32_t w = ins.width;
  // Fast path, a full warp of aligned pieces that fall into at most two windows of 64 sectors
  // (2 KiB) — a run, a broadcast, or two rows: one bit per sector, no sorting.
  if (ins.mask == ~0u && ins.op != Op::Atomic && ins.op != Op::Reduction) {
    const uint64_t base_a = (SectorIndex(ins.addr[0]) - 28) & ~uint64_t(kSectorsPerLine - 1);  // line-aligned window
    uint64_t base_b = 0, bits_a = 0, bits_b = 0, spill = 0;
    uint32_t bytes_a[64] = {}, bytes_b[64];  // per sector: the bytes asked for (the ideal)
    const uint32_t ones = uint32_t((1ull << w) - 1);  // a piece's bytes at offset 0 (w <= 16)
    bool have_b = false, fits = true;
    for (int l = 0; l < kWarpSize; ++l) {
      const uint64_t a = ins.addr[l], s = SectorIndex(a);
      spill |= (a ^ (a + w - 1)) & ~uint64_t(kSectorBytes - 1);
      const uint64_t da = s - base_a;
      // Without spill (checked below) a piece is ones << its offset in the sector.
      if (da < 64) { bits_a |= 1ull << da; bytes_a[da] |= ones << (a % kSectorBytes); continue; }
      if (!have_b) {
        base_b = (s - 28) & ~uint64_t(kSectorsPerLine - 1);
        have_b = true;
        std::fill(bytes_b, bytes_b + 64, 0u);
      }
      const uint64_t db = s - base_b;
      if (db < 64) { bits_b |= 1ull << db; bytes_b[db] |= ones << (a % kSectorBytes); continue; }
      fits = false;
      break;
    }
    // Two windows must not overlap, or a sector could be counted twice.
    const bool apart = !have_b || (base_b >= base_a ? base_b - base_a : base_a - base_b) >= 64;
    if (fits && apart && spill == 0) {
      int sectors = 0, lines = 0;
      AddWindow(bits_a, sectors, lines);
      if (have_b) AddWindow(bits_b, sectors, lines);
      ins.sectors = uint16_t(sectors);
      ins.lines = uint16_t(lines);
      ins.ideal_sectors = Sectors16(MaskedBytes(bytes_a, bits_a) + MaskedBytes(bytes_b, bits_b));
      ins.same_address_lanes = 0;
      if (distinct) {  // every lane's piece in one sector (no spill): the windows' bits, in order
        const bool b_first = have_b && base_b < base_a;
        int n = ListWindow(b_first ? base_b : base_a, b_first ? bits_b : bits_a, distinct->s);
        if (have_b) n += ListWindow(b_first ? base_a : base_b, b_first ? bits_a : bits_b, distinct->s + n);
        distinct->n = n;
      }
      return;
    }
  }
  int na = 0;
  // Fast path: every piece lies in a window of 64 sectors (2 KiB) -> one bit per sector.
  uint64_t lo = ~0ull, hi = 0;
  if (ins.mask == ~0u) {  // all lanes: straight loops the compiler can vectorise
    uint64_t amin = ~0ull, amax = 0;
    for (int l = 0; l < kWarpSize; ++l) {
      const uint64_t a = ins.addr[l];
      amin = std::min(amin, a);
      amax = std::max(amax, a);
    }
    lo = SectorIndex(amin);
    hi = SectorIndex(amax + w - 1);
    na = kWarpSize;
  } else {
    for (uint32_t m = ins.mask; m; m &= m - 1) {
      const uint64_t a = ins.addr[__builtin_ctz(m)];
      lo = std::min(lo, SectorIndex(a));
      hi = std::max(hi, SectorIndex(a + w - 1));
      ++na;
    }
  }
  ins.same_address_lanes = 0;
  const uint64_t base = lo & ~uint64_t(kSectorsPerLine - 1);  // line-aligned, so four bits make one line
  if (na > 0 && hi - base < 64) {
    uint64_t bits = 0;
    uint32_t bytes[64];  // per sector: the bytes asked for (the ideal)
    bool spill = false;
    for (uint32_t m = ins.mask; m; m &= m - 1) {
      uint64_t a = ins.addr[__builtin_ctz(m)];
      spill |= SectorIndex(a) != SectorIndex(a + w - 1);
      for (const uint64_t end = a + w; a < end; a = (a | (kSectorBytes - 1)) + 1)  // a piece may cross a sector
        AddPiece(bits, bytes, SectorIndex(a) - base, PieceBytes(a, uint32_t(end - a)));
    }
    int sectors = 0, lines = 0;
    AddWindow(bits, sectors, lines);
    ins.sectors = uint16_t(sectors);
    ins.lines = uint16_t(lines);
    ins.ideal_sectors = Sectors16(MaskedBytes(bytes, bits));
    // Without spill the window's bits are the sectors of the lanes' addresses, DistinctSectors'
    // list (which counts a piece by the sector it starts in).
    if (distinct && !spill) distinct->n = ListWindow(base, bits, distinct->s);
  } else {
    // The pieces by address: their sectors and lines counted as an interval union (a piece
    // covers at most two sectors; starts ascending, so nothing below the last counted one is new),
    // their distinct bytes as DistinctBytes merges them.
    uint64_t start[kWarpSize];
    const int n = SortedActiveAddresses(ins, start);
    int sectors = 0, lines = 0;
    uint64_t last_sector = 0, last_line = 0, bytes = 0, covered_to = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t a = start[i], end = a + w;
      for (uint64_t sec = SectorIndex(a); sec <= SectorIndex(end - 1); ++sec) {
        if (sectors == 0 || sec > last_sector) { ++sectors; last_sector = sec; }
        if (lines == 0 || sec / kSectorsPerLine > last_line) { ++lines; last_line = sec / kSectorsPerLine; }
      }
      const uint64_t from = i == 0 ? a : std::max(a, covered_to);
      if (end > from) bytes += end - from;
      covered_to = std::max(covered_to, end);
    }
    ins.sectors = uint16_t(sectors);
    ins.lines = uint16_t(lines);
    ins.ideal_sectors = Sectors16(bytes);
    if (distinct) {
      // DistinctSectors' list: the sectors the sorted addresses start in, each once.
      int d = 0;
      for (int i = 0; i < n; ++i)
        if (d == 0 || SectorIndex(start[i]) != distinct->s[d - 1]) distinct->s[d++] = SectorIndex(start[i]);
      distinct->n = d;
    }
  }
  ins.l2_requests = 0;
  if (ins.op == Op::Atomic || ins.op == Op::Reduction) AtomicCost(ins);
}

int BankPhaseLanes(uint32_t width) { return width <= 8 ? 32 : 8; }

namespace {
// The fewest wavefronts that can serve `words` distinct words: 32 banks, one word each per pass.
int IdealPasses(int words) { return std::max(1, (words + int(kBanks) - 1) / int(kBanks)); }

// The bank words of one phase: f(lane, word) for each active lane of lanes [p0, p0 + phase_lanes)
// and each 4-byte word its `width` bytes touch, in lane order. The counters (BankConflicts) and the
// bank view's columns (SharedBanks) both walk a phase this way.
template <class F>
void ForEachPhaseWord(const WarpInstruction& ins, int p0, int phase_lanes, uint32_t width, F f) {
  for (int lane = p0; lane < p0 + phase_lanes; ++lane) {
    if (!(ins.mask >> lane & 1)) continue;
    for (uint64_t wd = WordIndex(ins.addr[lane]); wd <= WordIndex(ins.addr[lane] + width - 1); ++wd) f(lane, wd);
  }
}
}  // namespace

void BankConflicts(WarpInstruction& ins) {
  const uint32_t w = ins.width;
  const int phase_lanes = BankPhaseLanes(w);
  struct Phase {
    int most = 0;          // most distinct words in one bank (0: no active lane)
    uint32_t banks = 0;    // banks touched
    uint64_t address = 0;  // the address of its lanes, when one_address
    bool one_address = true;
  } phases[kWarpSize / 8];
  int wavefronts = 0, ideal = 0, degree = 0;
  for (int p0 = 0, p = 0; p0 < kWarpSize; p0 += phase_lanes, ++p) {
    uint64_t words[kWarpSize * 4];
    int n = 0;
    Phase& ph = phases[p];
    ForEachPhaseWord(ins, p0, phase_lanes, w, [&](int lane, uint64_t wd) {
      if (n > 0 && ins.addr[lane] != ph.address) ph.one_address = false;
      ph.address = ins.addr[lane];
      words[n++] = wd;
    });
    if (n == 0) continue;
    SmallSort(words, n);
    int per_bank[kBanks] = {};
    int distinct = 0;
    for (int i = 0; i < n; ++i) {
      if (i > 0 && words[i] == words[i - 1]) continue;  // same word: broadcast
      ++distinct;
      ph.banks |= 1u << BankOfWord(words[i]);
      ph.most = std::max(ph.most, ++per_bank[BankOfWord(words[i])]);
    }
    const int passes = IdealPasses(distinct);
    wavefronts += ph.most;
    ideal += passes;
    degree = std::max(degree, (ph.most + passes - 1) / passes);
  }
  if (w > 8 && ins.op == Op::Load) {
    // LDS.128 (measured on an H100, docs/FIDELITY.md "Vector types"): served per half-warp;
    // its two quarter-warps share one wavefront when their bank sets are disjoint or all its
    // lanes read one 16-byte word, otherwise they add; at least 2 wavefronts.
    wavefronts = ideal = 0;
    for (int h = 0; h < 2; ++h) {
      const Phase &a = phases[2 * h], &b = phases[2 * h + 1];
      if (a.most == 0 || b.most == 0) {
        wavefronts += std::max(a.most, b.most);
        ideal += a.most || b.most;
        continue;
      }
      const bool share = (a.banks & b.banks) == 0 || (a.one_address && b.one_address && a.address == b.address);
      wavefronts += share ? std::max(a.most, b.most) : a.most + b.most;
      ideal += share ? 1 : 2;
    }
    wavefronts = std::max(wavefronts, 2);
    ideal = std::max(ideal, 2);
  }
  ins.wavefronts = uint16_t(wavefronts);
  ins.ideal_wavefronts = uint16_t(ideal);
  ins.conflict_degree = uint16_t(degree);
  ins.same_address_lanes =
      ins.op == Op::Atomic || ins.op == Op::Reduction ? uint16_t(MostLanesOnOneAddress(ins)) : 0;
}

std::vector<BankColumn> SharedBanks(const WarpInstruction& ins) {
  std::vector<BankColumn> cols(kBanks);
  const uint32_t w = std::max<uint32_t>(ins.width, 1);
  const int phase_lanes = BankPhaseLanes(w);
  for (int p0 = 0, phase = 0; p0 < kWarpSize; p0 += phase_lanes, ++phase) {
    int per_bank[kBanks] = {}, distinct = 0;
    ForEachPhaseWord(ins, p0, phase_lanes, w, [&](int lane, uint64_t wd) {
      auto& words = cols[BankOfWord(wd)].words;
      auto it = std::find_if(words.begin(), words.end(),
                             [&](const BankWord& b) { return b.word == wd && b.phase == phase; });
      if (it == words.end()) {
        words.push_back({wd, phase, {lane}});
        ++per_bank[BankOfWord(wd)];
        ++distinct;
      } else if (it->lanes.back() != lane) {
        it->lanes.push_back(lane);
      }
    });
    const int passes = IdealPasses(distinct);
    for (uint32_t b = 0; b < kBanks; ++b) cols[b].degree = std::max(cols[b].degree, (per_bank[b] + passes - 1) / passes);
  }
  return cols;
}

uint64_t DistinctBytes(const WarpInstruction& ins) {
  // Byte ranges [addr, addr + width) of the active lanes, sorted by start, merged.
  uint64_t start[kWarpSize];
  const int n = SortedActiveAddresses(ins, start);
  uint64_t bytes = 0, covered_to = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t lo = i == 0 ? start[i] : std::max(start[i], covered_to), hi = start[i] + ins.width;
    if (hi > lo) bytes += hi - lo;
    covered_to = std::max(covered_to, hi);
  }
  return bytes;
}

int DistinctAddresses(const WarpInstruction& ins) {
  uint64_t adr[kWarpSize];
  const int k = SortedActiveAddresses(ins, adr);
  return CountDistinctSorted(adr, k);
}


int DistinctSectors(const WarpInstruction& ins, uint64_t (&out)[kWarpSize]) {
  // Accesses are at most 16 bytes and aligned, so each lane's piece lies in one sector.
  int n = 0;
  bool sorted = true;
  for (uint32_t m = ins.mask; m; m &= m - 1) {
    const uint64_t s = SectorIndex(ins.addr[__builtin_ctz(m)]);
    if (n && s == out[n - 1]) continue;
    if (n && s < out[n - 1]) sorted = false;
    out[n++] = s;
  }
  if (!sorted) {
    std::sort(out, out + n);
    n = int(std::unique(out, out + n) - out);
  } else {
    // Ascending with repeats only between neighbours: already removed.
  }
  return n;
}

}  // namespace ws::sim
