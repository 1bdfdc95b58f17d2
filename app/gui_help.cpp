// The help window (F1): the keys, from the key table, beside the glossary of the words the views
// use (see gui_app.h).
#include "app/gui_app.h"

#include <imgui.h>

#include <algorithm>

#include "visual/glossary.h"

namespace ws::app {

void Gui::DrawHelp() {
  if (!help_) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(io.DisplaySize.x * 0.92f, 1400 * scale_), io.DisplaySize.y * 0.85f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.96f);
  if (ImGui::Begin("Keys and words (F1 closes)##help", &help_, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize)) {
    if (ImGui::BeginTable("help##layout", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthStretch, 0.42f);
      ImGui::TableSetupColumn("words", ImGuiTableColumnFlags_WidthStretch, 0.58f);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (big_) ImGui::PushFont(big_);
      ImGui::TextUnformatted("Keys");
      if (big_) ImGui::PopFont();
      if (ImGui::BeginTable("keys##help", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
        for (const KeyRow& r : KeyRows()) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(r.keys.c_str());
          ImGui::TableNextColumn();
          ImGui::TextWrapped("%s", r.help.c_str());
        }
        ImGui::EndTable();
      }
      ImGui::Spacing();
      ImGui::TextWrapped("Click a block in the grid map and a warp in the block map to choose the warp. "
                         "Hover a cell, a lane, a bank, a source line, a counter or the legend for what it means.");
      ImGui::TableNextColumn();
      if (big_) ImGui::PushFont(big_);
      ImGui::TextUnformatted("Words");
      if (big_) ImGui::PopFont();
      visual::DrawGlossary(ImGui::GetContentRegionAvail().x);
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace ws::app
