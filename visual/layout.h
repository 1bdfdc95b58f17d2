// Where things go on screen: pure functions from a panel's rectangle and a trace's shapes to
// cell rectangles. The views draw with them and the GUI tests compute expected pixels with them.
// Sections (markers below, // ---- NAME ----): grids · the memory view's plan · lanes and banks ·
// tooltips.
// The plan gives each array its slot, its cell size and the region it follows.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ws::visual {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float CenterX() const { return x + w * 0.5f; }
  float CenterY() const { return y + h * 0.5f; }
};

// ---- grids ----

// A grid's shape in cells (see MapCells for how an array becomes one).
struct GridShape {
  uint64_t rows = 1, cols = 1;
};

// How an array's bytes map onto cells. A cell is one element, or one 4-byte piece of a struct
// wider than 16 bytes (a 32-byte RayState is 8 cells side by side), so that each load lights only
// the pieces it reads. 1-D arrays wrap so that a row is one 128-byte line: 32 cells of 4 bytes,
// 16 of 8, 8 of 16 (sizes that do not divide 128 wrap at 32 cells). Matrices keep their shape,
// except arrays of structs, which always wrap at 128 bytes. In a narrow pane the memory view's
// plan may draw a wrapped global array in rows of half or a quarter of a line (ArraySlot::shape).
struct CellMap {
  uint32_t cell_bytes = 4;      // bytes per cell
  uint32_t cells_per_elem = 1;  // > 1 for structs drawn as pieces
  GridShape shape;              // in cells
};
CellMap MapCells(uint64_t rows, uint64_t cols, uint64_t count, uint32_t elem_bytes);

// A grid of rows x cols square cells fitted into `area` (top-left aligned), times `zoom`.
struct GridLayout {
  float x0 = 0, y0 = 0;  // top-left of cell (0, 0); off screen when a region further in is shown
  float cell = 0;        // side of one cell in pixels (may be below 1)
  uint64_t rows = 0, cols = 0;
  float Width() const { return cell * float(cols); }
  float Height() const { return cell * float(rows); }
};
GridLayout LayoutGrid(uint64_t rows, uint64_t cols, Rect area, float zoom = 1.0f);
Rect CellRect(const GridLayout& g, uint64_t row, uint64_t col);
// Cell `index` of a struct element drawn as pieces: the same as CellRect on the wrapped shape.
inline Rect PieceRect(const GridLayout& g, const CellMap& m, uint64_t elem, uint32_t piece) {
  const uint64_t i = elem * m.cells_per_elem + piece;
  return CellRect(g, i / m.shape.cols, i % m.shape.cols);
}

// ---- the memory view's plan ----

// The cell the memory view prefers at UI scale `scale`: 16 px at 1, 20 at 1.5, 24 at 2. Arrays
// that do not fit whole at this size show the region the step touches instead, and that region
// holds the step's whole footprint: where the footprint does not fit at this size, the cells shrink
// until it does (every cell the step touches is in view, DESIGN.md "Legible from the back of the hall").
inline float LegibleCell(float scale) { return 8.0f + 8.0f * scale; }
// The largest cell, so that a 4x4 array does not fill a pane.
inline float LargestCell(float scale) { return 56.0f * scale; }
// The smallest cell a region shrinks to for the step's footprint (px): below it the slot runs past
// its share of the room and the pane scrolls to it.
inline constexpr float kLeastCell = 4.0f;
// A shared-memory tile the step touches is drawn whole wherever its cells can be this large (px),
// and wherever whole its cells are at least 7/8 of the size the step's footprint alone gets, or a
// pixel less.
inline constexpr float kTileCell = 16.0f;
// Arrays of at most this many cells (a counter, a result) get a small fixed strip.
inline constexpr uint64_t kTinyCells = 8;

