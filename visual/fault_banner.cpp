// Fault banner (see fault_banner.h).
#include "visual/fault_banner.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "visual/palette.h"

namespace ws::visual {
namespace {

std::string Dim(const sim::Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

}  // namespace

bool HasPlace(const sim::Finding& f) { return f.kind != sim::FindingKind::LaunchLimit; }

std::string FaultText(const std::string& pane, const sim::Trace& t, const sim::Finding& f) {
  std::string s = pane + ": ";
  if (!HasPlace(f)) {
    s += "launch refused";
  } else {
    s += std::string(sim::ToString(f.kind)) + " in block " + Dim(f.block) + " thread " + Dim(f.thread);
  }
  if (f.site >= 0 && size_t(f.site) < t.sites.size()) s += ", line " + std::to_string(t.sites[f.site].line);
  if (f.array >= 0 && size_t(f.array) < t.arrays.size()) s += ", array " + t.arrays[f.array].name;
  if (f.address) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(f.address));
    s += ", address " + std::string(hex);
  }
  return s + ": " + f.message;
}

bool FaultBannerView::Draw(const std::string& pane, const sim::Trace& trace, const sim::Finding& f, float scale) {
  const std::string text = FaultText(pane, trace, f);
  const bool place = HasPlace(f);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float button_w = place ? ImGui::CalcTextSize("go there").x + style.FramePadding.x * 2 + style.ItemSpacing.x : 0;
  const float width = ImGui::GetContentRegionAvail().x;
  const float pad = 6 * scale;
  const float wrap = std::max(width - button_w - 2 * pad, 50 * scale);
  const float text_h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y;
  const float height = std::max(text_h, ImGui::GetFrameHeight()) + 2 * pad;
  ImGui::PushID(pane.c_str());
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(Pack(kError)));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
  ImGui::BeginChild("fault##banner", ImVec2(0, height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_AlwaysUseWindowPadding);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  bool go = false;
  if (place) {
    ImGui::SameLine(width - button_w + style.ItemSpacing.x - pad);
    go = ImGui::SmallButton("go there");
  }
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  ImGui::PopID();
  return go;
}

}  // namespace ws::visual
