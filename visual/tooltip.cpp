// Tooltips that keep clear of the view their hover lights (see tooltip.h).
#include "visual/tooltip.h"

#include <imgui.h>
#include <imgui_internal.h>

namespace ws::visual {
namespace {

Rect keep_clear_;
// The last clear tooltip's size, measured at its end: Dear ImGui sizes the next frame's tooltip
// from the same content, so this is where it is placed from.
ImVec2 last_size_;
bool wrapping_ = false;

}  // namespace

void KeepTooltipsClearOf(const Rect& keep_clear) { keep_clear_ = keep_clear; }

void BeginClearTooltip(float scale) {
  const ImGuiIO& io = ImGui::GetIO();
  const ImGuiStyle& st = ImGui::GetStyle();
  const Rect screen{0, 0, io.DisplaySize.x, io.DisplaySize.y};
  const ImVec2 m = io.MousePos;
  const bool clear = keep_clear_.w > 0 && keep_clear_.h > 0 &&
                     !(m.x >= keep_clear_.x && m.x < keep_clear_.x + keep_clear_.w && m.y >= keep_clear_.y && m.y < keep_clear_.y + keep_clear_.h);
  if (clear) {
    const Rect r = PlaceTooltip(m.x, m.y, last_size_.x, last_size_.y, screen, keep_clear_, scale);
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  }
  ImGui::BeginTooltip();
  // The lines wrap where the tooltip would be wider than the room beside keep_clear (a gap short
  // of it), unless that room is too narrow to read in.
  const float wrap = TooltipRoom(m.x, screen, keep_clear_) - st.ItemSpacing.x - st.WindowPadding.x;
  wrapping_ = clear && wrap >= 20.0f * ImGui::GetFontSize();
  if (wrapping_) ImGui::PushTextWrapPos(wrap);
}

void EndClearTooltip() {
  if (wrapping_) ImGui::PopTextWrapPos();
  wrapping_ = false;
  const ImGuiWindow* w = ImGui::GetCurrentWindow();
  last_size_ = ImVec2(w->DC.CursorMaxPos.x - w->Pos.x + ImGui::GetStyle().WindowPadding.x,
                      w->DC.CursorMaxPos.y - w->Pos.y + ImGui::GetStyle().WindowPadding.y);
  ImGui::EndTooltip();
}

}  // namespace ws::visual
