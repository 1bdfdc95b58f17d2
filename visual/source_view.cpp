// Source view (see source_view.h).
#include "visual/source_view.h"

#include <imgui.h>

#include "visual/help_marker.h"

#include <cstdio>
#include <sstream>
#include <vector>

#include "sim/metrics.h"
#include "visual/palette.h"

namespace ws::visual {

void SourceView::Draw(const StepFrame& frame, const std::string& source_path, const std::string& text, float height,
                      float scale, void* mono_font, const std::vector<SourceMark>* errors) {
  ImGui::PushID(frame.pane.c_str());
  ImGui::Text("%s  %s", frame.pane.c_str(), source_path.c_str());
  HelpMarker(
        "The kernel as it is compiled for both the GPU and the simulator. Highlighted: the line of\n"
        "the current instruction. Right: this launch's global sectors / ideal and shared wavefronts\n"
        "per line, over the whole launch. Hover a line for all its counters.");
  const ImVec4 red(kConflict.r / 255.f, kConflict.g / 255.f, kConflict.b / 255.f, 1);
  float header_h = ImGui::GetTextLineHeightWithSpacing();
  if (errors) {
    ImGui::PushStyleColor(ImGuiCol_Text, red);
    const float before = ImGui::GetCursorPosY();
    ImGui::TextWrapped("does not compile: %zu message%s below; the pictures are the last good build",
                       errors->size(), errors->size() == 1 ? "" : "s");
    ImGui::PopStyleColor();
    header_h += ImGui::GetCursorPosY() - before;
  }
  ImGui::BeginChild("source##view", ImVec2(0, height - header_h), true, ImGuiWindowFlags_HorizontalScrollbar);
  if (mono_font) ImGui::PushFont(static_cast<ImFont*>(mono_font));
  const uint32_t current = frame.Focus() && frame.trace && frame.Focus()->site < frame.trace->sites.size()
                               ? frame.trace->sites[frame.Focus()->site].line
                               : 0;
  std::istringstream in(text);
  std::string line;
  uint32_t number = 0;
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const float counter_w = ImGui::CalcTextSize("0000000/0000000 s 0000000 wf").x;
  while (std::getline(in, line)) {
    ++number;
    ImGui::PushID(int(number));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = std::max(ImGui::GetContentRegionAvail().x, 200.0f * scale);
    if (number == current)
      ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + line_h), Pack(kHighlight, 70));
    bool marked = false;
    if (errors)
      for (const auto& m : *errors) marked |= m.line == int(number);
    if (marked)
      ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + line_h), Pack(kConflict, 60));
    ImGui::Text("%3u  %s", number, line.c_str());
    const bool hovered = ImGui::IsItemHovered();
    const sim::Counters* c = nullptr;
    if (frame.trace) {
      auto it = frame.trace->per_line.find(number);
      if (it != frame.trace->per_line.end() && it->second.mem_inst) c = &it->second;
    }
    if (c) {
      char buf[96];
      const uint64_t sec = c->GlobalSectors();
      const uint64_t ideal = c->GlobalIdealSectors();
      const uint64_t wf = c->SharedWavefronts();
      if (sec) std::snprintf(buf, sizeof buf, "%llu/%llu s", (unsigned long long)sec, (unsigned long long)ideal);
      else std::snprintf(buf, sizeof buf, "%llu wf", (unsigned long long)wf);
      ImGui::SameLine(std::max(w - counter_w, ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + 10 * scale));
      const bool wasteful = sec > ideal || wf > c->SharedIdealWavefronts();
      ImGui::TextColored(wasteful ? ImVec4(kConflict.r / 255.f, kConflict.g / 255.f, kConflict.b / 255.f, 1)
                                  : ImVec4(0.6f, 0.6f, 0.6f, 1),
                         "%s", buf);
    }
    if ((hovered || ImGui::IsItemHovered()) && c) {
      ImGui::BeginTooltip();
      ImGui::Text("line %u over the whole launch:", number);
      for (const auto& m : sim::Metrics(*c))
        if (m.value != 0) ImGui::Text("  %-58s %12.6g", m.name.c_str(), m.value);
      ImGui::TextDisabled("sectors / ideal: 32-byte sectors moved vs the bytes asked for; wf: shared wavefronts");
      ImGui::EndTooltip();
    }
    if (errors)
      for (const auto& m : *errors)
        if (m.line == int(number)) ImGui::TextColored(red, "     ^ %s", m.text.c_str());
    if (marked && scrolled_to_ != ~0u - number) {  // a new error: scroll it into view once
      ImGui::SetScrollHereY(0.35f);
      scrolled_to_ = ~0u - number;
    }
    if (number == current && !errors && (scrolled_to_ != current || scrolled_version_ != frame.version)) {
      if (scrolled_to_ != current) ImGui::SetScrollHereY(0.35f);
      scrolled_to_ = current;
      scrolled_version_ = frame.version;
    }
    ImGui::PopID();
  }
  if (errors)
    for (const auto& m : *errors)
      if (m.line <= 0 || m.line > int(number)) ImGui::TextColored(red, "%s", m.text.c_str());
  if (text.empty()) ImGui::TextDisabled("(source not embedded in this build)");
  if (mono_font) ImGui::PopFont();
  ImGui::EndChild();
  ImGui::PopID();
}

}  // namespace ws::visual
