// Layout arithmetic for the views (see layout.h).
#include "visual/layout.h"

#include <algorithm>

namespace ws::visual {

GridShape DrawShape(uint64_t rows, uint64_t cols, uint64_t count) {
  if (rows > 1 && cols > 0) return {rows, cols};
  const uint64_t n = std::max<uint64_t>(count, 1);
  if (n <= 32) return {1, n};
  return {(n + 31) / 32, 32};
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
