// The "(?)" beside a view's title: hovering it explains what the view shows. Both it and
// WrappedTooltip wrap their text at about 100 characters, so a sentence built from the
// rules (sim/rule_text.h) needs no line breaks of its own.
#pragma once
#include <imgui.h>

#include <string>

namespace ws::visual {

inline void WrappedTooltip(const std::string& text) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 50.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

inline void HelpMarker(const std::string& text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) WrappedTooltip(text);
}

}  // namespace ws::visual
