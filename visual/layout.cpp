// Layout arithmetic for the views (see layout.h).
#include "visual/layout.h"

#include <algorithm>
#include <cmath>

#include "sim/geometry.h"
#include "sim/trace.h"

namespace ws::visual {

CellMap MapCells(uint64_t rows, uint64_t cols, uint64_t count, uint32_t elem_bytes) {
  CellMap m;
  const uint32_t elem = std::max<uint32_t>(elem_bytes, 1);
  m.cell_bytes = elem;
  if (elem > 16 && elem % 4 == 0) {
    m.cell_bytes = 4;
    m.cells_per_elem = elem / 4;
  }
  // Matrices stay matrices; arrays of structs always wrap at 128 bytes, whatever shape they were
  // given, so that a warp's structs are a few rows of pieces rather than one very long row.
  if (rows > 1 && cols > 0 && m.cells_per_elem == 1) {
    m.shape = {rows, cols};
    return m;
  }
  uint64_t per_row = m.cell_bytes >= 4 && sim::kLineBytes % m.cell_bytes == 0 ? sim::kLineBytes / m.cell_bytes : 32;
  if (per_row % m.cells_per_elem) per_row = std::max<uint64_t>(m.cells_per_elem, per_row / m.cells_per_elem * m.cells_per_elem);
  const uint64_t n = std::max<uint64_t>(count, 1) * m.cells_per_elem;
  m.shape = n <= per_row ? GridShape{1, n} : GridShape{(n + per_row - 1) / per_row, per_row};
  return m;
}

GridLayout LayoutGrid(uint64_t rows, uint64_t cols, Rect area, float zoom) {
  GridLayout g;
  g.rows = std::max<uint64_t>(rows, 1);
  g.cols = std::max<uint64_t>(cols, 1);
  const float fit = std::min(area.w / float(g.cols), area.h / float(g.rows));
  g.cell = std::max(fit, 0.0f) * std::max(zoom, 0.01f);
  g.x0 = area.x;
  g.y0 = area.y;
  return g;
}

Rect CellRect(const GridLayout& g, uint64_t row, uint64_t col) {
  return {g.x0 + float(col) * g.cell, g.y0 + float(row) * g.cell, g.cell, g.cell};
}

// ---- the memory view's plan ----

namespace {

float Fit(GridShape s, float w, float h) {
  return std::max(0.0f, std::min(w / float(std::max<uint64_t>(s.cols, 1)), h / float(std::max<uint64_t>(s.rows, 1))));
}
bool IsTiny(const PlanArray& a) { return a.shape.rows * a.shape.cols <= kTinyCells; }
// The step's footprint in an array's cells (PlanArray::warp_rows and warp_cols, within the array).
GridShape Footprint(const PlanArray& a) {
  return {std::clamp<uint64_t>(a.warp_rows, 1, std::max<uint64_t>(a.shape.rows, 1)),
          std::clamp<uint64_t>(a.warp_cols, 1, std::max<uint64_t>(a.shape.cols, 1))};
}

// A cell of `fit` px as drawn: whole pixels from 2 px up, so that all cells and gaps look alike.
float WholePixels(float fit) { return fit >= 2.0f ? std::floor(fit) : std::max(fit, 0.0f); }

// How an array shows in w x h: whole (at the largest cell up to LargestCell, never below the
// legible size when the fit reaches it; a tile wherever its cells reach kTileCell), else a region
// at the legible size, or at the largest cell below it that holds the step's whole footprint.
struct Showing {
  bool whole = true;
  float cell = 0;
};
Showing Show(const PlanArray& a, float w, float h, float scale) {
  const float legible = LegibleCell(scale);
  const float fit = std::min(Fit(a.shape, w, h), LargestCell(scale));
  const GridShape fp = Footprint(a);
  // (The hall draws the step's footprint up to twice the legible cell, PlanArray::fill: a region
  // of it where its cells are a quarter larger than the whole array's.)
  const float most = a.fill ? 2.0f * legible : legible;
  const float fp_fit = std::max(WholePixels(std::min({most, std::max(w, 0.0f) / float(fp.cols), std::max(h, 0.0f) / float(fp.rows)})),
                                kLeastCell);
    // (a fit of 20.7 px and one of 20.2 px both draw at 20, and a slightly narrower pane at a larger
  // scale does not shrink the cells)
  if (fit >= legible) {
    const float whole = std::max(std::floor(fit), legible);
    if (a.fill && !a.tile && fp_fit >= 1.25f * whole) return {false, fp_fit};
    return {true, whole};
  }
  if (a.tile && fit >= kTileCell) return {true, std::floor(fit)};
  // The whole array as large as the footprint alone: whole it is. A shared tile also where whole
  // its cells lose at most an eighth of the footprint's (the padded 33x32 tile at 13 px rather
  // than its first 32 rows at 14: the padding row is the lesson).
  if (WholePixels(fit) >= fp_fit) return {true, WholePixels(fit)};
  // (And within a pixel of it: at 1280x720 scale 2 the 33 rows at 5 px rather than 32 at 6.)
  if (a.tile && WholePixels(fit) >= std::max(kLeastCell, std::min(0.875f * fp_fit, fp_fit - 1.0f))) return {true, WholePixels(fit)};
  return {false, fp_fit};
}

// The array in rows of `cols` cells (narrower than its own): its shape and the step's footprint
// there (a run of c cells spans c / cols rows of `cols`).
PlanArray Wrapped(const PlanArray& a, uint64_t cols) {
  PlanArray w = a;
  const GridShape fp = Footprint(a);
  w.shape = WrapShape(a.shape.rows * a.shape.cols, cols);
  w.warp_rows = fp.rows * ((fp.cols + cols - 1) / cols);
  w.warp_cols = std::min(fp.cols, cols);
  return w;
}

// The shape that shows `a` best in w x h: its own when it fits whole at the legible size or is a
// matrix; else, for a wrapped array, rows of half or a quarter of a line where they show the
// step's footprint (or the whole array) in larger cells, the widest of the best. An array whole
// in rows of a line stays so unless narrower rows make its cells a quarter larger: pairs' b (256
// floats) in presenter mode at 1280x720 was a region of half-line rows at 19 px beside the whole
// array at 18, a line the warp reads cut over two rows. Where the hall lets the footprint grow
// (PlanArray::fill), rows of a quarter of a line likewise need cells a quarter larger than rows
// of half a line.
PlanArray BestWrap(const PlanArray& a, float w, float h, float scale) {
  PlanArray best = a;
  if (a.min_cols == 0 || a.min_cols >= a.shape.cols) return best;
  const Showing own = Show(a, w, h, scale);
  if (own.whole && own.cell >= LegibleCell(scale) && !a.fill) return best;  // whole, rows of a line
  float best_cell = own.whole ? own.cell * 1.25f : own.cell * 1.01f;
  for (uint64_t cols = a.shape.cols / 2; cols >= a.min_cols && cols % a.min_cols == 0; cols /= 2) {
    const PlanArray c = Wrapped(a, cols);
    const float cell = Show(c, w, h, scale).cell;
    if (cell > best_cell) best = c, best_cell = cell * (a.fill ? 1.25f : 1.01f);
  }
  return best;
}

float Score(const PlanArray& a, float w, float h, float scale) { return Show(BestWrap(a, w, h, scale), w, h, scale).cell; }

// Cells of one big array in its slot: whole when they fit (Show), else a region holding the
// footprint with the overview in miniature where it does not cut the footprint: to the region's
// right when the room beside a footprint's width allows, else below the region when the room under
// the footprint's height does, else (and always in the hall) at the end of the label's line.
ArraySlot FillSlot(const PlanArray& planned, Rect label, Rect cells, float scale, bool hall) {
  const PlanArray a = BestWrap(planned, cells.w, cells.h, scale);
  ArraySlot s;
  s.name = a.name;
  s.label = label;
  s.shape = a.shape;
  const Showing shown = Show(a, cells.w, cells.h, scale);
  s.cell = shown.cell;
  if (shown.whole) {
    s.view = {cells.x, cells.y, s.cell * float(a.shape.cols), s.cell * float(a.shape.rows)};
    return s;
  }
  s.whole = false;
  const float gap = 8.0f * scale, min_side = 12.0f * scale;
  const GridShape fp = Footprint(a);
  const float fp_w = s.cell * float(fp.cols), fp_h = s.cell * float(fp.rows);
  const float ov_pref = std::min(cells.w * 0.15f, 96.0f * scale);
  const float beside = hall ? 0.0f : std::min(ov_pref, cells.w - fp_w - gap);
  const float below = hall ? 0.0f : std::min(cells.h - fp_h - gap, std::max(cells.h * 0.25f, min_side));
  s.view = {cells.x, cells.y, std::min(cells.w, s.cell * float(a.shape.cols)), std::min(cells.h, s.cell * float(a.shape.rows))};
  if (beside >= min_side) {
    s.view.w = std::min(cells.w - beside - gap, s.cell * float(a.shape.cols));
    const float c = Fit(a.shape, beside, cells.h);
    s.overview = {s.view.x + s.view.w + gap, cells.y, std::clamp(c * float(a.shape.cols), min_side, beside),
                  std::clamp(c * float(a.shape.rows), min_side, std::max(cells.h, min_side))};
  } else if (below >= min_side) {
    s.view.h = std::min(s.view.h, cells.h - below - gap);
    const float c = Fit(a.shape, cells.w, below);
    s.overview = {cells.x, s.view.y + s.view.h + gap, std::clamp(c * float(a.shape.cols), min_side, std::max(cells.w, min_side)),
                  std::clamp(c * float(a.shape.rows), min_side, below)};
  } else {
    // At the right end of the label's line, as tall as the line; the label gets the rest.
    const float h = std::max(label.h, min_side);
    const float w = std::clamp(h * float(a.shape.cols) / float(std::max<uint64_t>(a.shape.rows, 1)), min_side,
                               std::max(min_side, label.w * 0.3f));
    s.overview = {label.x + label.w - w, label.y, w, h};
    s.label.w = std::max(0.0f, label.w - w - gap);
  }
  // The footprint whole even where it runs past the slot (cells of kLeastCell: the pane scrolls).
  s.view.w = std::max(s.view.w, std::min(fp_w, cells.w));
  s.view.h = std::max(s.view.h, fp_h);
  // Whole cells only: the region ends at its last whole cell.
  if (s.cell > 0) {
    s.view.w = std::max(std::floor(s.view.w / s.cell + 1e-3f), 1.0f) * s.cell;
    s.view.h = std::max(std::floor(s.view.h / s.cell + 1e-3f), 1.0f) * s.cell;
  }
  // A footprint as large as the array (a 32x32 tile read down a column at kLeastCell px) holds all
  // of it: whole, and no overview of what is already in view.
  if (s.view.w + 0.5f >= s.cell * float(a.shape.cols) && s.view.h + 0.5f >= s.cell * float(a.shape.rows)) {
    s.whole = true;
    s.overview = {};
    s.label = label;
    s.view.w = s.cell * float(a.shape.cols);
    s.view.h = s.cell * float(a.shape.rows);
  }
  return s;
}

}  // namespace

std::vector<ArraySlot> PlanMemoryView(const std::vector<PlanArray>& arrays, Rect area, float scale, float label_h,
                                      bool hall) {
  std::vector<ArraySlot> out;
  const float gap = 8.0f * scale;
  float top = area.y;
  // The hall: arrays the step does not touch are labels, side by side on one line.
  std::vector<const PlanArray*> labels, rest;
  // (In the hall, the arrays the step touches may have their footprint drawn larger than legible.)
  std::vector<PlanArray> filled = arrays;
  for (auto& a : filled) a.fill = hall && a.step_touches;
  for (const auto& a : filled) (hall && !a.step_touches ? labels : rest).push_back(&a);
  // Beside the label of the one array the step touches where all fit on its line: at its right
  // end, each as wide as its name.
  float labels_w = 0;  // the labels side by side, the gaps between them included
  bool known = rest.size() == 1 && rest[0]->label_w > 0;
  for (const PlanArray* l : labels) known = known && l->label_w > 0, labels_w += l->label_w + gap;
  labels_w = std::max(labels_w - gap, 0.0f);
  // (and room for an overview at the end of the line, should the array be a region: as tall as
  // the line and as wide as the array's shape makes it, FillSlot's rule)
  float overview_w = 0;
  if (known) {
    const float side = std::max(label_h, 12.0f * scale), min_side = 12.0f * scale;
    const GridShape s = rest[0]->shape;
    overview_w = std::clamp(side * float(s.cols) / float(std::max<uint64_t>(s.rows, 1)), min_side, std::max(min_side, area.w * 0.3f)) + gap;
  }
  // The hall's one drawn array a tile whose rows the height limits (transpose's 33 at 1280x720
  // scale 2): its label and the untouched names in a column at the right of its cells, where the
  // label line's height given to its rows makes its cells larger (5 -> 7 px there).
  if (hall && known && rest[0]->tile && !IsTiny(*rest[0])) {
    const PlanArray& a = *rest[0];
    float col_w = a.label_w;
    for (const PlanArray* l : labels) col_w = std::max(col_w, l->label_w);
    const Showing above = Show(a, area.w, area.h - label_h, scale);
    const Showing right = Show(a, area.w - col_w - gap, area.h, scale);
    if (above.whole && right.whole && right.cell > above.cell) {
      ArraySlot s;
      s.name = a.name;
      s.shape = a.shape;
      s.cell = right.cell;
      s.view = {area.x, area.y, s.cell * float(a.shape.cols), s.cell * float(a.shape.rows)};
      const float x = s.view.x + s.view.w + gap;
      s.label = {x, area.y, area.x + area.w - x, label_h};
      out.push_back(s);
      float y = area.y;
      for (const PlanArray* l : labels) {
        y += label_h;
        ArraySlot ls;
        ls.name = l->name;
        ls.shape = l->shape;
        ls.label_only = true;
        ls.label = {x, y, area.x + area.w - x, label_h};
        ls.view = {x, y + label_h, 0, 0};
        out.push_back(ls);
      }
      return out;
    }
  }
  const bool beside = !labels.empty() && known && rest[0]->label_w + overview_w + gap + labels_w <= area.w;
  if (!beside) labels_w = 0;
  if (beside) {
    float x = area.x + area.w;
    for (size_t i = labels.size(); i-- > 0;) {
      x -= labels[i]->label_w;
      ArraySlot s;
      s.name = labels[i]->name;
      s.shape = labels[i]->shape;
      s.label_only = true;
      s.label = {x, top, labels[i]->label_w, label_h};
      s.view = {s.label.x, top + label_h, 0, 0};
      out.push_back(s);
      x -= gap;
    }
    labels.clear();
  }
  const size_t first_drawn = out.size();
  for (size_t i = 0; i < labels.size(); ++i) {
    const float w = area.w / float(labels.size());
    ArraySlot s;
    s.name = labels[i]->name;
    s.shape = labels[i]->shape;
    s.label_only = true;
    s.label = {area.x + w * float(i), top, w - (i + 1 < labels.size() ? gap : 0.0f), label_h};
    s.view = {s.label.x, top + label_h, 0, 0};
    out.push_back(s);
  }
  if (!labels.empty()) top += label_h + gap;
  // Tiny arrays: one strip each above the others, cells of a fixed size.
  std::vector<const PlanArray*> big;
  for (const PlanArray* ap : rest) {
    const PlanArray& a = *ap;
    if (!IsTiny(a)) {
      big.push_back(&a);
      continue;
    }
    ArraySlot s;
    s.name = a.name;
    s.shape = a.shape;
    s.cell = std::min(24.0f * scale, area.w / float(std::max<uint64_t>(a.shape.cols, 1)));
    // The hall: a tiny array the step touches (the word 32 atomics update) is the picture: up to
    // twice the largest cell within the width and the height left, where the step touches no
    // larger array; beside one, the largest cell within a quarter of the height.
    if (hall && a.step_touches) {
      const bool big_touched = std::any_of(rest.begin(), rest.end(), [](const PlanArray* p) { return p->step_touches && !IsTiny(*p); });
      const float down = big_touched ? area.h * 0.25f : area.y + area.h - top - label_h;
      const float most = big_touched ? LargestCell(scale) : 2.0f * LargestCell(scale);
      s.cell = std::max(s.cell, std::floor(std::min({most, area.w / float(std::max<uint64_t>(a.shape.cols, 1)),
                                                     down / float(std::max<uint64_t>(a.shape.rows, 1))})));
    }
    s.label = {area.x, top, area.w, label_h};
    s.view = {area.x, top + label_h, s.cell * float(a.shape.cols), s.cell * float(a.shape.rows)};
    top += label_h + s.view.h + gap;
    out.push_back(s);
  }
  const float big_y = top, big_h = area.y + area.h - top;
  const int n = int(big.size());
  // The arrangement (columns of slots, filled row by row) that gives the lesson arrays the
  // largest cells; rows holding a lesson array weigh twice as much.
  auto arrange = [&](int k, bool emit) {
    const int rows_of = (n + k - 1) / k;
    const float col_w = (area.w - gap * float(k - 1)) / float(k);
    // A row's weight: an array the step touches as many rows as its footprint needs (2 at least),
    // another lesson array 2, the rest 1; the arrangement is judged on the step's arrays (else the
    // lesson's).
    std::vector<float> weight(rows_of, 1.0f);
    bool any_lesson = false, any_step = false;
    for (int j = 0; j < n; ++j) {
      const float w = big[j]->step_touches ? std::max(2.0f, float(Footprint(*big[j]).rows)) : big[j]->lesson ? 2.0f : 1.0f;
      weight[j / k] = std::max(weight[j / k], w);
      any_lesson = any_lesson || big[j]->lesson;
      any_step = any_step || big[j]->step_touches;
    }
    float total = 0;
    for (float w : weight) total += w;
    // (The hall keeps no gap under the last row: the pane's padding ends it.)
    const float cells_h = big_h - (label_h + gap) * float(rows_of) + (hall ? gap : 0.0f);
    float worst = 1e9f, y = big_y;
    std::vector<float> row_y(rows_of), row_h(rows_of);
    for (int r = 0; r < rows_of; ++r) {
      row_y[r] = y;
      row_h[r] = std::max(cells_h * weight[r] / total, LegibleCell(scale));  // at least a row of cells
      y += label_h + row_h[r] + gap;
    }
    float shift = 0, row_bottom = 0;  // a row whose cells are kLeastCell runs past its share: the rows below move down
    for (int j = 0; j < n; ++j) {
      const int r = j / k, c = j % k;
      const float x = area.x + float(c) * (col_w + gap);
      if (c == 0 && r > 0) shift += std::max(0.0f, row_bottom - (row_y[r] - gap)), row_bottom = 0;
      if (emit) {
        ArraySlot slot = FillSlot(*big[j], {x, row_y[r] + shift, col_w, label_h}, {x, row_y[r] + shift + label_h, col_w, row_h[r]},
                                  scale, hall);
        row_bottom = std::max(row_bottom, slot.view.y + slot.view.h - shift);
        out.push_back(slot);
      }
      const bool judged = any_step ? big[j]->step_touches : big[j]->lesson || !any_lesson;
      if (judged) worst = std::min(worst, Score(*big[j], col_w, row_h[r], scale));
    }
    return worst;
  };
  if (n > 0) {
    int best_k = 1;
    float best = -1;
    for (int k = 1; k <= n; ++k) {
      const float f = arrange(k, false);
      if (f > best * 1.01f) best = f, best_k = k;
    }
    arrange(best_k, true);
  }
  // The drawn array's label line ends where the labels beside it begin (an overview there moves
  // left with it).
  if (labels_w > 0 && out.size() > first_drawn) {
    ArraySlot& s = out[first_drawn];
    if (s.overview.w > 0 && s.overview.y == s.label.y) s.overview.x -= labels_w + gap;
    s.label.w = std::max(0.0f, s.label.w - labels_w - gap);
  }
  return out;
}

namespace {
uint64_t Place(uint64_t lo, uint64_t hi, uint64_t size, uint64_t n) {
  if (size >= n) return 0;
  int64_t start;
  if (hi - lo + 1 > size) start = int64_t(lo);
  else start = int64_t((lo + hi + 1) / 2) - int64_t(size / 2);
  return uint64_t(std::clamp<int64_t>(start, 0, int64_t(n - size)));
}
}  // namespace

GridWindow FollowWindow(GridShape shape, Rect view, float cell, uint64_t r0, uint64_t c0, uint64_t r1, uint64_t c1,
                        const GridWindow& previous) {
  GridWindow w;
  const float side = std::max(cell, 1e-3f);
  w.rows = std::clamp<uint64_t>(uint64_t(std::floor(view.h / side + 1e-3f)), 1, std::max<uint64_t>(shape.rows, 1));
  w.cols = std::clamp<uint64_t>(uint64_t(std::floor(view.w / side + 1e-3f)), 1, std::max<uint64_t>(shape.cols, 1));
  if (previous.rows == w.rows && previous.cols == w.cols && previous.row0 + w.rows <= shape.rows &&
      previous.col0 + w.cols <= shape.cols && previous.Contains(r0, c0) && previous.Contains(r1, c1))
    return previous;
  w.row0 = Place(r0, std::max(r0, r1), w.rows, shape.rows);
  w.col0 = Place(c0, std::max(c0, c1), w.cols, shape.cols);
  return w;
}

GridLayout WindowLayout(const GridWindow& w, Rect view, float cell, GridShape shape) {
  GridLayout g;
  g.cell = cell;
  g.rows = shape.rows;
  g.cols = shape.cols;
  g.x0 = view.x - float(w.col0) * cell;
  g.y0 = view.y - float(w.row0) * cell;
  return g;
}

// ---- lanes and banks ----

Rect LaneBox(Rect strip, int lane) {
  const float w = strip.w / float(sim::kWarpSize);
  const float side = std::min(w, strip.h);
  return {strip.x + w * float(lane), strip.y, w, side};
}

Rect BankHeader(const BankLayout& b, int bank) {
  const float w = b.area.w / float(sim::kBanks);
  return {b.area.x + w * float(bank), b.area.y, w, b.header_h};
}

Rect BankSlot(const BankLayout& b, int bank, int slot) {
  const float w = b.area.w / float(sim::kBanks);
  return {b.area.x + w * float(bank), b.area.y + b.header_h + b.slot_h * float(slot), w, b.slot_h};
}

// ---- tooltips ----

bool Overlaps(const Rect& a, const Rect& b) {
  return a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

namespace {
bool Holds(const Rect& r, float x, float y) { return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h; }
float OverlapArea(const Rect& a, const Rect& b) {
  const float w = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x), h = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0.0f;
}
// v moved into [lo, hi - size] (lo where it does not fit).
float Within(float v, float size, float lo, float hi) { return std::max(lo, std::min(v, hi - size)); }
}  // namespace

float TooltipRoom(float pointer_x, const Rect& screen, const Rect& keep_clear) {
  if (keep_clear.w <= 0 || keep_clear.h <= 0 || Holds(keep_clear, pointer_x, keep_clear.y)) return screen.w;
  return pointer_x < keep_clear.x ? keep_clear.x - screen.x : screen.x + screen.w - (keep_clear.x + keep_clear.w);
}

Rect PlaceTooltip(float px, float py, float w, float h, const Rect& screen, const Rect& keep_clear, float scale) {
  const Rect pointer{px - 16 * scale, py - 8 * scale, 40 * scale, 32 * scale};
  const bool left_of_clear = px < keep_clear.x + keep_clear.w * 0.5f;
  // Across: from x, off keep_clear on the pointer's side where it overlaps it, inside the screen.
  const auto across = [&](float x, float y) {
    x = Within(x, w, screen.x, screen.x + screen.w);
    if (Overlaps(Rect{x, y, w, h}, keep_clear))
      x = left_of_clear ? std::min(x, keep_clear.x - w) : std::max(x, keep_clear.x + keep_clear.w);
    return Within(x, w, screen.x, screen.x + screen.w);
  };
  const float down = Within(py, h, screen.y, screen.y + screen.h);
  const Rect sides[4] = {
      {pointer.x + pointer.w, down, w, h},                                   // right
      {pointer.x - w, down, w, h},                                           // left
      {across(px, pointer.y + pointer.h), pointer.y + pointer.h, w, h},      // below
      {across(px, pointer.y - h), pointer.y - h, w, h},                      // above
  };
  const auto inside = [&](const Rect& r) {
    return r.x >= screen.x && r.y >= screen.y && r.x + r.w <= screen.x + screen.w && r.y + r.h <= screen.y + screen.h;
  };
  for (const Rect& r : sides)
    if (inside(r) && !Overlaps(r, pointer) && !Overlaps(r, keep_clear)) return r;
  // No side has room: over the pointer, beside keep_clear.
  const Rect over{across(pointer.x + pointer.w, down), down, w, h};
  if (!Overlaps(over, keep_clear)) return over;
  // keep_clear cannot be missed: the place inside the screen that covers least of it.
  Rect best = over;
  for (Rect r : sides) {
    r.x = Within(r.x, w, screen.x, screen.x + screen.w);
    r.y = Within(r.y, h, screen.y, screen.y + screen.h);
    if (OverlapArea(r, keep_clear) < OverlapArea(best, keep_clear)) best = r;
  }
  return best;
}

}  // namespace ws::visual
