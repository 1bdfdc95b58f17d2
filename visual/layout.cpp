// Layout arithmetic for the views (see layout.h).
#include "visual/layout.h"

#include <algorithm>
#include <cmath>

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
  uint64_t per_row = m.cell_bytes >= 4 && 128 % m.cell_bytes == 0 ? 128 / m.cell_bytes : 32;
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
// The cell of an array drawn whole in w x h: whole pixels, at most the largest cell, never below
// the legible size when the fit reaches it (so that a fit of 20.7 px and one of 20.2 px both
// draw at 20, and a slightly narrower pane at a larger scale does not shrink the cells).
float WholeCell(GridShape s, float w, float h, float scale) {
  const float fit = std::min(Fit(s, w, h), LargestCell(scale)), legible = LegibleCell(scale);
  return fit >= legible ? std::max(std::floor(fit), legible) : fit;
}

// The step's footprint in an array's cells (PlanArray::warp_rows and warp_cols, within the array).
GridShape Footprint(const PlanArray& a) {
  return {std::min<uint64_t>(a.shape.rows, std::clamp<uint64_t>(a.warp_rows, 1, 32)),
          std::min<uint64_t>(a.shape.cols, std::clamp<uint64_t>(a.warp_cols, 1, 32))};
}

// How well a slot of w x h shows an array: its cell size when it fits whole at a legible size;
// otherwise the legible size times the part of the step's footprint that the region in view can
// hold (the overview goes where it does not cut the footprint, see FillSlot).
float ScoreAsIs(const PlanArray& a, float w, float h, float scale) {
  const float fit = WholeCell(a.shape, w, h, scale), legible = LegibleCell(scale);
  if (fit >= legible) return fit;
  const GridShape fp = Footprint(a);
  const float across = std::floor(std::max(w, 0.0f) / legible), down = std::floor(std::max(h, 0.0f) / legible);
  return legible * std::min(1.0f, across / float(fp.cols)) * std::min(1.0f, down / float(fp.rows));
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
// matrix; else, for a wrapped array, rows of half or a quarter of a line where they hold more of
// the step's footprint (or the whole array) at the legible size, the widest of the best.
PlanArray BestWrap(const PlanArray& a, float w, float h, float scale) {
  PlanArray best = a;
  if (a.min_cols == 0 || a.min_cols >= a.shape.cols) return best;
  float best_score = ScoreAsIs(a, w, h, scale);
  if (best_score >= LegibleCell(scale)) return best;  // whole, rows of a line
  for (uint64_t cols = a.shape.cols / 2; cols >= a.min_cols && cols % a.min_cols == 0; cols /= 2) {
    const PlanArray c = Wrapped(a, cols);
    const float score = ScoreAsIs(c, w, h, scale);
    if (score > best_score * 1.01f) best = c, best_score = score;
  }
  return best;
}

float Score(const PlanArray& a, float w, float h, float scale) { return ScoreAsIs(BestWrap(a, w, h, scale), w, h, scale); }

// Cells of one big array in its slot: whole when they fit at a legible size, else a region at the
// legible size with the overview in miniature where it does not cut the footprint: to the
// region's right when the room beside a footprint's width allows, else below the region when the
// room under the footprint's height does, else at the end of the label's line.
ArraySlot FillSlot(const PlanArray& planned, Rect label, Rect cells, float scale) {
  const PlanArray a = BestWrap(planned, cells.w, cells.h, scale);
  ArraySlot s;
  s.name = a.name;
  s.label = label;
  s.shape = a.shape;
  const float fit = WholeCell(a.shape, cells.w, cells.h, scale);
  if (fit >= LegibleCell(scale)) {
    s.cell = fit;
    s.view = {cells.x, cells.y, s.cell * float(a.shape.cols), s.cell * float(a.shape.rows)};
    return s;
  }
  s.whole = false;
  s.cell = LegibleCell(scale);
  const float gap = 8.0f * scale, min_side = 12.0f * scale;
  const GridShape fp = Footprint(a);
  const float fp_w = s.cell * float(fp.cols), fp_h = s.cell * float(fp.rows);
  const float ov_pref = std::min(cells.w * 0.15f, 96.0f * scale);
  const float beside = std::min(ov_pref, cells.w - fp_w - gap);
  s.view = {cells.x, cells.y, std::min(cells.w, s.cell * float(a.shape.cols)), std::min(cells.h, s.cell * float(a.shape.rows))};
  if (beside >= min_side) {
    s.view.w = std::min(cells.w - beside - gap, s.cell * float(a.shape.cols));
    const float c = Fit(a.shape, beside, cells.h);
    s.overview = {s.view.x + s.view.w + gap, cells.y, std::clamp(c * float(a.shape.cols), min_side, beside),
                  std::clamp(c * float(a.shape.rows), min_side, std::max(cells.h, min_side))};
  } else if (const float below = std::min(cells.h - fp_h - gap, std::max(cells.h * 0.25f, min_side)); below >= min_side) {
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
  s.view.w = std::max(s.view.w, s.cell);
  s.view.h = std::max(s.view.h, s.cell);
  return s;
}

}  // namespace

std::vector<ArraySlot> PlanMemoryView(const std::vector<PlanArray>& arrays, Rect area, float scale, float label_h) {
  std::vector<ArraySlot> out;
  const float gap = 8.0f * scale;
  // Tiny arrays: one strip each above the others, cells of a fixed size.
  float tiny_h = 0;
  std::vector<const PlanArray*> big;
  for (const auto& a : arrays) {
    if (!IsTiny(a)) {
      big.push_back(&a);
      continue;
    }
    ArraySlot s;
    s.name = a.name;
    s.shape = a.shape;
    s.cell = std::min(24.0f * scale, area.w / float(std::max<uint64_t>(a.shape.cols, 1)));
    s.label = {area.x, area.y + tiny_h, area.w, label_h};
    s.view = {area.x, area.y + tiny_h + label_h, s.cell * float(a.shape.cols), s.cell * float(a.shape.rows)};
    tiny_h += label_h + s.view.h + gap;
    out.push_back(s);
  }
  const float big_y = area.y + tiny_h, big_h = area.h - tiny_h;
  const int n = int(big.size());
  // The arrangement (columns of slots, filled row by row) that gives the lesson arrays the
  // largest cells; rows holding a lesson array weigh twice as much.
  auto arrange = [&](int k, bool emit) {
    const int rows_of = (n + k - 1) / k;
    const float col_w = (area.w - gap * float(k - 1)) / float(k);
    std::vector<float> weight(rows_of, 1.0f);
    bool any_lesson = false;
    for (int j = 0; j < n; ++j)
      if (big[j]->lesson) weight[j / k] = 2.0f, any_lesson = true;
    float total = 0;
    for (float w : weight) total += w;
    const float cells_h = big_h - (label_h + gap) * float(rows_of);
    float worst = 1e9f, y = big_y;
    std::vector<float> row_y(rows_of), row_h(rows_of);
    for (int r = 0; r < rows_of; ++r) {
      row_y[r] = y;
      row_h[r] = std::max(cells_h * weight[r] / total, LegibleCell(scale));  // at least a row of cells
      y += label_h + row_h[r] + gap;
    }
    for (int j = 0; j < n; ++j) {
      const int r = j / k, c = j % k;
      const float x = area.x + float(c) * (col_w + gap);
      if (emit) out.push_back(FillSlot(*big[j], {x, row_y[r], col_w, label_h}, {x, row_y[r] + label_h, col_w, row_h[r]}, scale));
      if (big[j]->lesson || !any_lesson) worst = std::min(worst, Score(*big[j], col_w, row_h[r], scale));
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
  const float w = strip.w / 32.0f;
  const float side = std::min(w, strip.h);
  return {strip.x + w * float(lane), strip.y, w, side};
}

Rect BankHeader(const BankLayout& b, int bank) {
  const float w = b.area.w / 32.0f;
  return {b.area.x + w * float(bank), b.area.y, w, b.header_h};
}

Rect BankSlot(const BankLayout& b, int bank, int slot) {
  const float w = b.area.w / 32.0f;
  return {b.area.x + w * float(bank), b.area.y + b.header_h + b.slot_h * float(slot), w, b.slot_h};
}

}  // namespace ws::visual
