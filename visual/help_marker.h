// The "(?)" beside a view's title: hovering it explains what the view shows.
#pragma once
#include <imgui.h>

namespace ws::visual {

inline void HelpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

}  // namespace ws::visual
