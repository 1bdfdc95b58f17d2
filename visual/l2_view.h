// L2 view: the device L2's sets that the current step looked up, drawn as the L1 view draws its
// sets. Each set is a row of its ways, most recently used first (the set as the step left it,
// from Trace::Caches::l2_lines: the L2 is shared by every SM and too large to log whole), a way
// split into four sectors filled in its array's colour where L2 holds them; under each sector the
// step read, a bar in the colour of where it was served from. A line DRAM filled for the step
// slides in (yellow outline), the line it evicted slides out past the oldest way. Under the sets,
// the whole L2 as one strip of its sets with the step's marked. The arrangement is a pure
// function (L2Rows) that the tests check.
#pragma once
#include <cstdint>
#include <vector>

#include "visual/shown_step.h"

namespace ws::visual {

// The ways of a step's set the L2 view shows at least (the newest, where the step's lines are).
inline constexpr uint32_t kL2LeastWays = 4;

// `sets` rows of `ways` slots (kL1SlotAspect cells wide, one tall, `gap` apart, after a label of
// `label_w` and a gap) in `w` x `h` px, with `more_w` px kept at a row's end for "+N older" when
// its ways are cut, unless that leaves fewer than kL2LeastWays. The cell is the largest that shows
// every set and way, at most `max_cell`; below `min_cell` the oldest ways are left out first, then
// the sets that do not fit at min_cell.
struct L2RowsLayout {
  uint32_t shown_sets = 0, shown_ways = 0;
  float cell = 0;  // a slot's height (px); its width is kL1SlotAspect * cell
};
L2RowsLayout L2Rows(uint32_t sets, uint32_t ways, float label_w, float more_w, float gap, float w, float h, float min_cell,
                    float max_cell);

class L2CacheView {
 public:
  // The least width (px) in which Draw shows kL2LeastWays ways of a set at the least slot height
  // (as the L1 view's) after the label of set `last_set`, at the current font ("+N older" where it fits).
  static float LeastWidth(uint32_t last_set, float scale);
  // Draws into the current window, `height` pixels tall at most; records the step's sets as kind
  // "l2_sets" (cell: a slot's height) and the strip as kind "l2" in `placed`. `lit`: the sectors
  // another view points at; those the step read are outlined here in their mark's colour.
  void Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed, LitSectors lit = {});
  // The line under the mouse (its four sectors) in the last frame, for the other views to light.
  LitSectors hovered() const { return hovered_; }
  // The height (px) that shows every set of the last frame's step at the least slot height: the
  // lines above the sets, a row per set (kL2LeastWays and more in L2) and the overview under them.
  float WantedHeight(float scale) const;

 private:
  const sim::WarpInstruction* shown_ = nullptr;  // the focused instruction the animation started for
  double changed_at_ = -1e9;
  LitSectors hovered_;
  uint32_t step_sets_ = 0;  // the last frame's
  float above_sets_ = 0;    // the last frame's height of the lines above the sets (px)
};

}  // namespace ws::visual
