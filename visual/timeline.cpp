// Timeline (see timeline.h).
#include "visual/timeline.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "visual/palette.h"

namespace ws::visual {

TimelineInput TimelineView::Draw(const sim::Trace* trace, Playback& pb, float scale) {
  TimelineInput in;
  const int last = std::max(pb.steps - 1, 0);
  if (ImGui::Button("|<##tl")) pb.step = 0, in.step_changed = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("First instruction (Home)");
  ImGui::SameLine();
  if (ImGui::Button("<##tl")) pb.step = std::max(pb.step - 1, 0), in.step_changed = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Previous warp instruction (Left)");
  ImGui::SameLine();
  if (ImGui::Button(pb.playing ? "Pause##tl" : "Play##tl", ImVec2(60 * scale, 0))) pb.playing = !pb.playing;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play / pause (Space)");
  ImGui::SameLine();
  if (ImGui::Button(">##tl")) pb.step = std::min(pb.step + 1, last), in.step_changed = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Next warp instruction (Right)");
  ImGui::SameLine();
  if (ImGui::Button("iteration -##tl")) in.iteration = -1;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The same source line, one loop iteration earlier (Down)");
  ImGui::SameLine();
  if (ImGui::Button("iteration +##tl")) in.iteration = +1;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The same source line, one loop iteration later (Up)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110 * scale);
  ImGui::SliderFloat("##speed", &pb.speed, 0.5f, 60.0f, "%.1f steps/s", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Playback speed");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  int step = pb.step;
  char fmt[64];
  std::snprintf(fmt, sizeof fmt, "step %%d of %d", pb.steps);
  if (ImGui::SliderInt("##scrub", &step, 0, last, fmt)) pb.step = step, in.step_changed = true;

  if (!trace) return in;
  // Block and warp: a map of the grid's blocks, then the block's threads coloured by warp.
  const auto& shape = trace->shape;
  const uint32_t blocks = uint32_t(shape.grid.Count());
  const uint32_t threads = uint32_t(shape.block.Count());
  const uint32_t warps = (threads + 31) / 32;
  ImGui::AlignTextToFramePadding();
  ImGui::Text("block %u of %u, warp %u of %u", pb.block, blocks, pb.warp, warps);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Click a block in the grid map, then a thread in the block map: its warp is shown.\n"
                      "Threads are numbered x fastest; 32 consecutive threads form a warp.");
  ImGui::SameLine();
  if (ImGui::Checkbox("whole block##tl", &pb.whole_block)) in.selection_changed = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show every warp of the block at this step at once.");

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float map_h = ImGui::GetContentRegionAvail().y - 4 * scale;
  if (map_h < 8 * scale) return in;
  auto grid_map = [&](const char* id, uint32_t nx, uint32_t ny, float max_w, auto colour, auto clicked) {
    const float cell = std::max(1.0f, std::min(max_w / float(nx), map_h / float(ny)));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, ImVec2(cell * float(nx), cell * float(ny)));
    for (uint32_t y = 0; y < ny; ++y)
      for (uint32_t x = 0; x < nx; ++x) {
        const ImVec2 a(p.x + cell * float(x), p.y + cell * float(y));
        dl->AddRectFilled(a, ImVec2(a.x + cell - (cell > 3 ? 1 : 0), a.y + cell - (cell > 3 ? 1 : 0)), colour(x, y));
      }
    if (ImGui::IsItemHovered() || ImGui::IsItemClicked()) {
      const ImVec2 m = ImGui::GetIO().MousePos;
      const uint32_t x = std::min(nx - 1, uint32_t(std::max(0.0f, (m.x - p.x) / cell)));
      const uint32_t y = std::min(ny - 1, uint32_t(std::max(0.0f, (m.y - p.y) / cell)));
      clicked(x, y, ImGui::IsItemClicked());
    }
  };
  const uint32_t gx = shape.grid.x, gy = uint32_t(shape.grid.Count() / std::max(shape.grid.x, 1u));
  if (blocks <= 4096) {
    grid_map("grid##map", gx, gy, 200 * scale,
             [&](uint32_t x, uint32_t y) { return y * gx + x == pb.block ? Pack(kHighlight) : Pack({70, 80, 95}); },
             [&](uint32_t x, uint32_t y, bool click) {
               ImGui::SetTooltip("block (%u, %u) = linear %u", x, y, y * gx + x);
               if (click) pb.block = y * gx + x, in.selection_changed = true;
             });
    ImGui::SameLine();
  }
  const uint32_t bx = shape.block.x, by = uint32_t(threads / std::max(shape.block.x, 1u));
  if (threads <= 4096) {
    grid_map("block##map", bx, by, ImGui::GetContentRegionAvail().x * 0.5f,
             [&](uint32_t x, uint32_t y) {
               const uint32_t w = (y * bx + x) / 32;
               if (w == pb.warp) return Pack(LaneRgb(int((y * bx + x) % 32)));
               return pb.whole_block ? Pack({90, 90, 100}) : Pack(w % 2 ? Rgb{55, 55, 62} : Rgb{70, 70, 78});
             },
             [&](uint32_t x, uint32_t y, bool click) {
               const uint32_t t = y * bx + x;
               ImGui::SetTooltip("thread (%u, %u): linear %u, warp %u, lane %u", x, y, t, t / 32, t % 32);
               if (click) pb.warp = t / 32, in.selection_changed = true;
             });
  }
  return in;
}

}  // namespace ws::visual
