// Fault banner (see fault_banner.h).
#include "visual/fault_banner.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "sim/finding_text.h"
#include "visual/help_marker.h"
#include "visual/palette.h"
#include "visual/text_fit.h"

namespace ws::visual {
std::string FaultText(const std::string& pane, const sim::Trace& t, const sim::Finding& f) {
  return pane + ": " + sim::FindingText(t, f);
}

bool FaultBannerView::Draw(const std::string& pane, const sim::Trace& trace, const sim::Finding& f, float scale,
                           bool one_line) {
  const std::string text = FaultText(pane, trace, f);
  const bool place = sim::HasPlace(f);
  const bool error = sim::IsError(f.kind);
  const ImGuiStyle& style = ImGui::GetStyle();
  // A pixel or two wider than its label: a small button as wide as its text cuts the last glyph's
  // overhang at some scales.
  const float button_w = place ? std::ceil(ImGui::CalcTextSize("go there").x) + style.FramePadding.x * 2 + 2 : 0;
  const float width = ImGui::GetContentRegionAvail().x;
  const float pad = 6 * scale;
  float wrap = std::max(width - (place ? button_w + style.ItemSpacing.x : 0) - 2 * pad, 50 * scale);
  // One line: the whole text, else its place ("A: warning [kind] line 16, block ..."), else the
  // kind and line alone. Where even those do not fit beside "go there", the strip is the button
  // (a click on it goes there) and takes the kind and line on its whole width, else the kind alone
  // (the line is where the button goes), else the kind and line wrapped at spaces onto a second
  // line: the kind is not cut ("A: warning [warp-synchron…" said nothing: pairs v2 at 1280x720
  // and 1920x1080, scale 2).
  std::string shown = text;
  bool strip_goes = false;  // the strip itself is the button
  if (one_line) {
    const std::string place_part = text.substr(0, text.find(": ", pane.size() + 2));
    const std::string kind_line = place_part.substr(0, place_part.find(", "));
    const std::string kind_only = kind_line.substr(0, kind_line.find("] ") == std::string::npos ? std::string::npos : kind_line.find("] ") + 1);
    const float whole_w = std::max(width - 2 * pad, 50 * scale);
    auto fits = [](const std::string& t, float w) { return ImGui::CalcTextSize(t.c_str()).x <= FitWidth(w); };
    if (fits(kind_line, wrap)) {
      shown = FitText({text, place_part, kind_line}, wrap);
    } else if (place && (fits(kind_line, whole_w) || fits(kind_only, whole_w))) {
      shown = fits(kind_line, whole_w) ? kind_line : kind_only, strip_goes = true, wrap = whole_w;
    } else {
      strip_goes = place, wrap = whole_w;
      shown = KeepLines(WrapAtSpaces(ImGui::GetFont(), ImGui::GetFontSize(), kind_line, FitWidth(wrap)), 2, wrap);
    }
  }
  const float text_h = ImGui::CalcTextSize(shown.c_str(), nullptr, false, wrap).y;
  const float height = (strip_goes ? text_h : std::max(text_h, ImGui::GetFrameHeight())) + 2 * pad;
  ImGui::PushID(pane.c_str());
  ImGui::PushID(error ? "error" : "warning");
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(Pack(error ? kError : kWarning)));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad));
  ImGui::BeginChild("finding##banner", ImVec2(0, height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_AlwaysUseWindowPadding);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::TextUnformatted(shown.c_str());
  ImGui::PopTextWrapPos();
  bool go = false;
  if (strip_goes) {
    const bool over = ImGui::IsWindowHovered();
    if (over) WrappedTooltip(text + "\n\nClick the strip to go there.");
    go = over && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
  } else if (shown != text && ImGui::IsItemHovered()) {
    WrappedTooltip(text);
  }
  if (place && !strip_goes) {
    ImGui::SameLine(std::floor(ImGui::GetWindowContentRegionMax().x - button_w) - 1.0f);  // whole pixels inside the clip
    go = ImGui::Button("go there", ImVec2(button_w, 0));
  }
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  ImGui::PopID();
  ImGui::PopID();
  return go;
}

}  // namespace ws::visual
