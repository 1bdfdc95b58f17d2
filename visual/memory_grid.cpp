// Memory view (see memory_grid.h). Cells are texels of one texture per array; only the step's
// lanes, trail and line/sector outlines are drawn as rectangles on top.
#include "visual/memory_grid.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <imgui.h>


#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "visual/palette.h"
#include "visual/steps.h"

namespace ws::visual {
namespace {

constexpr uint64_t kMaxTexels = 4096ull * 4096ull;

ImVec2 V(float x, float y) { return ImVec2(x, y); }

void FillCell(ImDrawList* dl, const GridLayout& g, const GridShape& s, uint64_t elem, uint32_t col) {
  const uint64_t r = elem / s.cols, c = elem % s.cols;
  if (r >= s.rows) return;
  Rect q = CellRect(g, r, c);
  // Keep a lit cell visible when cells are smaller than a pixel.
  const float side = std::max(q.w, 1.5f);
  dl->AddRectFilled(V(q.x, q.y), V(q.x + side, q.y + side), col);
}

// Outlines the elements [first, last) of a row-major grid, one rectangle per row they cover.
void OutlineRun(ImDrawList* dl, const GridLayout& g, const GridShape& s, uint64_t first, uint64_t last,
                uint32_t col, float thickness) {
  const uint64_t total = s.rows * s.cols;
  last = std::min(last, total);
  while (first < last) {
    const uint64_t r = first / s.cols, c0 = first % s.cols;
    const uint64_t c1 = std::min<uint64_t>(s.cols, c0 + (last - first));
    Rect a = CellRect(g, r, c0);
    const float o = thickness * 0.5f;
    dl->AddRect(V(a.x - o, a.y - o), V(a.x + g.cell * float(c1 - c0) + o, a.y + g.cell + o), col, 0.0f, 0, thickness);
    first += c1 - c0;
  }
}

}  // namespace

MemoryGridView::~MemoryGridView() {
  for (auto& [id, t] : textures_)
    if (t.id) glDeleteTextures(1, &t.id);
}

void MemoryGridView::Upload(Texture& t, const StepFrame& frame, const sim::ArrayInfo& a) {
  const GridShape s = DrawShape(a.rows, a.cols, a.count);
  const uint64_t n = s.rows * s.cols;
  counts_.assign(n, 0);
  uint32_t most = 0;
  for (const auto* ins : frame.history) {
    if (ins->array != a.id) continue;
    for (int lane = 0; lane < 32; ++lane) {
      if (!(ins->mask >> lane & 1)) continue;
      const uint64_t e = ElementOf(a, ins->addr[lane]);
      if (e < n) most = std::max(most, ++counts_[e]);
    }
  }
  pixels_.resize(n * 4);
  const float log_most = std::log1p(float(most));
  for (uint64_t e = 0; e < n; ++e) {
    Rgb c = counts_[e] ? HeatRgb(std::log1p(float(counts_[e])) / std::max(log_most, 1e-6f)) : kBackground;
    if (e >= a.count) c = {0, 0, 0};
    pixels_[e * 4] = c.r;
    pixels_[e * 4 + 1] = c.g;
    pixels_[e * 4 + 2] = c.b;
    pixels_[e * 4 + 3] = 255;
  }
  if (!t.id) glGenTextures(1, &t.id);
  glBindTexture(GL_TEXTURE_2D, t.id);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  if (t.rows != s.rows || t.cols != s.cols) {
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, GLsizei(s.cols), GLsizei(s.rows), 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 pixels_.data());
    t.rows = s.rows;
    t.cols = s.cols;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, GLsizei(s.cols), GLsizei(s.rows), GL_RGBA, GL_UNSIGNED_BYTE,
                    pixels_.data());
  }
  t.version = frame.version;
  t.trace = frame.trace;
}

