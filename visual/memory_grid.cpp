// Memory view (see memory_grid.h). The plan (slots, cell size, region) comes from layout.h's pure
// functions; this file counts touches incrementally and draws only the cells in view.
#include "visual/memory_grid.h"

#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>

#include "sim/geometry.h"
#include "sim/rule_text.h"
#include "visual/palette.h"
#include "visual/text_fit.h"
#include "visual/tooltip.h"

namespace ws::visual {
namespace {

ImVec2 V(float x, float y) { return ImVec2(x, y); }

// The cells [first, last] that one lane's access of `width` bytes at `addr` covers.
bool CellsOf(const sim::ArrayInfo& a, const CellMap& m, uint64_t addr, uint32_t width, uint64_t* first, uint64_t* last) {
  if (addr < a.base) return false;
  *first = (addr - a.base) / m.cell_bytes;
  *last = (addr - a.base + std::max<uint32_t>(width, 1) - 1) / m.cell_bytes;
  return true;
}

// The cells [first, last] of the 128-byte lines one lane's access covers (a global array's lines
// are what the step is charged for: they are drawn whole).
bool LineCellsOf(const sim::ArrayInfo& a, const CellMap& m, uint64_t addr, uint32_t width, uint64_t* first, uint64_t* last) {
  if (addr < a.base) return false;
  const uint64_t lo = std::max<uint64_t>(addr & ~uint64_t(127), a.base);
  const uint64_t end = a.base + std::max<uint64_t>(a.count, 1) * std::max<uint32_t>(a.elem_bytes, 1);
  const uint64_t hi = std::min<uint64_t>((addr + std::max<uint32_t>(width, 1) - 1) | 127, end - 1);
  *first = (lo - a.base) / m.cell_bytes;
  *last = (std::max(hi, lo) - a.base) / m.cell_bytes;
  return true;
}

// The rows and columns of cells an instruction's lanes touch, added to [r0..r1] x [c0..c1] (start
// with r0 = c0 = ~0: still empty after an instruction that touches nothing here). A run of cells
// that wraps past a row's end spans the whole width. `lines`: the cells of the 128-byte lines the
// lanes touch in a global array, rather than the lanes' own.
struct CellBox {
  uint64_t r0 = ~0ull, c0 = ~0ull, r1 = 0, c1 = 0;
  bool Empty() const { return r0 == ~0ull; }
  uint64_t Rows() const { return Empty() ? 0 : r1 - r0 + 1; }
  uint64_t Cols() const { return Empty() ? 0 : c1 - c0 + 1; }
  void Add(const sim::ArrayInfo& a, const CellMap& m, const sim::WarpInstruction& ins, bool lines = false) {
    const uint64_t cols = std::max<uint64_t>(m.shape.cols, 1);
    lines = lines && a.space == sim::Space::Global;
    for (int lane = 0; lane < 32; ++lane) {
      uint64_t f, l;
      if (!(ins.mask >> lane & 1)) continue;
      if (!(lines ? LineCellsOf(a, m, ins.addr[lane], ins.width, &f, &l) : CellsOf(a, m, ins.addr[lane], ins.width, &f, &l)))
        continue;
      r0 = std::min(r0, f / cols), r1 = std::max(r1, l / cols);
      if (f / cols != l / cols) c0 = 0, c1 = std::max(c1, cols - 1);
      else c0 = std::min(c0, f % cols), c1 = std::max(c1, l % cols);
    }
  }
};

// The narrowest row a wrapped array may be drawn in (PlanArray::min_cols): a sector's cells, in
// whole structs; 0 when its cells do not divide a sector.
uint64_t NarrowestRow(const CellMap& m) {
  if (m.cell_bytes == 0 || m.cell_bytes > 32 || 32 % m.cell_bytes != 0) return 0;
  const uint64_t sector = 32 / m.cell_bytes, elem = std::max<uint64_t>(m.cells_per_elem, 1);
  return std::lcm(sector, elem);
}

// Whether an array's rows may be narrower than a line: a global 1-D array or array of structs. A
// matrix keeps its rows, and a shared array its rows of 32 words, where a column is a bank.
bool Rewrappable(const sim::ArrayInfo& a, const CellMap& m) {
  return a.space == sim::Space::Global && !(a.rows > 1 && m.cells_per_elem == 1) && NarrowestRow(m) > 0;
}

Rgb ServedRgb(sim::ServedFrom from) {
  return from == sim::ServedFrom::L1 ? kServedL1 : from == sim::ServedFrom::L2 ? kServedL2 : kServedDram;
}

void FillCell(ImDrawList* dl, const GridLayout& g, uint64_t cell, float inset, uint32_t col) {
  const Rect q = CellRect(g, cell / g.cols, cell % g.cols);
  dl->AddRectFilled(V(q.x + inset, q.y + inset), V(q.x + q.w - inset, q.y + q.h - inset), col);
}

// Outlines the cells [first, last) of a row-major grid, one rectangle per row they cover.
// Rows outside [row_lo, row_hi) are skipped (out of view).
void OutlineRun(ImDrawList* dl, const GridLayout& g, uint64_t first, uint64_t last, uint32_t col, float thickness,
                uint64_t row_lo = 0, uint64_t row_hi = ~0ull) {
  last = std::min(last, g.rows * g.cols);
  while (first < last) {
    const uint64_t r = first / g.cols, c0 = first % g.cols;
    const uint64_t c1 = std::min<uint64_t>(g.cols, c0 + (last - first));
    if (r < row_lo || r >= row_hi) {
      first += c1 - c0;
      continue;
    }
    const Rect a = CellRect(g, r, c0);
    const float o = thickness * 0.5f;
    dl->AddRect(V(a.x - o, a.y - o), V(a.x + g.cell * float(c1 - c0) + o, a.y + g.cell + o), col, 0.0f, 0, thickness);
    first += c1 - c0;
  }
}

}  // namespace

std::map<uint64_t, CellLanes> LanesByCell(const sim::ArrayInfo& a, const CellMap& m, int array,
                                          const std::vector<const sim::WarpInstruction*>& current) {
  std::map<uint64_t, CellLanes> cells;
  const uint64_t total_cells = std::max<uint64_t>(a.count, 1) * m.cells_per_elem;
  for (const auto* ins : current) {
    if (ins->array != array) continue;
    for (int lane = 0; lane < 32; ++lane) {
      uint64_t f, l;
      if (!(ins->mask >> lane & 1) || !CellsOf(a, m, ins->addr[lane], ins->width, &f, &l)) continue;
      for (uint64_t c = f; c <= l && c < total_cells; ++c) {
        CellLanes& x = cells[c];
        x.lanes |= 1u << lane;
        ++x.count;
      }
    }
  }
  return cells;
}

// ---- touches so far ----

void MemoryGridView::Update(const ShownStep& shown_step) {
  const sim::Trace& t = *shown_step.trace;
  if (trace_ != shown_step.trace || arrays_.size() != t.arrays.size()) {
    trace_ = shown_step.trace;
    arrays_.assign(t.arrays.size(), {});
    for (size_t i = 0; i < t.arrays.size(); ++i) {
      const auto& a = t.arrays[i];
      arrays_[i].map = MapCells(a.rows, a.cols, a.count, a.elem_bytes);
    }
    for (const auto& ins : t.instructions) {
      if (ins.array < 0 || size_t(ins.array) >= arrays_.size()) continue;
      ArrayState& st = arrays_[ins.array];
      st.lesson = true;
      CellBox box;  // the instruction's footprint, its lines whole
      box.Add(t.arrays[ins.array], st.map, ins, true);
      if (box.Empty()) continue;
      st.span_rows = std::max(st.span_rows, box.Rows());
      st.span_cols = std::max(st.span_cols, box.Cols());
    }
    counted_ = 0;
    last_counted_ = nullptr;
  }
  const auto& h = shown_step.history;
  size_t from = counted_;
  // Stepping on adds the new instructions; anything else counts again from the start.
  if (counted_ == 0 || counted_ > h.size() || h[counted_ - 1] != last_counted_) {
    for (auto& s : arrays_) s.counts.clear(), s.most = 0;
    from = 0;
  }
  for (size_t k = from; k < h.size(); ++k) {
    const sim::WarpInstruction* ins = h[k];
    if (ins->array < 0 || size_t(ins->array) >= arrays_.size()) continue;
    ArrayState& s = arrays_[ins->array];
    const auto& a = t.arrays[ins->array];
    for (int lane = 0; lane < 32; ++lane) {
      uint64_t c0, c1;
      if (!(ins->mask >> lane & 1) || !CellsOf(a, s.map, ins->addr[lane], ins->width, &c0, &c1)) continue;
      for (uint64_t c = c0; c <= c1; ++c) s.most = std::max(s.most, ++s.counts[c]);
    }
  }
  counted_ = h.size();
  last_counted_ = h.empty() ? nullptr : h.back();
}

// ---- drawing ----

namespace {
// An array's label: its name, type and shape ("d (float, 64x64)", "tile (shared float[1024])").
std::string LabelWhat(const sim::ArrayInfo& a, const CellMap& m) {
  return a.name + " (" + (a.space == sim::Space::Shared ? "shared " : "") + a.type +
         (a.rows > 1 ? ", " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + ")"
                     : "[" + std::to_string(a.count) + "]" + (m.cells_per_elem > 1 ? ", a cell per 4 bytes)" : ")"));
}
}  // namespace

float MemoryGridView::LabelLine(bool hall) {
  return hall ? ImGui::GetTextLineHeight() + 0.5f * ImGui::GetStyle().ItemSpacing.y : ImGui::GetTextLineHeightWithSpacing();
}

float MemoryGridView::Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed,
                           MemoryPlanShare* share, bool hall) {
  if (!shown_step.trace) return 0;
  const sim::Trace& trace = *shown_step.trace;
  Update(shown_step);
  ImGui::PushID(shown_step.pane.c_str());
  // The plan is made for the room offered; when its slots run past it (a short pane), the view is
  // as tall as they need (last frame's plan), so that the pane scrolls to them instead of cutting
  // them off.
  // In the hall the view is as tall as last frame's arrays took, and what is left goes to the
  // views under it (the banks): no empty band.
  const float room_h = std::max(height, 40.0f * scale);
  // (At a new step last frame's arrays are not this one's: the room offered, this frame only, so
  // that the views under it do not run past the pane and make it scroll from then on.)
  const bool same_step = shown_step.Focus() == planned_for_;
  planned_for_ = shown_step.Focus();
  const float child_h = hall && used_h_ > 0 ? (same_step ? used_h_ : room_h) : std::max(room_h, needed_h_);
  ImGui::BeginChild("grids##mem", ImVec2(0, child_h), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail(ImGui::GetContentRegionAvail().x, room_h);
  const float label_h = LabelLine(hall);

  std::vector<PlanArray> mine;
  for (size_t i = 0; i < trace.arrays.size(); ++i) {
    const CellMap& m = arrays_[i].map;
    // The footprint of one step, its lines whole: the most any recorded step spans (one layout for
    // every step), or in the hall the step's own (the step decides what the picture shows). Arrays
    // no recorded step touches use the static guess: a matrix may be read down a column; a
    // wrapped 1-D array's 32 consecutive elements are a row. A whole block's step adds its own.
    const bool matrix = trace.arrays[i].rows > 1 && m.cells_per_elem == 1;
    uint64_t warp_rows = matrix ? 32 : (32 * m.cells_per_elem + m.shape.cols - 1) / std::max<uint64_t>(m.shape.cols, 1);
    uint64_t warp_cols = 32;
    if (arrays_[i].span_rows > 0) warp_rows = arrays_[i].span_rows, warp_cols = arrays_[i].span_cols;
    CellBox step;
    for (const auto* ins : shown_step.current)
      if (ins->array == int(i)) step.Add(trace.arrays[i], m, *ins, true);
    if (hall && !step.Empty()) warp_rows = step.Rows(), warp_cols = step.Cols();
    warp_rows = std::max(warp_rows, step.Rows());
    warp_cols = std::max(warp_cols, step.Cols());
    PlanArray pa{trace.arrays[i].name, m.shape, arrays_[i].lesson, warp_rows};
    pa.warp_cols = warp_cols;
    if (Rewrappable(trace.arrays[i], m)) pa.min_cols = NarrowestRow(m);
    pa.tile = trace.arrays[i].space == sim::Space::Shared;
    pa.step_touches = !step.Empty();
    // The hall's label of an array the step does not touch is its name; a drawn one's is its name,
    // type and shape where they fit, else its name (FitText below): the name is the least it needs.
    if (hall && labels_beside) pa.label_w = ImGui::CalcTextSize(trace.arrays[i].name.c_str()).x + 2.0f;
    mine.push_back(pa);
  }
  std::vector<PlanArray> plan_arrays = mine;
  float w = avail.x, h = avail.y;
  if (share) {
    const int f = ImGui::GetFrameCount();
    share->Offer(shown_step.pane, f, mine, avail.x, avail.y);
    plan_arrays = share->Arrays(f);
    w = share->Width(f, w);
    h = share->Height(f, h);
  }
  const auto slots = PlanMemoryView(plan_arrays, Rect{origin.x, origin.y, w, h}, scale, label_h, hall);
  needed_h_ = used_h_ = 0;
  for (const auto& s : slots) {
    needed_h_ = std::max(needed_h_, s.view.y + s.view.h - origin.y);
    used_h_ = std::max({used_h_, s.view.y + s.view.h - origin.y, s.overview.y + s.overview.h - origin.y,
                        s.label.y + s.label.h - origin.y});
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Every line here runs along the cell grid: without anti-aliasing it is as sharp and, under a
  // software rasteriser, much cheaper (no blended fringes; docs/PERFORMANCE.md, 2026-11-24).
  const ImDrawListFlags line_flags = dl->Flags;
  dl->Flags &= ~ImDrawListFlags_AntiAliasedLines;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered = ImGui::IsWindowHovered();
  hovered_ = {};
  for (size_t ai = 0; ai < trace.arrays.size(); ++ai) {
    const sim::ArrayInfo& a = trace.arrays[ai];
    ArrayState& st = arrays_[ai];
    auto slot_it = std::find_if(slots.begin(), slots.end(), [&](const ArraySlot& s) { return s.name == a.name; });
    if (slot_it == slots.end()) continue;
    const ArraySlot& slot = *slot_it;
    if (slot.label_only) {  // presenter mode: the step does not touch it
      const std::string label = FitText({a.name + " (not touched by this step)", a.name}, slot.label.w - 1.0f);
      dl->AddText(V(slot.label.x + 1.0f, slot.label.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), label.c_str());
      if (placed) placed->push_back({shown_step.pane, "label", a.name, slot.label});
      continue;
    }
    const uint64_t total_cells = std::max<uint64_t>(a.count, 1) * st.map.cells_per_elem;
    // The cells in the slot's rows: a wrapped array's may be narrower than a line (the plan's choice).
    CellMap m = st.map;
    if (Rewrappable(a, m) && slot.shape.cols < m.shape.cols && slot.shape.cols % NarrowestRow(m) == 0)
      m.shape = WrapShape(total_cells, slot.shape.cols);

    // The region: follow the cells the step touches in this array, their 128-byte lines whole.
    CellBox box, line_box;
    for (const auto* ins : shown_step.current)
      if (ins->array == int(ai)) box.Add(a, m, *ins), line_box.Add(a, m, *ins, true);
    const bool touched = !box.Empty();
    if (!touched) {  // the step does not touch this array: stay
      line_box.r0 = line_box.r1 = st.window.row0;
      line_box.c0 = line_box.c1 = st.window.col0;
    }
    const uint64_t r0 = line_box.r0, c0 = line_box.c0, r1 = line_box.r1, c1 = line_box.c1;
    const float cell = slot.cell * std::clamp(zoom, 1.0f, 16.0f);
    st.window = FollowWindow(m.shape, slot.view, cell, r0, c0, r1, c1, st.window);
    const GridWindow& win = st.window;
    const GridLayout g = WindowLayout(win, slot.view, cell, m.shape);
    const Rect view{slot.view.x, slot.view.y, std::min(slot.view.w, cell * float(win.cols)),
                    std::min(slot.view.h, cell * float(win.rows))};
    const bool whole = win.rows >= m.shape.rows && win.cols >= m.shape.cols;

    ImGui::PushID(int(ai));
    // The label as long as its slot allows (the region shown, the type and shape go first); the
    // whole of it in a tooltip. A slot pushed below the view by a short pane gets no label.
    const std::string what = LabelWhat(a, m);
    const std::string region = whole ? "" : "  rows " + std::to_string(win.row0) + "-" + std::to_string(win.row0 + win.rows - 1) +
                                                ", cols " + std::to_string(win.col0) + "-" + std::to_string(win.col0 + win.cols - 1);
    const ImVec2 clip_max = dl->GetClipRectMax();
    // A pixel in from the slot's left edge: a glyph such as '_' reaches left of its pen.
    const float label_x = slot.label.x + 1.0f;
    const float label_w = std::min(slot.label.x + slot.label.w, clip_max.x) - label_x;
    if (slot.label.y + ImGui::GetTextLineHeight() <= clip_max.y) {
      const std::string label = FitText({what + region, what, a.name}, label_w);
      dl->AddText(V(label_x, slot.label.y), ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
      if (hovered && label != what + region && mouse.x >= label_x && mouse.x < label_x + label_w &&
          mouse.y >= slot.label.y && mouse.y < slot.label.y + slot.label.h)
        ImGui::SetTooltip("%s", (what + region).c_str());
    }
    if (placed) {
      Placed p{shown_step.pane, "grid", a.name, view, m.shape.rows, m.shape.cols, 1.0f};
      p.cell = cell;
      p.row0 = win.row0;
      p.col0 = win.col0;
      p.cells_per_elem = m.cells_per_elem;
      if (touched) {
        p.touched = true, p.touched_r0 = box.r0, p.touched_c0 = box.c0, p.touched_r1 = box.r1, p.touched_c1 = box.c1;
        p.lines_r0 = r0, p.lines_c0 = c0, p.lines_r1 = r1, p.lines_c1 = c1;
      }
      placed->push_back(p);
    }

    dl->PushClipRect(V(view.x - 4 * scale, view.y - 4 * scale), V(view.x + view.w + 4 * scale, view.y + view.h + 4 * scale), true);
    // The step's lanes in view, by cell (each pixel is filled once: a lit cell is not drawn
    // under its lane colour). A cell several lanes touch is left for the broadcast marks below.
    const auto lanes_by_cell = LanesByCell(a, m, int(ai), shown_step.current);
    std::vector<uint32_t> lit(win.rows * win.cols, 0);
    std::vector<std::pair<uint64_t, CellLanes>> shared_cells;  // in view, more than one lane
    for (const auto& [c, x] : lanes_by_cell) {
      const uint64_t r = c / m.shape.cols, k = c % m.shape.cols;
      if (!win.Contains(r, k)) continue;
      lit[(r - win.row0) * win.cols + (k - win.col0)] = Pack(x.count > 1 ? kBackground : LaneRgb(std::countr_zero(x.lanes)));
      if (x.count > 1) shared_cells.emplace_back(c, x);
    }
    // Cells in view: lit, untouched, or shaded by touches so far; a gap between them once they
    // are large. Under Xvfb's software rasteriser a frame costs per triangle as well as per pixel,
    // so a row's neighbours of one colour are one rectangle, and the gaps inside it are put back
    // by one background-coloured line per column (the pane under the view is the window colour).
    const float inset = cell >= 8.0f ? std::max(1.0f, std::round(scale)) * 0.5f : 0.0f;
    const float log_most = std::log1p(float(std::max<uint32_t>(st.most, 1)));
    const uint64_t row_end = std::min(win.row0 + win.rows, m.shape.rows), col_end = std::min(win.col0 + win.cols, m.shape.cols);
    for (uint64_t r = win.row0; r < row_end; ++r) {
      uint64_t run_start = 0, run_len = 0;
      uint32_t run_col = 0;
      auto flush = [&] {
        if (run_len == 0) return;
        const Rect q = CellRect(g, r, run_start), last = CellRect(g, r, run_start + run_len - 1);
        dl->AddRectFilled(V(q.x + inset, q.y + inset), V(last.x + last.w - inset, q.y + q.h - inset), run_col);
        run_len = 0;
      };
      for (uint64_t c = win.col0; c < col_end; ++c) {
        const uint64_t i = r * m.shape.cols + c;
        if (i >= total_cells) break;
        uint32_t col = lit[(r - win.row0) * win.cols + (c - win.col0)];
        if (!col) {
          auto it = st.counts.find(i);
          col = Pack(it == st.counts.end() ? kCellEmpty : TouchedRgb(std::log1p(float(it->second)) / log_most));
        }
        if (run_len > 0 && col != run_col) flush();
        if (run_len == 0) run_start = c, run_col = col;
        ++run_len;
      }
      flush();
    }
    if (inset > 0 && row_end > win.row0 && col_end > win.col0 + 1) {
      const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
      const uint32_t gap_col = ImGui::ColorConvertFloat4ToU32(ImVec4(bg.x, bg.y, bg.z, 1.0f));
      const float top = CellRect(g, win.row0, 0).y, bottom = CellRect(g, row_end, 0).y;
      for (uint64_t c = win.col0 + 1; c < col_end; ++c) {
        const Rect left = CellRect(g, 0, c - 1), right = CellRect(g, 0, c);
        dl->AddRectFilled(V(left.x + left.w - inset, top), V(right.x + inset, bottom), gap_col);
      }
    }
    // A struct's pieces are grouped by an outline per element.
    if (m.cells_per_elem > 1) {
      const uint64_t e0 = (win.row0 * m.shape.cols + win.col0) / m.cells_per_elem;
      const uint64_t e1 = std::min<uint64_t>(a.count, ((win.row0 + win.rows) * m.shape.cols) / m.cells_per_elem + 1);
      for (uint64_t e = e0; e < e1; ++e) {
        const uint64_t first = e * m.cells_per_elem, r = first / m.shape.cols;
        if (r < win.row0 || r >= win.row0 + win.rows) continue;
        OutlineRun(dl, g, first, first + m.cells_per_elem, Pack(kPieceOutline, 200), std::max(1.0f, scale));
      }
    }
    // One word, many lanes: the lanes' colours side by side across the cell (lane order, left to
    // right) and, where the cell has room, how many lane accesses it took.
    for (const auto& [c, x] : shared_cells) {
      const Rect q = CellRect(g, c / m.shape.cols, c % m.shape.cols);
      const float x0 = q.x + inset, x1 = q.x + q.w - inset, y0 = q.y + inset, y1 = q.y + q.h - inset;
      const int n = std::popcount(x.lanes);
      int k = 0;
      for (uint32_t bits = x.lanes; bits; bits &= bits - 1, ++k)
        dl->AddRectFilled(V(x0 + (x1 - x0) * float(k) / float(n), y0), V(x0 + (x1 - x0) * float(k + 1) / float(n), y1),
                          Pack(LaneRgb(std::countr_zero(bits))));
      const std::string label = std::to_string(x.count);
      const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
      if (ts.x + 2 * scale <= x1 - x0 && ts.y <= y1 - y0) {
        const float tx = (x0 + x1 - ts.x) * 0.5f, ty = (y0 + y1 - ts.y) * 0.5f;
        dl->AddRectFilled(V(tx - scale, ty), V(tx + ts.x + scale, ty + ts.y), Pack(kBackground, 200));
        dl->AddText(V(tx, ty), Pack(kLine), label.c_str());
      }
    }
    auto light = [&](const sim::WarpInstruction* ins, uint8_t alpha) {
      for (int lane = 0; lane < 32; ++lane) {
        uint64_t f, l;
        if (!(ins->mask >> lane & 1) || !CellsOf(a, m, ins->addr[lane], ins->width, &f, &l)) continue;
        for (uint64_t c = f; c <= l && c < total_cells; ++c) {
          const uint64_t r = c / m.shape.cols, k = c % m.shape.cols;
          if (win.Contains(r, k) && !lit[(r - win.row0) * win.cols + (k - win.col0)])
            FillCell(dl, g, c, inset, Pack(LaneRgb(lane), alpha));
        }
      }
    };
    // Trail: the focused warp's previous steps, fading, where the step itself is not.
    for (int k = std::min<int>(trail_steps, int(shown_step.trail.size())) - 1; k >= 0; --k)
      if (shown_step.trail[k]->array == int(ai)) light(shown_step.trail[k], uint8_t(150 - 110 * k / std::max(trail_steps, 1)));
    // The step: the lines and sectors its lanes fall in, outlined in the gaps around their cells.
    std::set<uint64_t> sectors, lines;
    for (const auto* ins : shown_step.current) {
      if (ins->array != int(ai) || a.space != sim::Space::Global) continue;
      for (int lane = 0; lane < 32; ++lane) {
        if (!(ins->mask >> lane & 1)) continue;
        for (uint64_t b = sim::SectorIndex(ins->addr[lane]); b <= sim::SectorIndex(ins->addr[lane] + ins->width - 1); ++b) {
          sectors.insert(b);
          lines.insert(b / sim::kSectorsPerLine);
        }
      }
    }
    auto cell_range = [&](uint64_t lo_byte, uint64_t hi_byte, uint64_t* lo, uint64_t* hi) {
      *lo = lo_byte > a.base ? (lo_byte - a.base) / m.cell_bytes : 0;
      *hi = hi_byte > a.base ? (hi_byte - a.base + m.cell_bytes - 1) / m.cell_bytes : 0;
    };
    const float thin = std::max(1.0f, scale), thick = std::max(2.0f, 2.0f * scale);
    for (uint64_t line : lines) {
      uint64_t lo, hi;
      cell_range(line * sim::kLineBytes, (line + 1) * sim::kLineBytes, &lo, &hi);
      OutlineRun(dl, g, lo, hi, Pack(kLine, 220), thick, win.row0, win.row0 + win.rows);
    }
    if (g.cell >= 4.0f)
      for (uint64_t sec : sectors) {
        uint64_t lo, hi;
        cell_range(sec * sim::kSectorBytes, (sec + 1) * sim::kSectorBytes, &lo, &hi);
        OutlineRun(dl, g, lo, hi, Pack(kSector, 230), thin, win.row0, win.row0 + win.rows);
      }
    // Where each sector was served from: a bar along the bottom of its cells, over a dark edge
    // that parts it from the lane colours. In whole-block mode a sector several warps touch shows
    // the focused warp's mark, else the first warp's. Nothing when the caches were not modelled.
    std::map<uint64_t, sim::ServedFrom> marks;
    for (const auto* ins : shown_step.current) {
      if (ins->array != int(ai)) continue;
      sim::ServedSector served[sim::kWarpSize];
      const int n = sim::ServedSectors(*ins, served);
      for (int i = 0; i < n; ++i)
        if (served[i].from != sim::ServedFrom::None) marks.emplace(served[i].sector, served[i].from);
    }
    if (g.cell >= 4.0f)
      for (const auto& [sec, from] : marks) {
        uint64_t lo, hi;
        cell_range(sec * sim::kSectorBytes, (sec + 1) * sim::kSectorBytes, &lo, &hi);
        // (at most 12 px at scale 1: a hall's large cell stays the lanes' picture)
        const float bar = std::min({0.35f * g.cell, std::max(3.0f * scale, std::round(0.3f * g.cell)), 12.0f * scale});
        for (uint64_t c = lo; c < hi && c < total_cells; ++c) {
          if (!win.Contains(c / m.shape.cols, c % m.shape.cols)) continue;
          const Rect q = CellRect(g, c / m.shape.cols, c % m.shape.cols);
          const float y1 = q.y + q.h - inset, y0 = std::max(q.y + inset, y1 - bar);
          dl->AddRectFilled(V(q.x + inset, y0 - thin), V(q.x + q.w - inset, y1), Pack(kBackground));
          dl->AddRectFilled(V(q.x + inset, y0), V(q.x + q.w - inset, y1), Pack(ServedRgb(from)));
        }
        // The sector a cache view points at: its cells outlined in its mark's colour.
        if (lit_sectors.Has(sec)) {
          OutlineRun(dl, g, lo, hi, Pack(ServedRgb(from)), 2 * thick, win.row0, win.row0 + win.rows);
          if (placed && lo < total_cells && win.Contains(lo / m.shape.cols, lo % m.shape.cols))
            placed->push_back({shown_step.pane, "lit", a.name, CellRect(g, lo / m.shape.cols, lo % m.shape.cols)});
        }
      }
    dl->PopClipRect();

    // Overview: the whole array, the step's cells as dots and the region in view outlined.
    if (!slot.whole && slot.overview.w > 0) {
      const Rect& o = slot.overview;
      if (placed) {
        Placed p{shown_step.pane, "overview", a.name, o, m.shape.rows, m.shape.cols, 1.0f};
        placed->push_back(p);
      }
      const float sx = o.w / float(m.shape.cols), sy = o.h / float(m.shape.rows);
      dl->AddRectFilled(V(o.x, o.y), V(o.x + o.w, o.y + o.h), Pack(kCellEmpty));
      const float dot = std::max(2.0f * scale, std::max(sx, sy));
      std::set<uint64_t> dots;
      for (const auto* ins : shown_step.current) {
        if (ins->array != int(ai)) continue;
        for (int lane = 0; lane < 32; ++lane) {
          uint64_t f, l;
          if (!(ins->mask >> lane & 1) || !CellsOf(a, m, ins->addr[lane], ins->width, &f, &l)) continue;
          const float x = o.x + float(f % m.shape.cols) * sx, y = o.y + float(f / m.shape.cols) * sy;
          // One dot per dot-sized spot: a whole block's 1024 lanes often share a few.
          if (!dots.insert(uint64_t(x / dot) << 32 | uint64_t(y / dot)).second) continue;
          dl->AddRectFilled(V(x, y), V(x + dot, y + dot), Pack(LaneRgb(lane)));
        }
      }
      const float x0 = o.x + float(win.col0) * sx, y0 = o.y + float(win.row0) * sy;
      dl->AddRect(V(x0, y0), V(std::max(x0 + float(win.cols) * sx, x0 + 3 * scale), std::max(y0 + float(win.rows) * sy, y0 + 3 * scale)),
                  Pack(kLine), 0.0f, 0, std::max(1.5f, 1.5f * scale));
    }

    // Hover: which element, and who touched it when.
    if (hovered && mouse.x >= view.x && mouse.y >= view.y && mouse.x < view.x + view.w && mouse.y < view.y + view.h) {
      const uint64_t r = win.row0 + uint64_t((mouse.y - view.y) / cell), c = win.col0 + uint64_t((mouse.x - view.x) / cell);
      const uint64_t cell = r * m.shape.cols + c, e = cell / m.cells_per_elem;
      if (cell < total_cells) {
        const uint64_t addr = a.base + cell * m.cell_bytes;
        if (marks.count(sim::SectorIndex(addr)))
          hovered_ = {sim::LineIndex(addr), uint8_t(1u << (sim::SectorIndex(addr) % sim::kSectorsPerLine))};
        BeginClearTooltip(scale);
        if (m.cells_per_elem > 1)
          ImGui::Text("%s[%llu], bytes %llu-%llu of its %u", a.name.c_str(), (unsigned long long)e,
                      (unsigned long long)(cell % m.cells_per_elem * m.cell_bytes),
                      (unsigned long long)(cell % m.cells_per_elem * m.cell_bytes + m.cell_bytes - 1), a.elem_bytes);
        else
          ImGui::Text("%s[%llu]  row %llu, col %llu", a.name.c_str(), (unsigned long long)e, (unsigned long long)r,
                      (unsigned long long)c);
        ImGui::Text("address 0x%llx  (%s %llu, sector %llu, line %llu)", (unsigned long long)addr,
                    a.space == sim::Space::Shared ? "bank" : "offset",
                    (unsigned long long)(a.space == sim::Space::Shared ? sim::BankOf(addr) : addr - a.base),
                    (unsigned long long)sim::SectorIndex(addr), (unsigned long long)sim::LineIndex(addr));
        if (auto it = lanes_by_cell.find(cell); it != lanes_by_cell.end() && it->second.count > 1) {
          std::string lanes;
          for (uint32_t bits = it->second.lanes; bits; bits &= bits - 1)
            lanes += (lanes.empty() ? "" : " ") + std::to_string(std::countr_zero(bits));
          ImGui::Text("this step: one word, %u lane accesses (lanes %s)", it->second.count, lanes.c_str());
        }
        int shown = 0, touched = 0;
        for (const auto* ins : shown_step.history) {
          if (ins->array != int(ai)) continue;
          for (int lane = 0; lane < 32; ++lane) {
            uint64_t f, l;
            if (!(ins->mask >> lane & 1) || !CellsOf(a, m, ins->addr[lane], ins->width, &f, &l) || cell < f || cell > l) continue;
            ++touched;
            if (shown < 8) {
              ImGui::Text("  %s by block %u warp %u lane %u (thread %u), iteration %u", sim::ToString(ins->op), ins->block,
                          ins->warp, lane, ins->warp * 32 + lane, ins->epoch);
              ++shown;
            }
          }
        }
        for (const auto* ins : shown_step.current) {
          if (ins->array != int(ai)) continue;
          sim::ServedSector served[sim::kWarpSize];
          const int n = sim::ServedSectors(*ins, served);
          for (int i = 0; i < n; ++i)
            if (served[i].sector == sim::SectorIndex(addr) && served[i].from != sim::ServedFrom::None)
              ImGui::Text("  this step, warp %u: its sector %s", ins->warp, sim::ServedSentence(ins->op, served[i].from).c_str());
        }
        if (touched == 0) ImGui::TextDisabled("not touched by the shown warps so far");
        if (touched > shown) ImGui::TextDisabled("  ... %d more", touched - shown);
        EndClearTooltip();
      }
    }
    ImGui::PopID();
  }
  dl->Flags = line_flags;
  ImGui::EndChild();
  ImGui::PopID();
  return child_h;
}

}  // namespace ws::visual