struct PlanArray {
  std::string name;
  GridShape shape;      // in cells (CellMap::shape)
  bool lesson = false;  // the shown warp touches it: it gets the larger slots
  // The step's footprint: the rows and columns of cells one step spans at most, with every
  // 128-byte line it touches whole. The memory view measures them on the recorded steps and the
  // step shown; without a record, a wrapped 1-D array's warp reads one row (8 rows for 32-byte
  // structs) and a matrix may be read down a column, so up to 32.
  uint64_t warp_rows = 32;
  uint64_t warp_cols = 32;
  // A wrapped array (1-D, or of structs) may be drawn in rows narrower than a 128-byte line when a
  // line's row leaves the step's footprint out of view: halves of `shape.cols`, down to this many
  // cells, in multiples of it (a sector's cells, or a multiple of a struct's). 0: its rows are its
  // own (a matrix).
  uint64_t min_cols = 0;
  bool tile = false;        // a shared-memory array: whole wherever its cells can be kTileCell px
  bool step_touches = false;  // the step shown touches it: its footprint gets the room (presenter mode draws only these)
  // Set by PlanMemoryView in the hall for the arrays the step touches: a region of it may have cells
  // up to twice LegibleCell, so that a line that is not whole at legible cells fills the room its
  // whole array would leave empty (pairs' b: 8 rows of a line at 18 px left 27 % of a pane).
  bool fill = false;
  // The least width its label needs, px: its name (a drawn array's label adds its type and shape
  // where they fit). 0: not known (the hall's labels then take a line of their own).
  float label_w = 0;
};
struct ArraySlot {
  std::string name;
  Rect label;        // one text line above the cells
  Rect view;         // where cells are drawn; empty (w = h = 0) for an array drawn as its label only
  Rect overview;     // the whole array in miniature, beside `view`; w = 0 when it is shown whole
  GridShape shape;   // the cells' shape: the array's, or a wrapped array's narrower rows (min_cols)
  float cell = 0;    // side of a cell in pixels
  bool whole = true; // every cell fits in `view`
  bool label_only = false;  // presenter mode: the step does not touch it
};
// Slots for every array of both panes (same name, same slot: A and B pass the same list and area).
// Tiny arrays (a result, a counter: where atomics land) come first, a strip at the top, so that a
// short pane never pushes them out of sight; the others share the rest in the arrangement (1..n
// columns) that shows the step's arrays best (else the lesson's: the largest cells when they fit
// whole, else the largest cells at which the step's whole footprint is in view: `warp_cols`
// across, `warp_rows` down; a wrapped array in rows of half or a quarter of a line where that
// holds it larger); a row's height is shared by weight: the step's arrays as many rows as their
// footprint (2 at least), other lesson arrays 2, the rest 1. A cell is a whole number of pixels, so
// that all cells and gaps of a grid look alike. When the room is too small every slot still gets
// a row of cells and later slots run past the bottom (the view clips them) rather than overlap.
// `hall` (presenter mode) gives the room to what the step touches: the arrays it does not touch
// are labels side by side on one line (at the right end of the label line of the one array the
// step touches, where their `label_w` and its own fit there), an overview sits at the end of its
// array's label, and a
// tiny array the step touches has cells up to twice LargestCell within the width and the height
// left (beside a larger array the step touches, LargestCell within a quarter of the height)
// instead of the strip's. A tile the hall draws alone, whose rows the height limits, has its label
// and the untouched names in a column at the right of its cells where that makes its cells larger;
// the hall keeps no gap under the last row of slots.
std::vector<ArraySlot> PlanMemoryView(const std::vector<PlanArray>& arrays, Rect area, float scale, float label_h,
                                      bool hall = false);

// `cells` cells in rows of `cols` (one row when they fit in it).
inline GridShape WrapShape(uint64_t cells, uint64_t cols) {
  cols = cols ? cols : 1;
  return cells <= cols ? GridShape{1, cells ? cells : 1} : GridShape{(cells + cols - 1) / cols, cols};
}

// The part of a grid a view shows: rows [row0, row0 + rows), cols [col0, col0 + cols).
struct GridWindow {
  uint64_t row0 = 0, col0 = 0, rows = 0, cols = 0;
  bool Contains(uint64_t r, uint64_t c) const { return r >= row0 && r < row0 + rows && c >= col0 && c < col0 + cols; }
};
// The window of `shape` that `view` holds at `cell` px, moved to show the cells [r0..r1] x
// [c0..c1] the step touches: kept where it is when they are already inside `previous`,
// centred on them otherwise, and anchored at their top-left when they do not fit.
GridWindow FollowWindow(GridShape shape, Rect view, float cell, uint64_t r0, uint64_t c0, uint64_t r1, uint64_t c1,
                        const GridWindow& previous);
// The grid placed so that the window's top-left cell sits at the view's top-left.
GridLayout WindowLayout(const GridWindow& w, Rect view, float cell, GridShape shape);

// ---- lanes and banks ----

// The warp strip: 32 lane boxes side by side across `strip`; a box is square at most.
Rect LaneBox(Rect strip, int lane);

// The bank view: 32 bank columns across `area`; a header row of `header_h` pixels (bank number,
// n-way degree), then one row per distinct word in the bank, `slot_h` pixels each.
struct BankLayout {
  Rect area;
  float header_h = 0, slot_h = 0;
};
Rect BankHeader(const BankLayout& b, int bank);
Rect BankSlot(const BankLayout& b, int bank, int slot);

// ---- tooltips ----

// Where a hover's tooltip of `w` x `h` px goes while a view lit by the same hover is on screen at
// `keep_clear` (the cache view beside the panes: the lecturer points at a served-from mark and the
// class looks at its slot). Beside the pointer's box (pointer.x - 16, pointer.y - 8 to + 24, + 24,
// times `scale`, as Dear ImGui's own tooltips keep clear of): to its right, as Dear ImGui puts it,
// then left, below, above; below and above slide sideways off keep_clear, on the pointer's side of
// it. The first inside `screen` and clear of both wins. Where none is, the tooltip covers the
// pointer but not keep_clear (the panes before the cache view); where it cannot, the place that
// covers least of keep_clear.
Rect PlaceTooltip(float pointer_x, float pointer_y, float w, float h, const Rect& screen, const Rect& keep_clear, float scale);
// The widest a tooltip may be to keep clear of `keep_clear` on the pointer's side of it (the
// whole screen's width where keep_clear is empty or holds the pointer).
float TooltipRoom(float pointer_x, const Rect& screen, const Rect& keep_clear);
// Whether a and b share any area.
bool Overlaps(const Rect& a, const Rect& b);

}  // namespace ws::visual