void MemoryGridView::Draw(const StepFrame& frame, float height, float scale, std::vector<Placed>* placed) {
  if (!frame.trace) return;
  const sim::Trace& trace = *frame.trace;
  ImGui::PushID(frame.pane.c_str());
  const float child_h = std::max(height, 40.0f * scale);
  ImGui::BeginChild("grids##mem", ImVec2(0, child_h), false,
                    zoom > 1.0f ? ImGuiWindowFlags_HorizontalScrollbar : ImGuiWindowFlags_NoScrollbar);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int n_arrays = int(trace.arrays.size());
  const float gap = 10.0f * scale;
  const float label_h = ImGui::GetTextLineHeightWithSpacing();
  // Arrange the arrays in the number of columns that gives the largest cells.
  int per_row = 1;
  float best = -1;
  for (int k = 1; k <= std::max(n_arrays, 1); ++k) {
    const int rows_of_arrays = (n_arrays + k - 1) / std::max(k, 1);
    const float w = (avail.x - gap * float(k - 1)) / float(k);
    const float h = (avail.y - (label_h + gap) * float(rows_of_arrays)) / float(std::max(rows_of_arrays, 1));
    float worst = 1e9f;
    for (const auto& a : trace.arrays) {
      const GridShape s = DrawShape(a.rows, a.cols, a.count);
      worst = std::min(worst, LayoutGrid(s.rows, s.cols, Rect{0, 0, w, h}).cell);
    }
    if (worst > best + 0.01f) best = worst, per_row = k;
  }
  const int array_rows = (n_arrays + per_row - 1) / std::max(per_row, 1);
  const float col_w = (avail.x - gap * float(per_row - 1)) / float(per_row);
  const float row_h = (avail.y - (label_h + gap) * float(array_rows)) / float(std::max(array_rows, 1));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float used_w = 0, used_h = 0;

  for (int ai = 0; ai < n_arrays; ++ai) {
    const sim::ArrayInfo& a = trace.arrays[ai];
    ImGui::PushID(ai);
    const GridShape s = DrawShape(a.rows, a.cols, a.count);
    const float x = origin.x + float(ai % per_row) * (col_w * zoom + gap);
    const float y = origin.y + float(ai / per_row) * (row_h * zoom + label_h + gap);
    const std::string label =
        a.space == sim::Space::Shared
            ? a.name + " (shared " + a.type + "[" + std::to_string(a.count) + "], a row per 32 banks)"
            : a.name + " (" + a.type + ", " + std::to_string(s.rows) + "x" + std::to_string(s.cols) + ")";
    dl->PushClipRect(V(x, y), V(x + col_w * zoom, y + label_h), true);
    dl->AddText(V(x, y), ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
    dl->PopClipRect();
    const Rect area{x, y + label_h, col_w, row_h};
    const GridLayout g = LayoutGrid(s.rows, s.cols, area, zoom);
    if (placed) placed->push_back({frame.pane, "grid", a.name, area, s.rows, s.cols, zoom});
    used_w = std::max(used_w, x - origin.x + g.Width());
    used_h = std::max(used_h, y - origin.y + label_h + g.Height());

    if (s.rows * s.cols > kMaxTexels) {
      dl->AddText(V(area.x, area.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), "(too large to draw)");
      ImGui::PopID();
      continue;
    }
    Texture& t = textures_[a.id];
    if (t.version != frame.version || t.trace != frame.trace) Upload(t, frame, a);
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(t.id)), V(g.x0, g.y0),
                 V(g.x0 + g.Width(), g.y0 + g.Height()));

    // Trail: the focused warp's previous steps, fading.
    for (int k = std::min<int>(trail_steps, int(frame.trail.size())) - 1; k >= 0; --k) {
      const auto* ins = frame.trail[k];
      if (ins->array != a.id) continue;
      const uint8_t alpha = uint8_t(150 - 110 * k / std::max(trail_steps, 1));
      for (int lane = 0; lane < 32; ++lane)
        if (ins->mask >> lane & 1) FillCell(dl, g, s, ElementOf(a, ins->addr[lane]), Pack(LaneRgb(lane), alpha));
    }
    // The step: the lines and sectors its lanes fall in (outlined just outside their cells),
    // then the lanes themselves on top.
    std::set<uint64_t> sectors, lines;
    for (const auto* ins : frame.current) {
      if (ins->array != a.id || a.space != sim::Space::Global) continue;
      for (int lane = 0; lane < 32; ++lane) {
        if (!(ins->mask >> lane & 1)) continue;
        for (uint64_t b = ins->addr[lane] >> 5; b <= (ins->addr[lane] + ins->width - 1) >> 5; ++b) {
          sectors.insert(b);
          lines.insert(b >> 2);
        }
      }
    }
    const float thin = std::max(1.0f, scale), thick = std::max(2.0f, 2.0f * scale);
    for (uint64_t line : lines) {
      const uint64_t lo = line * 128 > a.base ? (line * 128 - a.base) / a.elem_bytes : 0;
      const uint64_t hi = ((line + 1) * 128 - a.base + a.elem_bytes - 1) / a.elem_bytes;
      OutlineRun(dl, g, s, lo, hi, Pack(kLine, 220), thick);
    }
    if (g.cell >= 4.0f)
      for (uint64_t sec : sectors) {
        const uint64_t lo = sec * 32 > a.base ? (sec * 32 - a.base) / a.elem_bytes : 0;
        const uint64_t hi = ((sec + 1) * 32 - a.base + a.elem_bytes - 1) / a.elem_bytes;
        OutlineRun(dl, g, s, lo, hi, Pack(kSector, 230), thin);
      }
    for (const auto* ins : frame.current) {
      if (ins->array != a.id) continue;
      for (int lane = 0; lane < 32; ++lane)
        if (ins->mask >> lane & 1) FillCell(dl, g, s, ElementOf(a, ins->addr[lane]), Pack(LaneRgb(lane)));
    }

    // Hover: which element, and who touched it when.
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (ImGui::IsWindowHovered() && m.x >= g.x0 && m.y >= g.y0 && m.x < g.x0 + g.Width() && m.y < g.y0 + g.Height()) {
      const uint64_t r = uint64_t((m.y - g.y0) / g.cell), c = uint64_t((m.x - g.x0) / g.cell);
      const uint64_t e = r * s.cols + c;
      if (e < a.count) {
        const uint64_t addr = a.base + e * a.elem_bytes;
        ImGui::BeginTooltip();
        ImGui::Text("%s[%llu]  row %llu, col %llu", a.name.c_str(), (unsigned long long)e, (unsigned long long)r,
                    (unsigned long long)c);
        ImGui::Text("address 0x%llx  (%s %llu, sector %llu, line %llu%s)", (unsigned long long)addr,
                    a.space == sim::Space::Shared ? "bank" : "offset",
                    (unsigned long long)(a.space == sim::Space::Shared ? (addr / 4) % 32 : addr - a.base),
                    (unsigned long long)(addr >> 5), (unsigned long long)(addr >> 7), "");
        int shown = 0, total = 0;
        for (size_t h = 0; h < frame.history.size(); ++h) {
          const auto* ins = frame.history[h];
          if (ins->array != a.id) continue;
          for (int lane = 0; lane < 32; ++lane) {
            if (!(ins->mask >> lane & 1) || ElementOf(a, ins->addr[lane]) != e) continue;
            ++total;
            if (shown < 8) {
              ImGui::Text("  %s by block %u warp %u lane %u (thread %u), iteration %u", sim::ToString(ins->op),
                          ins->block, ins->warp, lane, ins->warp * 32 + lane, ins->epoch);
              ++shown;
            }
          }
        }
        if (total == 0) ImGui::TextDisabled("not touched by the shown warps so far");
        if (total > shown) ImGui::TextDisabled("  ... %d more", total - shown);
        ImGui::EndTooltip();
      }
    }
    ImGui::PopID();
  }
  ImGui::Dummy(ImVec2(used_w, used_h));
  ImGui::EndChild();
  ImGui::PopID();
}

}  // namespace ws::visual
