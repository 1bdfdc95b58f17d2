// Shared-memory view: 32 bank columns; each distinct word the step's lanes touch sits in its
// bank's column, a bank serving more than one word is marked with its n-way degree, and words
// several lanes read at once are drawn as broadcasts. What goes where (words, lanes, phases,
// degrees) is sim::SharedBanks' result; this file only lays it out.
#pragma once
#include <string>
#include <vector>

#include "sim/rules.h"
#include "visual/shown_step.h"

namespace ws::visual {

// A stack of `words` slots where `fit` slots fit: all of them, or `fit - 1` words and one
// "+N more" row (N = the words not drawn).
struct BankStack {
  int shown = 0;
  int more = 0;
};
BankStack FitBankStack(int words, int fit);

// The view's help: how to read it, with the phase rule's own sentence (sim::BankPhaseRule).
std::string BanksHelp();

class BanksView {
 public:
  void Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed);
};

}  // namespace ws::visual
