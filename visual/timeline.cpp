// Timeline bar (see timeline.h).
#include "visual/timeline.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "visual/palette.h"
#include "visual/text_fit.h"

namespace ws::visual {
namespace {

float RowsHeight(bool one_row) { return one_row ? ImGui::GetFrameHeight() : ImGui::GetFrameHeight() * 2 + ImGui::GetStyle().ItemSpacing.y; }

// A map of nx x ny cells `cell` px each at the cursor; `colour(x, y)` fills a cell; the cells of
// `mark` (x0, y0, x1, y1 inclusive) are outlined, at least `min_mark` px across. Returns the
// hovered cell, or {-1, -1}; `clicked` says whether it was clicked.
struct Hit {
  int x = -1, y = -1;
  bool clicked = false;
};
template <class Colour>
Hit CellMap(const char* id, uint32_t nx, uint32_t ny, float cell, Colour colour, const float (&mark)[4], float min_mark,
            float thickness) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(std::max(cell * float(nx), 1.0f), std::max(cell * float(ny), 1.0f)));
  // Small cells have no gap: a row's neighbours of one colour are one rectangle (a 128x128 grid
  // of 1-px blocks would otherwise be 32,768 triangles a frame for the software rasteriser).
  const float gap = cell > 4 ? 1 : 0;
  for (uint32_t y = 0; y < ny; ++y)
    for (uint32_t x = 0; x < nx;) {
      const uint32_t col = colour(x, y);
      uint32_t end = x + 1;
      if (gap == 0)
        while (end < nx && colour(end, y) == col) ++end;
      const ImVec2 a(p.x + cell * float(x), p.y + cell * float(y));
      dl->AddRectFilled(a, ImVec2(p.x + cell * float(end) - gap, a.y + cell - gap), col);
      x = end;
    }
  // The mark, grown to `min_mark` around its centre so that a 1-px cell still shows.
  ImVec2 lo(p.x + cell * mark[0], p.y + cell * mark[1]), hi(p.x + cell * (mark[2] + 1), p.y + cell * (mark[3] + 1));
  const ImVec2 c((lo.x + hi.x) * 0.5f, (lo.y + hi.y) * 0.5f);
  const float hw = std::max((hi.x - lo.x) * 0.5f, min_mark * 0.5f) + thickness * 0.5f;
  const float hh = std::max((hi.y - lo.y) * 0.5f, min_mark * 0.5f) + thickness * 0.5f;
  dl->AddRect(ImVec2(c.x - hw, c.y - hh), ImVec2(c.x + hw, c.y + hh), Pack(kHighlight), 0, 0, thickness);
  Hit h;
  if (ImGui::IsItemHovered() || ImGui::IsItemClicked()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    h.x = int(std::min(float(nx - 1), std::max(0.0f, (m.x - p.x) / cell)));
    h.y = int(std::min(float(ny - 1), std::max(0.0f, (m.y - p.y) / cell)));
    h.clicked = ImGui::IsItemClicked();
  }
  return h;
}

bool IconButton(const char* label, const char* tip) {
  const bool pressed = ImGui::Button(label);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  return pressed;
}

}  // namespace

float TimelineView::Height(bool, float, bool one_row) { return RowsHeight(one_row) + ImGui::GetStyle().WindowPadding.y * 2; }

