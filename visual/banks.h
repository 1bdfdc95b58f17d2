// Shared-memory view: 32 bank columns; each distinct word the step's lanes touch sits in its
// bank's column, a bank serving more than one word is marked with its n-way degree, and words
// several lanes read at once are drawn as broadcasts.
#pragma once
#include <cstdint>
#include <vector>

#include "visual/frame.h"

namespace ws::visual {

// Per bank: the distinct 4-byte words the active lanes touch, with the lanes on each word.
// Wide accesses (8, 16 bytes) are served in phases of 16 and 8 lanes; a bank's degree is its
// most distinct words within one phase.
struct BankWord {
  uint64_t word = 0;  // byte offset / 4
  std::vector<int> lanes;
};
struct BankColumn {
  std::vector<BankWord> words;
  int degree = 0;  // n-way: distinct words in one phase (0: untouched)
};
std::vector<BankColumn> BankColumns(const sim::WarpInstruction& ins);

class BanksView {
 public:
  void Draw(const StepFrame& frame, float height, float scale, std::vector<Placed>* placed);
};

}  // namespace ws::visual
