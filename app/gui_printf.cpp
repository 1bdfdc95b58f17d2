// The side panel's "printf" tab: what a kernel file's code printed, per pane and per launch, as
// CUDA prints it after a launch (the runner keeps each launch's output apart, toolchain/runner.h).
// The tab is there only while a shown pane's run printed something.
#include <imgui.h>

#include "app/gui_app.h"

namespace ws::app {

bool Gui::AnyPrinted() const {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i)
    if (pane_[i].outcome && (!pane_[i].outcome->printed.empty() || pane_[i].outcome->printed_cut)) return true;
  return false;
}

void Gui::DrawPrintfTab() {
  ImGui::BeginChild("printf##side", ImVec2(0, 0), false);
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    const Pane& p = pane_[i];
    if (!p.outcome) continue;
    ImGui::PushID(i);
    ImGui::TextUnformatted((p.name + ": " + p.Id()).c_str());
    if (p.outcome->printed.empty() && !p.outcome->printed_cut) ImGui::TextDisabled("printed nothing");
    for (const auto& t : p.outcome->printed) {
      ImGui::TextDisabled("%s", t.launch > 0 ? ("launch " + std::to_string(t.launch) + ":").c_str()
                                             : "the description, between launches:");
      if (mono_) ImGui::PushFont(mono_);
      ImGui::PushTextWrapPos(0.0f);  // long lines wrap at the panel's edge
      ImGui::Indent();
      ImGui::TextUnformatted(t.text.data(), t.text.data() + t.text.size());
      ImGui::Unindent();
      ImGui::PopTextWrapPos();
      if (mono_) ImGui::PopFont();
    }
    if (p.outcome->printed_cut) ImGui::TextDisabled("(more was printed than is kept)");
    ImGui::Separator();
    ImGui::PopID();
  }
  ImGui::EndChild();
}

}  // namespace ws::app