TimelineInput TimelineView::Draw(const sim::Trace* trace, Playback& pb, float scale, bool one_row) {
  TimelineInput in;
  const float rows_h = RowsHeight(one_row);
  const float thick = std::max(2.0f, 2.0f * scale);

  // Block and warp maps, both rows high. A one-row grid or block wraps (a block at 32 threads a
  // row, so that each row is a warp), so that a long strip does not shrink to 1-px cells.
  if (trace) {
    const auto& shape = trace->shape;
    const uint32_t blocks = uint32_t(shape.grid.Count());
    const uint32_t threads = uint32_t(shape.block.Count());
    const float max_cell = rows_h * 0.5f;
    auto fit = [&](uint32_t nx, uint32_t ny) { return std::clamp(std::min(rows_h * 2.5f / float(nx), rows_h / float(ny)), 1.0f, max_cell); };
    if (blocks <= 65536) {
      const bool wrap = shape.grid.y * shape.grid.z == 1 && blocks > 8;
      const uint32_t gx = wrap ? std::max(1u, uint32_t(std::ceil(std::sqrt(blocks * 2.5)))) : std::max(shape.grid.x, 1u);
      const uint32_t gy = (blocks + gx - 1) / gx;
      const float cell = fit(gx, gy);
      const float mark[4] = {float(pb.block % gx), float(pb.block / gx), float(pb.block % gx), float(pb.block / gx)};
      const Hit h = CellMap("grid##map", gx, gy, cell, [&](uint32_t x, uint32_t y) {
        const uint32_t b = y * gx + x;
        return b == pb.block ? Pack(kHighlight) : b < blocks ? Pack(kOtherBlock) : Pack(kBackground);
      }, mark, 8 * scale, thick);
      const uint32_t b = uint32_t(h.y) * gx + uint32_t(h.x);
      if (h.x >= 0 && b < blocks) {
        if (wrap) ImGui::SetTooltip("block %u of %u: click to show it", b, blocks);
        else ImGui::SetTooltip("block (%d, %d) = linear %u of %u: click to show it", h.x, h.y, b, blocks);
        if (h.clicked && b != pb.block) {
          pb.block = b;
          in.selection_changed = true;
        }
      }
      ImGui::SameLine();
    }
    if (threads <= 4096) {
      constexpr uint32_t kW = sim::kWarpSize;  // threads of a warp
      const bool wrap = shape.block.y * shape.block.z == 1 && threads > kW;
      const uint32_t bx = wrap ? kW : std::max(shape.block.x, 1u);
      const uint32_t by = (threads + bx - 1) / bx;
      const float cell = fit(bx, by);
      const uint32_t first = pb.warp * kW, last = std::min(first + kW - 1, threads - 1);
      const uint32_t y0 = first / bx, y1 = last / bx;  // a warp spanning rows is outlined row-wide
      const float mark[4] = {float(y1 > y0 ? 0 : first % bx), float(y0), float(y1 > y0 ? bx - 1 : last % bx), float(y1)};
      const Hit h = CellMap("block##map", bx, by, cell, [&](uint32_t x, uint32_t y) {
        const uint32_t t = y * bx + x;
        if (t >= threads) return Pack(kBackground);
        if (t / kW == pb.warp) return Pack(LaneRgb(int(t % kW)));
        return pb.whole_block ? Pack(kShownWarps) : Pack(kOtherWarp[t / kW % 2]);
      }, mark, 8 * scale, thick);
      const uint32_t t = uint32_t(h.y) * bx + uint32_t(h.x);
      if (h.x >= 0 && t < threads) {
        const uint32_t tx = t % std::max(shape.block.x, 1u), ty = t / std::max(shape.block.x, 1u);
        ImGui::SetTooltip("thread (%u, %u): linear %u, warp %u, lane %u. Click to show warp %u.\n"
                          "Threads are numbered x fastest; %u consecutive threads form a warp.",
                          tx, ty, t, t / kW, t % kW, kW, t / kW);
        if (h.clicked && t / kW != pb.warp) {
          pb.warp = t / kW;
          in.selection_changed = true;
        }
      }
      ImGui::SameLine();
    }
  }

  // Row 1: transport and scrub. Row 2: where we are, whole block, follow mode. (One row: no
  // speed, no "block b of B", the scrub slider as wide as its text and what follows leaves.)
  ImGui::BeginGroup();
  const int last = std::max(pb.steps - 1, 0);
  auto set_step = [&](int s) {
    pb.step = std::clamp(s, 0, last);
    in.step_changed = true;
  };
  if (IconButton("|<##tl", "First instruction (Home)")) set_step(0);
  ImGui::SameLine();
  if (IconButton("<##tl", "Previous warp instruction (Left)")) set_step(pb.step - 1);
  ImGui::SameLine();
  if (IconButton(pb.playing ? "Pause##tl" : "Play##tl", "Play / pause (Space)")) pb.playing = !pb.playing;
  ImGui::SameLine();
  if (IconButton(">##tl", "Next warp instruction (Right)")) set_step(pb.step + 1);
  ImGui::SameLine();
  if (IconButton("\xe2\x86\x91##tl", "The same source line, one loop iteration later (Up)")) in.iteration = +1;
  ImGui::SameLine();
  if (IconButton("\xe2\x86\x93##tl", "The same source line, one loop iteration earlier (Down)")) in.iteration = -1;
  ImGui::SameLine();
  const float frame_pad = 2 * ImGui::GetStyle().FramePadding.x;
  if (!one_row) {
    // The speed's words where the slider has room for them, else the figure alone.
    const float speed_w = std::min(130 * scale, ImGui::GetContentRegionAvail().x * 0.3f);
    const bool speed_words = ImGui::CalcTextSize("60.0 steps/s").x + frame_pad <= speed_w;
    ImGui::SetNextItemWidth(std::max(speed_w, ImGui::CalcTextSize("60.0/s").x + frame_pad));
    ImGui::SliderFloat("##speed", &pb.speed, 0.5f, 60.0f, speed_words ? "%.1f steps/s" : "%.1f/s", ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Playback speed");
    ImGui::SameLine();
  }
  const std::string other = std::string(pb.leader) == "A" ? "B" : "A";
  const float check_w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("whole block").x;
  // One row: the follow button as short as its mode ("B: by role") and the scrub slider the rest.
  const std::string follow_least = other + ": " + ToString(pb.follow);
  const float after_scrub = check_w + 2 * ImGui::GetStyle().ItemSpacing.x +
                            (pb.compare ? ImGui::CalcTextSize(follow_least.c_str()).x + frame_pad + ImGui::GetStyle().ItemSpacing.x : 0.0f);
  ImGui::SetNextItemWidth(one_row && trace ? std::max(ImGui::GetContentRegionAvail().x - after_scrub,
                                                      ImGui::CalcTextSize(StepLabel(pb.step, pb.steps).c_str()).x + frame_pad)
                                           : -1.0f);
  int step = pb.step;
  // The slider's text is StepLabel's, as in presenter mode's status line (no '%' in it).
  if (ImGui::SliderInt("##scrub", &step, 0, last, StepLabel(pb.step, pb.steps).c_str())) set_step(step);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Steps count from 0, as --step and a lesson's \"step\" do.");

  if (trace) {
    const uint32_t blocks = uint32_t(trace->shape.grid.Count());
    const uint32_t warps = trace->shape.WarpsPerBlock();
    if (one_row) {
      ImGui::SameLine();
    } else {
      ImGui::AlignTextToFramePadding();
      ImGui::Text("block %u of %u \xc2\xb7 warp %u of %u", pb.block, blocks, pb.warp, warps);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Click a block in the grid map, then a thread in the block map: its warp is shown.");
      ImGui::SameLine();
    }
    if (ImGui::Checkbox("whole block##tl", &pb.whole_block)) in.selection_changed = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show every warp of the block at this step at once.");
  }
  if (pb.compare) {
    ImGui::SameLine();
    const std::string full = FollowSentence(other, pb.leader, pb.follow, pb.follow_why);
    // As much of the sentence as the row has room for (the whole of it in the tooltip).
    const std::string words = FitText({full, other + ": " + FollowWords(pb.follow, pb.follow_why), other + ": " + ToString(pb.follow)},
                                      ImGui::GetContentRegionAvail().x - frame_pad);
    if (ImGui::Button((words + "##tl").c_str())) in.follow_changed = true;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s.\nHow the other pane moves when the focused one steps:\n"
                        "in lockstep: the same step number (and the same loop iteration for Up/Down);\n"
                        "by source role: the instruction doing the same thing (load/store, global/shared)\n"
                        "  to the array of the same name, so unlike kernels line up;\n"
                        "alone: it stays; Tab gives it the keys.\n"
                        "A pair starts in lockstep where both warps issue the same steps, by source role\n"
                        "where every step of the focused warp has a partner of its role in the other,\n"
                        "else in lockstep.", full.c_str());
  }
  ImGui::EndGroup();
  return in;
}

}  // namespace ws::visual
