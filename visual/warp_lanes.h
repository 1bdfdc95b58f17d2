// Warp view: the current instruction's cost as a large badge that wraps (sim::Caption's words),
// then the 32 lanes as a strip, active in lane colours or masked off in grey.
#pragma once
#include <string>
#include <vector>

#include "visual/shown_step.h"

struct ImFont;

namespace ws::visual {

// Every how many columns a number is drawn so that numbers never run together: every column when
// a column is at least twice a label's width, else every 4th (0, 4, 8 ...), else every 8th or
// 16th — the smallest stride whose span holds one and a half labels. Lanes and banks use it.
int LabelStride(float column_w, float label_w);

// The badge's tooltip: what a global (or shared) request costs, with the rules' own sentences
// (sim/rule_text.h): the ideal, the allocation rule, the phase rule.
std::string CostHelp(bool global);

// Which instruction the step is, in full ("block 0 warp 0, line 11: ld.global d 4B"; a whole
// block's "block 0, 8 warps, line 11: ...") and briefly ("line 11: ld.global d"); empty without one.
struct InstructionWording {
  std::string full, brief;
};
InstructionWording InstructionWords(const ShownStep& shown_step);

class WarpLanesView {
 public:
  // The instruction in one line and its cost as a badge. `badge_font`: the badge's headline
  // font (null: the largest font loaded); it never shrinks below `min_headline` pixels (the share
  // of the window's height it must keep).
  // `instruction_line` false: the badge alone (a short window's pane says the instruction in its
  // title, InstructionWords).
  void DrawCost(const ShownStep& shown_step, float scale, std::vector<Placed>* placed, ImFont* badge_font = nullptr,
                float min_headline = 0, bool instruction_line = true);
  // The lane strip (and, when asked, every lane's element).
  // `compact`: a thin strip without lane numbers, for a pane short of room for the picture.
  void Draw(const ShownStep& shown_step, float scale, std::vector<Placed>* placed, bool compact = false);

  bool show_addresses = false;  // list every lane's element and address (set by the pane's view menu)
};

}  // namespace ws::visual
