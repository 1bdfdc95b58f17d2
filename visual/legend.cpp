// Legend strip (see legend.h). The swatches draw with the palette the views use.
#include "visual/legend.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "sim/geometry.h"
#include "sim/rules.h"
#include "sim/rule_text.h"
#include "visual/help_marker.h"
#include "visual/palette.h"

namespace ws::visual {
namespace {

float SwatchWidth(Swatch s, float side) {
  switch (s) {
    case Swatch::LaneRamp: return side * 4;
    case Swatch::Trail: return side * 2.2f;
    case Swatch::Heat: return side * 2;
    default: return side;
  }
}

void DrawSwatch(ImDrawList* dl, Swatch s, ImVec2 p, float side, float scale) {
  const ImVec2 q(p.x + side, p.y + side);
  const float thin = std::max(1.0f, scale), thick = std::max(2.0f, 2.0f * scale);
  switch (s) {
    case Swatch::LaneRamp: {
      const float w = SwatchWidth(s, side) / 32;
      for (int lane = 0; lane < 32; ++lane)
        dl->AddRectFilled(ImVec2(p.x + w * lane, p.y), ImVec2(p.x + w * (lane + 1), q.y), Pack(LaneRgb(lane)));
      break;
    }
    case Swatch::LineOutline:
      dl->AddRectFilled(p, q, Pack(kBackground));
      dl->AddRect(ImVec2(p.x + thick * 0.5f, p.y + thick * 0.5f), ImVec2(q.x - thick * 0.5f, q.y - thick * 0.5f),
                  Pack(kLine, 220), 0, 0, thick);
      break;
    case Swatch::SectorOutline:
      dl->AddRectFilled(p, q, Pack(kBackground));
      dl->AddRect(ImVec2(p.x + thin * 0.5f, p.y + thin * 0.5f), ImVec2(q.x - thin * 0.5f, q.y - thin * 0.5f),
                  Pack(kSector, 230), 0, 0, thin);
      break;
    case Swatch::Trail: {
      // The same lane at the step and two steps before, fading as the memory view fades it.
      const float w = SwatchWidth(s, side) / 3;
      const uint8_t alpha[3] = {150, 95, 40};
      for (int k = 0; k < 3; ++k)
        dl->AddRectFilled(ImVec2(p.x + w * k, p.y), ImVec2(p.x + w * (k + 1) - thin, q.y), Pack(LaneRgb(20), alpha[k]));
      break;
    }
    case Swatch::Conflict: dl->AddRectFilled(p, q, Pack(kConflict)); break;
    case Swatch::Broadcast: {
      // One word several lanes touch, as the memory view draws it: their colours side by side.
      const int lanes[4] = {0, 10, 20, 31};
      for (int k = 0; k < 4; ++k)
        dl->AddRectFilled(ImVec2(p.x + side * k / 4, p.y), ImVec2(p.x + side * (k + 1) / 4, q.y), Pack(LaneRgb(lanes[k])));
      break;
    }
    case Swatch::Masked: dl->AddRectFilled(p, q, Pack(kMasked)); break;
    case Swatch::ServedL1:
    case Swatch::ServedL2:
    case Swatch::ServedDram: {
      // A cell with the bar the memory view draws under a served sector.
      const Rgb col = s == Swatch::ServedL1 ? kServedL1 : s == Swatch::ServedL2 ? kServedL2 : kServedDram;
      const float bar = std::max(3.0f * scale, std::round(0.3f * side));
      dl->AddRectFilled(p, q, Pack(kCellEmpty));
      dl->AddRectFilled(ImVec2(p.x, q.y - bar - thin), q, Pack(kBackground));
      dl->AddRectFilled(ImVec2(p.x, q.y - bar), q, Pack(col));
      break;
    }
    case Swatch::Heat: {
      const float w = SwatchWidth(s, side) / 4;
      for (int k = 0; k < 4; ++k)
        dl->AddRectFilled(ImVec2(p.x + w * k, p.y), ImVec2(p.x + w * (k + 1), q.y), Pack(HeatRgb(float(k) / 3)));
      break;
    }
  }
}

// Calls place(entry, x, y, width) for each entry, wrapping at `width`; returns the rows used.
template <class F>
int Arrange(float width, float scale, F place) {
  const float side = ImGui::GetTextLineHeight();
  const float gap = ImGui::GetStyle().ItemSpacing.x, entry_gap = 14 * scale;
  float x = 0;
  int row = 0;
  for (const auto& e : LegendEntries()) {
    const float w = SwatchWidth(e.swatch, side) + gap + ImGui::CalcTextSize(e.label.c_str()).x;
    if (x > 0 && x + w > width) {
      x = 0;
      ++row;
    }
    place(e, x, row, w);
    x += w + entry_gap;
  }
  return row + 1;
}

// The entries `use` says are drawn (the lane colours always).
std::vector<const LegendEntry*> Used(const LegendUse& use) {
  std::vector<const LegendEntry*> used;
  for (const auto& e : LegendEntries())
    if (Explains(e.swatch, use)) used.push_back(&e);
  return used;
}

// The rows `used` takes across `width` with its text at `f` times the font's size (the swatches,
// the gaps and the text all scale with it).
int RowsAt(const std::vector<const LegendEntry*>& used, float width, float scale, float f) {
  const float side = ImGui::GetTextLineHeight();
  const float gap = ImGui::GetStyle().ItemSpacing.x, entry_gap = 14 * scale;
  float x = 0;
  int rows = 1;
  for (const LegendEntry* e : used) {
    const float w = f * (SwatchWidth(e->swatch, side) + gap + ImGui::CalcTextSize(e->label.c_str()).x);
    if (x > 0 && x + w > width) x = 0, ++rows;
    x += w + f * entry_gap;
  }
  return rows;
}

}  // namespace

LegendFit FitLegend(const LegendUse& use, float width, float scale, float window_h) {
  const auto used = Used(use);
  const float least = std::min(1.0f, kLegendLeastShare * window_h / std::max(ImGui::GetFontSize(), 1.0f));
  // One row at the largest size, in steps of 5 %; else as many rows as the least size needs (two
  // on the shots: 1.35 rows of the full size, the picture keeping the rest of the height).
  // (Rows of even length: the least width that holds them in as many rows.)
  auto even = [&](LegendFit fit) {
    float lo = 0, hi = width;
    for (int i = 0; i < 20; ++i) {
      const float mid = 0.5f * (lo + hi);
      (RowsAt(used, mid, scale, fit.font_scale) <= fit.rows ? hi : lo) = mid;
    }
    fit.wrap_w = hi;
    return fit;
  };
  for (float f = 1.0f; f >= least - 1e-4f; f -= 0.05f)
    if (RowsAt(used, width, scale, f) <= 1) return {f, 1, width};
  return even({least, RowsAt(used, width, scale, least)});
}

const std::vector<LegendEntry>& LegendEntries() {
  static const std::vector<LegendEntry> entries = {
      {Swatch::LaneRamp, "lane 0 \xe2\x80\xa6 31", "The lanes of the warp, in lane colours: lane 0 violet, lane 31 yellow."},
      {Swatch::LineOutline, std::to_string(sim::kLineBytes) + "-byte line",
       "White outline: a " + std::to_string(sim::kLineBytes) + "-byte line (four sectors) the step touches."},
      {Swatch::SectorOutline, std::to_string(sim::kSectorBytes) + "-byte sector",
       "Blue outline: a " + std::to_string(sim::kSectorBytes) + "-byte sector, the unit global memory moves."},
      {Swatch::Trail, "trail", "Fading lane colours: the cells this warp touched in its last few steps."},
      {Swatch::Heat, "touched before", "Grey shades: how often the shown warps touched a cell so far (lighter: more)."},
      {Swatch::Conflict, "bank conflict", "A bank asked for more than one word: it serves them one after another."},
      {Swatch::Broadcast, "broadcast: n lanes", "One word several lanes read: in the memory view their lane colours side by side with how many lanes (whole block: lane accesses of every warp); in the bank view, counted and marked free. Lanes reading the very same word get it in one pass."},
      {Swatch::Masked, "masked lane", "Grey lane: switched off by a branch (divergence) or past the end of the data."},
      {Swatch::ServedL1, "L1 hit", "Green bar under a sector: the load found it in the L1 cache of its SM."},
      {Swatch::ServedL2, "L2", "Orange bar under a sector: it came from the L2 cache (an L1 miss), or a store wrote it: " +
                                   sim::StoreAllocationRule() + "; " + sim::AtomicRule() + "."},
      {Swatch::ServedDram, "DRAM", "Purple bar under a sector: neither cache held it, so it came from DRAM. No bars when the caches are not modelled (--no-caches)."},
  };
  return entries;
}

LegendUse LegendUseOf(const std::vector<const sim::WarpInstruction*>& shown, bool earlier_steps) {
  LegendUse u;
  u.earlier = earlier_steps;
  for (const auto* ins : shown) {
    if (!ins) continue;
    const bool shared = ins->space == sim::Space::Shared;
    u.global |= !shared;
    u.shared |= shared;
    u.conflict |= shared && ins->conflict_degree > 1;
    u.broadcast |= ins->op != sim::Op::Atomic && sim::DistinctAddresses(*ins) < ins->ActiveLanes();
    u.masked |= ins->mask != 0xffffffffu;
    u.served |= !shared && ins->served != 0;
  }
  return u;
}

bool Explains(Swatch s, const LegendUse& u) {
  switch (s) {
    case Swatch::LaneRamp: return true;
    case Swatch::LineOutline:
    case Swatch::SectorOutline: return u.global;
    case Swatch::Trail:
    case Swatch::Heat: return u.earlier;
    case Swatch::Conflict: return u.conflict;
    case Swatch::Broadcast: return u.broadcast;
    case Swatch::Masked: return u.masked;
    case Swatch::ServedL1:
    case Swatch::ServedL2:
    case Swatch::ServedDram: return u.served;
  }
  return true;
}

void LegendView::Draw(float scale, std::vector<Placed>* placed, const LegendUse* only) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float side = ImGui::GetTextLineHeight();
  const float row_h = ImGui::GetTextLineHeightWithSpacing();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  auto hovered = [&](ImVec2 p, float w) {
    return ImGui::IsWindowHovered() && mouse.x >= p.x && mouse.x < p.x + w && mouse.y >= p.y && mouse.y < p.y + row_h;
  };
  auto draw = [&](const LegendEntry& e, ImVec2 p, float w) {
    DrawSwatch(dl, e.swatch, p, side, scale);
    if (placed && e.swatch == Swatch::LaneRamp)
      placed->push_back({"", "legend", "lanes", Rect{p.x, p.y, SwatchWidth(e.swatch, side), side}});
    dl->AddText(ImVec2(p.x + SwatchWidth(e.swatch, side) + gap, p.y), ImGui::GetColorU32(ImGuiCol_Text), e.label.c_str());
    if (hovered(p, w)) WrappedTooltip(e.tooltip);
  };
  if (only) {
    // A short window: the used entries, every one of them, at the size FitLegend finds.
    // (The entries' widths as FitLegend measures them: at the font's size, times the scale.)
    const LegendFit fit = FitLegend(*only, width, scale, ImGui::GetIO().DisplaySize.y);
    const auto used = Used(*only);
    std::vector<float> widths;
    for (const LegendEntry* e : used)
      widths.push_back(fit.font_scale * (SwatchWidth(e->swatch, side) + gap + ImGui::CalcTextSize(e->label.c_str()).x));
    ImGui::SetWindowFontScale(fit.font_scale);
    const float f_side = ImGui::GetTextLineHeight(), f_gap = fit.font_scale * gap, entry_gap = fit.font_scale * 14 * scale;
    const float f_row_h = fit.font_scale * row_h;  // (the spacing between rows scales too)
    float x = 0;
    int row = 0;
    for (size_t i = 0; i < used.size(); ++i) {
      const LegendEntry* e = used[i];
      const float w = widths[i];
      if (x > 0 && x + w > fit.wrap_w) x = 0, ++row;
      const ImVec2 p(origin.x + x, origin.y + float(row) * f_row_h);
      DrawSwatch(dl, e->swatch, p, f_side, scale);
      if (placed && e->swatch == Swatch::LaneRamp)
        placed->push_back({"", "legend", "lanes", Rect{p.x, p.y, SwatchWidth(e->swatch, f_side), f_side}});
      dl->AddText(ImVec2(p.x + SwatchWidth(e->swatch, f_side) + f_gap, p.y), ImGui::GetColorU32(ImGuiCol_Text), e->label.c_str());
      if (ImGui::IsWindowHovered() && mouse.x >= p.x && mouse.x < p.x + w && mouse.y >= p.y && mouse.y < p.y + f_row_h)
        WrappedTooltip(e->tooltip);
      x += w + entry_gap;
    }
    ImGui::SetWindowFontScale(1.0f);
    ImGui::Dummy(ImVec2(width, float(fit.rows) * f_row_h));
    return;
  }
  const int rows = Arrange(width, scale, [&](const LegendEntry& e, float x, int row, float w) {
    draw(e, ImVec2(origin.x + x, origin.y + row * row_h), w);
  });
  ImGui::Dummy(ImVec2(width, rows * row_h));
}

float LegendView::Height(float width, float scale, const LegendUse* only) {
  if (only) {
    const LegendFit fit = FitLegend(*only, width, scale, ImGui::GetIO().DisplaySize.y);
    return float(fit.rows) * fit.font_scale * ImGui::GetTextLineHeightWithSpacing();
  }
  return float(Arrange(width, scale, [](const LegendEntry&, float, int, float) {})) * ImGui::GetTextLineHeightWithSpacing();
}

}  // namespace ws::visual
