// Shared-memory view: 32 bank columns; in each, a stack of one mark per lane the bank serves, a
// word's lanes together: a bank serving more than one word is marked with its n-way degree (a
// 32-way conflict is 32 marks), and a word several lanes read at once is one framed group marked
// "free" (a broadcast: as tall as a conflict of as many lanes, and no cost). What goes where (words, lanes, phases,
// degrees) is sim::SharedBanks' result; this file only lays it out.
#pragma once
#include <string>
#include <vector>

#include "sim/rules.h"
#include "visual/shown_step.h"

namespace ws::visual {

// The tallest bank's stack: the lanes it serves, over all its words (never more than 32).
int StackMarks(const std::vector<sim::BankColumn>& cols);

// The view's help: how to read it, with the phase rule's own sentence (sim::BankPhaseRule).
std::string BanksHelp();

class BanksView {
 public:
  // The height the view needs for the step's every mark at the smallest slot, its title included
  // (inside an ImGui frame: it reads the font).
  // `hall` (presenter mode, a short window): a step that touches no shared memory shrinks the
  // view to one line, its label (see Draw).
  static float NeededHeight(const ShownStep& shown_step, float scale, bool hall = false);
  // The same for a stack of `marks` marks (a 32-way conflict or a 32-lane broadcast: 32).
  static float NeededHeight(int marks, float scale);
  // `hall`: at a step that touches no shared memory, one line ("Shared-memory banks: not touched
  // by this step", recorded as kind "banks_label"), the room going to what the step touches; at
  // one that does, a header of one text line: the n-way or "free" mark on the bank numbers' line,
  // in place of the numbers it would cover, so that the stack gets the line.
  void Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed, bool hall = false);
};

}  // namespace ws::visual
