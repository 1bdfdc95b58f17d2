// L1 view: the L1 cache of the SM that runs the shown block, at the current step. Large: the sets
// the step touches, each a row of its ways' line slots, most recently used first (LRU order), split
// into four sectors, filled in the colour of the array the line belongs to where a sector is held,
// with a bar under each sector the step reads in the colour of where it was served from; a line
// that arrived since the warp's previous step slides in from the set's label (yellow outline), the
// lines it passes move to their new places and the line it evicted slides out past the oldest
// way, as the course animations show lines arriving in a cache. Small: the whole L1 as an
// overview, the step's sets marked. The state comes from the simulator's log (l1_state.h),
// never from simulating again; both arrangements are pure functions (L1Sets, L1Grid) that the
// tests check.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "visual/shown_step.h"
#include "visual/l1_state.h"
#include "visual/palette.h"

namespace ws::visual {

// The global array a line (byte address / 128) belongs to (its first byte), -1 if none; and its
// elements as a reader names them ("d[32..63]", "outside the arrays").
int ArrayOfLine(const sim::Trace& t, uint64_t line);
std::string LineElements(const sim::Trace& t, uint64_t line);
// The colour of a served-from mark (L1 hit, L2, DRAM), as the memory view draws it.
Rgb ServedFromRgb(sim::ServedFrom from);
// The line under a cache view's sets when `rest` of the step's sets did not fit (the L1 and the L2
// view): "+3 more sets `which`", or "+3 more sets" where `width` px leave no room for the rest,
// drawn at `x`, `y` of the current window in the highlight's colour.
void DrawMoreSets(float x, float y, size_t rest, const std::string& which, float width);
// What both cache views' sets are made of, at the current font: the gap between slots, the width
// of the label "set N" wide enough for set `last_set`, and a slot's least height (16 px, or a line
// of text where that is taller, so that the sets' labels stay apart).
float SlotGap(float scale);
float SetLabelWidth(uint32_t last_set);
float LeastSlotHeight();

// Slots of `sets` x `ways` in rows of whole sets, fitted into `area`: the square cell and the
// number of sets per row that make the cells largest.
struct L1GridLayout {
  uint32_t sets_per_row = 1, rows = 0, cols = 0;  // cols = sets_per_row * ways
  float cell = 0;
};
L1GridLayout L1Grid(uint32_t sets, uint32_t ways, float w, float h);

// A slot of the large part is kL1SlotAspect cells wide and one cell tall (its sectors side by side).
inline constexpr float kL1SlotAspect = 1.5f;
// `sets` sets of `ways` slots in `w` x `h` px: each set is its label (`label_w` px, then `gap`)
// and its slots `gap` apart; sets side by side (`per_row`, 4 * gap apart) in rows `gap` apart.
// The cell (a slot's height) is the largest that shows every set, at most `max_cell`; when that
// is under `min_cell`, the cell is `min_cell` and only the first `shown` sets are drawn (0 when
// not even one fits).
struct L1SetsLayout {
  uint32_t shown = 0, per_row = 1, rows = 0;
  float cell = 0;   // a slot's height (px); its width is kL1SlotAspect * cell
  float set_w = 0;  // one set's width: label, gap and slots
};
L1SetsLayout L1Sets(uint32_t sets, uint32_t ways, float label_w, float gap, float w, float h, float min_cell, float max_cell);

class L1CacheView {
 public:
  // The least width (px) in which Draw shows a set of `ways` slots at the least slot height (16 px,
  // or a line of text where that is taller) with the label of set `last_set`, at the current font.
  static float LeastWidth(uint32_t last_set, uint32_t ways, float scale);
  // Draws into the current window, `height` pixels tall at most; records the step's sets as kind
  // "l1_sets" (cell: a slot's height) and the overview as kind "l1" (name "L1") in `placed`.
  // `lit`: the sectors another view points at (a served-from mark hovered in the memory view, a
  // slot of the L2 view); those the step read are outlined here in their mark's colour.
  void Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed, LitSectors lit = {});
  // The line under the mouse (its four sectors) in the last frame, for the other views to light.
  LitSectors hovered() const { return hovered_; }
  // The height (px) that shows every set of the last frame's step at the least slot height: the
  // lines above the sets, a row per set (kL2LeastWays and more in L2) and the overview under them.
  float WantedHeight(float scale) const;

 private:
  L1State state_;
  // What the outlines were worked out for: the log, the step's events and the warp's last step's.
  const sim::Trace::Caches* shown_ = nullptr;
  uint32_t shown_now_ = 0, shown_before_ = 0;
  std::vector<uint8_t> arrived_;   // per slot: its line arrived or gained sectors since the last step
  std::vector<uint64_t> evicted_;  // per slot: the line it held at the last step, if another came since
  std::vector<uint8_t> came_;      // per slot: a line came into it since the last step (it was empty or held another)
  std::vector<uint8_t> before_rank_;  // per slot: its place in its set by use at the last step (0: most recent)
  LitSectors hovered_;
  uint32_t step_sets_ = 0;  // the last frame's
  float above_sets_ = 0;    // the last frame's height of the lines above the sets (px)
  double changed_at_ = -1e9;       // ImGui time at which the step changed (the arrival's animation)
};

}  // namespace ws::visual
