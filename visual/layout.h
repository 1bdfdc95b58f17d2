// Where things go on screen: pure functions from a panel's rectangle and a trace's shapes to
// cell rectangles. The views draw with them and the GUI tests compute expected pixels with them.
#pragma once
#include <cstdint>

namespace ws::visual {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float CenterX() const { return x + w * 0.5f; }
  float CenterY() const { return y + h * 0.5f; }
};

// The shape an array is drawn in: matrices as matrices; 1-D arrays wrapped at 32 elements, so
// that a row of 4-byte elements is one 128-byte line.
struct GridShape {
  uint64_t rows = 1, cols = 1;
};
GridShape DrawShape(uint64_t rows, uint64_t cols, uint64_t count);

// A grid of rows x cols square cells fitted into `area` (top-left aligned), times `zoom`.
struct GridLayout {
  float x0 = 0, y0 = 0;  // top-left of cell (0, 0)
  float cell = 0;        // side of one cell in pixels (may be below 1)
  uint64_t rows = 0, cols = 0;
  float Width() const { return cell * float(cols); }
  float Height() const { return cell * float(rows); }
};
GridLayout LayoutGrid(uint64_t rows, uint64_t cols, Rect area, float zoom = 1.0f);
Rect CellRect(const GridLayout& g, uint64_t row, uint64_t col);

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

}  // namespace ws::visual
