// The shown step, what the views draw at one moment: a trace and the instructions of the current
// step (one warp, or every warp of the block), with the recent ones (the trail) and all earlier
// ones (the heat); and where the views put things (Placed). visual/stepping.h chooses them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/geometry.h"
#include "sim/trace.h"
#include "visual/layout.h"

namespace ws::visual {

struct ShownStep {
  const sim::Trace* trace = nullptr;
  std::string pane;                                  // "A" or "B"
  std::vector<const sim::WarpInstruction*> current;  // the step: focused warp first
  std::vector<const sim::WarpInstruction*> trail;    // the focused warp's previous steps, newest first
  std::vector<const sim::WarpInstruction*> history;  // every shown instruction up to and including the step
  uint64_t version = 0;                              // changes whenever any of the above does
  const sim::WarpInstruction* Focus() const { return current.empty() ? nullptr : current.front(); }
};

// The sectors one view points at and the others light with it (a served-from mark and the
// cache slots that hold its sector): sectors `sectors` (bit i = sector i) of line `line`.
struct LitSectors {
  uint64_t line = ~0ull;  // byte address / 128; ~0: nothing lit
  uint8_t sectors = 0;
  bool Has(uint64_t sector) const {
    return sector / sim::kSectorsPerLine == line && (sectors >> (sector % sim::kSectorsPerLine) & 1);
  }
};

// Where a view put something, for scripted runs and the GUI tests (written as JSON).
struct Placed {
  // kind: "grid", "overview", "label" (an array drawn as its name), "lanes", "banks"; the cache views'
  // "l1", "l1_sets", "l2", "l2_sets"; "lit": a sector another view points at, outlined (name: its
  // array in the memory view, its first cell; "L1", "L2": its place in a cache view's slot)
  std::string pane, kind, name;
  Rect rect;                     // the rectangle handed to the layout function (grids: the cells shown)
  uint64_t rows = 0, cols = 0;   // grids: the drawn shape, in cells
  float zoom = 1.0f;
  float cell = 0;                    // grids: side of a cell in pixels
  uint64_t row0 = 0, col0 = 0;       // grids: the cell at the rect's top-left (a region further in)
  uint32_t cells_per_elem = 1;       // grids: > 1 when a struct is drawn as 4-byte pieces
  bool touched = false;              // grids: the step touches the array, in cells [r0..r1] x [c0..c1]
  uint64_t touched_r0 = 0, touched_c0 = 0, touched_r1 = 0, touched_c1 = 0;
  uint64_t lines_r0 = 0, lines_c0 = 0, lines_r1 = 0, lines_c1 = 0;  // grids: the same with its 128-byte lines whole
  float header_h = 0, slot_h = 0;  // banks
};

}  // namespace ws::visual
