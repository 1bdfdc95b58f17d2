// Memory rules: coalescing into sectors and lines; shared-memory banks and wavefronts.
#include "sim/rules.h"

#include <algorithm>

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

int CountDistinctSorted(const uint64_t* v, int n) {
  int d = n > 0;
  for (int i = 1; i < n; ++i) d += v[i] != v[i - 1];
  return d;
}

}  // namespace

void Coalesce(WarpInstruction& ins) {
  uint64_t sec[kWarpSize * 2];
  uint64_t adr[kWarpSize];
  int n = 0, na = 0;
  const uint32_t w = ins.width;
  for (uint32_t m = ins.mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t a = ins.addr[l];
    adr[na++] = a;
    uint64_t s0 = a >> 5, s1 = (a + w - 1) >> 5;
    sec[n++] = s0;
    if (s1 != s0) sec[n++] = s1;  // only for a misaligned piece, which the dialect reports
  }
  SmallSort(sec, n);
  int sectors = CountDistinctSorted(sec, n);
  int lines = n > 0;
  for (int i = 1; i < n; ++i) lines += (sec[i] >> 2) != (sec[i - 1] >> 2);
  ins.sectors = uint16_t(sectors);
  ins.lines = uint16_t(lines);
  ins.ideal_sectors = uint16_t((na * w + 31) / 32);
  ins.same_address_lanes = 0;
  if (ins.op == Op::Atomic || ins.op == Op::Reduction) {
    SmallSort(adr, na);
    int most = na > 0, run = 1;
    for (int i = 1; i < na; ++i) {
      run = adr[i] == adr[i - 1] ? run + 1 : 1;
      most = std::max(most, run);
    }
    ins.same_address_lanes = uint16_t(most);
  }
}

void BankConflicts(WarpInstruction& ins) {
  const uint32_t w = ins.width;
  const int phase_lanes = w <= 4 ? 32 : (w == 8 ? 16 : 8);
  int wavefronts = 0, ideal = 0, degree = 0;
  for (int p0 = 0; p0 < kWarpSize; p0 += phase_lanes) {
    uint64_t words[kWarpSize * 4];
    int n = 0;
    for (int l = p0; l < p0 + phase_lanes; ++l) {
      if (!(ins.mask >> l & 1)) continue;
      for (uint64_t wd = ins.addr[l] >> 2; wd <= (ins.addr[l] + w - 1) >> 2; ++wd) words[n++] = wd;
    }
    if (n == 0) continue;
    SmallSort(words, n);
    int per_bank[32] = {};
    int most = 0;
    for (int i = 0; i < n; ++i) {
      if (i > 0 && words[i] == words[i - 1]) continue;  // same word: broadcast
      most = std::max(most, ++per_bank[words[i] & 31]);
    }
    wavefronts += most;
    ideal += 1;
    degree = std::max(degree, most);
  }
  ins.wavefronts = uint16_t(wavefronts);
  ins.ideal_wavefronts = uint16_t(ideal);
  ins.conflict_degree = uint16_t(degree);
}

}  // namespace ws::sim
