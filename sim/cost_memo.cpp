// The engine's coalescing memory (see sim/cost_memo.h).
#include "sim/cost_memo.h"

#include "sim/geometry.h"

namespace ws::sim {

void CostMemo::Coalesce(WarpInstruction& ins, SectorList* distinct) {
  if (ins.mask == 0) return ws::sim::Coalesce(ins, distinct);
  const uint64_t first = ins.addr[__builtin_ctz(ins.mask)];
  const uint32_t place = uint32_t(first % kLineBytes);
  Entry& e = slots_[(ins.site * 0x9E3779B1u + place * 0x85EBCA77u) >> (32 - kSlotBits)];
  bool same = e.valid && e.site == ins.site && e.mask == ins.mask && e.width == ins.width && e.op == ins.op &&
              e.add == ins.add && e.first % kLineBytes == place;
  if (same) {
    uint64_t differ = 0;
    if (ins.mask == ~0u) {
      for (int l = 0; l < kWarpSize; ++l) differ |= (ins.addr[l] - first) ^ e.offset[l];
    } else {
      for (uint32_t m = ins.mask; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        differ |= (ins.addr[l] - first) ^ e.offset[l];
      }
    }
    same = differ == 0;
  }
  if (same) {
    ++hits_;
    ins.sectors = e.sectors;
    ins.lines = e.lines;
    ins.ideal_sectors = e.ideal_sectors;
    ins.same_address_lanes = e.same_address_lanes;
    ins.l2_requests = e.l2_requests;
    if (distinct) {
      distinct->n = e.distinct.n;
      const uint64_t moved = uint64_t(int64_t(first - e.first) / int64_t(kSectorBytes));  // whole lines
      for (int i = 0; i < e.distinct.n; ++i) distinct->s[i] = e.distinct.s[i] + moved;
    }
    return;
  }
  ws::sim::Coalesce(ins, &e.distinct);
  if (distinct) {
    distinct->n = e.distinct.n;
    for (int i = 0; i < e.distinct.n; ++i) distinct->s[i] = e.distinct.s[i];
  }
  e.valid = true;
  e.site = ins.site;
  e.mask = ins.mask;
  e.width = ins.width;
  e.op = ins.op;
  e.add = ins.add;
  e.first = first;
  for (int l = 0; l < kWarpSize; ++l) e.offset[l] = (ins.mask >> l & 1) ? ins.addr[l] - first : 0;
  e.sectors = ins.sectors;
  e.lines = ins.lines;
  e.ideal_sectors = ins.ideal_sectors;
  e.same_address_lanes = ins.same_address_lanes;
  e.l2_requests = ins.l2_requests;
}

}  // namespace ws::sim
