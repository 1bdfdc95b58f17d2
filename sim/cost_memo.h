// The engine's memory of what coalescing found for the instructions a site issued: a loop issues
// the same shape of instruction at every iteration, and its cost is then known without counting.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/rules.h"

namespace ws::sim {

// Coalesce (sim/rules.h) for the engine, remembered per site and place in a line. An instruction
// of the same shape as one its site issued before (the same active lanes, width, op and kind of
// add; every active lane the same distance from the first active lane; that lane's address at the
// same byte of its 128-byte line) is the earlier one moved by whole lines: its sectors, lines,
// ideal and atomic figures are the same, and its distinct sectors are the earlier ones moved as
// far. shortcut v0's column read (16 rows, each read by two lanes) is sorted once for each of the
// 32 places a float takes in a line, then found by 32 comparisons. The results are Coalesce's, bit
// for bit (test CostMemo.GivesWhatCoalesceGives).
class CostMemo {
 public:
  // As Coalesce(ins, distinct), for a global instruction whose site is ins.site.
  void Coalesce(WarpInstruction& ins, SectorList* distinct);
  // How many instructions it found remembered.
  uint64_t hits() const { return hits_; }

 private:
  struct Entry {
    bool valid = false;
    uint32_t site = 0, mask = 0;
    uint8_t width = 0;
    Op op = Op::Load;
    AtomicAdd add = AtomicAdd::No;
    uint64_t first = 0;                // the first active lane's address
    uint64_t offset[kWarpSize] = {};   // each active lane's address - first (0 elsewhere)
    uint16_t sectors = 0, lines = 0, ideal_sectors = 0, same_address_lanes = 0, l2_requests = 0;
    SectorList distinct;
  };
  // Direct-mapped by site and the first lane's place in its line; a shape that meets another in
  // its slot is counted again and takes the slot.
  static constexpr uint32_t kSlotBits = 9;
  std::vector<Entry> slots_ = std::vector<Entry>(size_t(1) << kSlotBits);
  uint64_t hits_ = 0;
};

}  // namespace ws::sim
