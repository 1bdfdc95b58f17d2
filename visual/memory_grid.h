// Memory view: every array the variant touches as a grid of cells (an element, or a 4-byte piece
// of a struct), with the step's lanes lit in lane colours, their lines and sectors outlined, a
// fading trail of the last steps and a shade for touches so far, and under each sector a bar saying
// where the cache model served it (L1 hit, L2, DRAM); hovering a cell says who touched it and when. Arrays too large to show whole at a legible size show the region the step touches,
// with an overview of the whole array beside it. Only visible cells are drawn.
#pragma once
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "visual/memory_plan_share.h"
#include "visual/shown_step.h"

namespace ws::visual {

// The lanes of the shown instructions that touch each cell of array `array` (by cell index in `m`).
// A cell more than one lane touches is one word read (or written) by many lanes: a broadcast within
// a warp, or, in whole-block mode, the same word in several warps. It is drawn as such: the lanes'
// colours side by side and their count, never the colour of whichever lane came last.
struct CellLanes {
  uint32_t lanes = 0;  // bit i: lane i of some shown warp touches the cell
  uint32_t count = 0;  // lane accesses to the cell, over every shown warp
};
std::map<uint64_t, CellLanes> LanesByCell(const sim::ArrayInfo& a, const CellMap& m, int array,
                                          const std::vector<const sim::WarpInstruction*>& current);

class MemoryGridView {
 public:
  // Draws into the current ImGui window, filling `height` pixels of it (the full width). With
  // `share`, A and B lay out their arrays together. `hall` (presenter mode): the room goes to the
  // arrays the step touches, the others are labels (PlanMemoryView). Returns the height the
  // arrays took (less than `height` when they are drawn whole in less).
  float Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed,
             MemoryPlanShare* share = nullptr, bool hall = false);

  // The line an array's label takes above its cells: in the hall half the spacing under the text
  // (the tile's rows take the height: transpose's 33 at 16 px in presenter mode at 1920x1080).
  static float LabelLine(bool hall);

  // Set by the pane's view menu (the app draws it; presenter mode hides it).
  float zoom = 1.0f;    // magnification of the cells, 1 to 16: the view then shows the region the step touches
  int trail_steps = 3;  // earlier steps of the warp that stay lit, fading, 0 to 8
  // Set by the app in a short window (the hall layout of the normal mode, where every line
  // counts): the hall's labels of untouched arrays go on the line of the array the step touches
  // where they fit (PlanArray::label_w).
  bool labels_beside = false;
  // Set by the app each frame: the sectors the L1 or L2 view points at (a slot under the mouse);
  // those the step read are outlined in their served-from mark's colour.
  LitSectors lit_sectors;
  // The sector under the mouse in the last frame when the step read it (its served-from mark),
  // for the cache views to light the slot that holds it.
  LitSectors hovered() const { return hovered_; }

 private:
  struct ArrayState {
    CellMap map;
    bool lesson = false;
    std::unordered_map<uint64_t, uint32_t> counts;  // touches so far, by cell
    uint32_t most = 0;
    GridWindow window;
    // The most rows and columns of cells one recorded warp instruction spans (0: none recorded).
    uint64_t span_rows = 0, span_cols = 0;
  };
  void Update(const ShownStep& shown_step);
  const sim::Trace* trace_ = nullptr;
  float needed_h_ = 0;  // the height last frame's plan took, past the room offered when that was short
  float used_h_ = 0;    // the height last frame's arrays took, labels and overviews included
  const sim::WarpInstruction* planned_for_ = nullptr;  // the step last frame's plan was for
  std::vector<ArrayState> arrays_;  // by array id
  LitSectors hovered_;
  size_t counted_ = 0;                           // shown_step.history entries in `counts`
  const sim::WarpInstruction* last_counted_ = nullptr;
};

}  // namespace ws::visual
