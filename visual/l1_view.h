// L1 view: the L1 cache of the SM that runs the shown block, at the current step. Each slot (a
// set's way) is a small box split into its four sectors, filled in the colour of the array its
// line belongs to where the sector is valid; the lines the step touches are outlined in white and
// the lines that arrived (or gained sectors) since the warp's previous step in yellow, as the
// course animations show lines arriving in a cache. The state comes from the simulator's log (l1_state.h), never from
// simulating again; the slots' arrangement is a pure function (L1Grid) that the tests check.
#pragma once
#include <cstdint>
#include <vector>

#include "visual/shown_step.h"
#include "visual/l1_state.h"

namespace ws::visual {

// Slots of `sets` x `ways` in rows of whole sets, fitted into `area`: the square cell and the
// number of sets per row that make the cells largest.
struct L1GridLayout {
  uint32_t sets_per_row = 1, rows = 0, cols = 0;  // cols = sets_per_row * ways
  float cell = 0;
};
L1GridLayout L1Grid(uint32_t sets, uint32_t ways, float w, float h);

class L1CacheView {
 public:
  // Draws into the current window, `height` pixels tall at most; records the slots' grid as kind
  // "l1" (name "L1") in `placed`.
  void Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed);

 private:
  L1State state_;
  // What the outlines were worked out for: the log, the step's events and the warp's last step's.
  const sim::Trace::Caches* shown_ = nullptr;
  uint32_t shown_now_ = 0, shown_before_ = 0;
  std::vector<uint8_t> arrived_;  // per slot: its line arrived or gained sectors since the last step
};

}  // namespace ws::visual
