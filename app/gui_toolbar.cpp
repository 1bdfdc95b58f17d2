// The toolbar: the family and variant pickers, "open file…", n, "more…" (timing size, presenter
// mode, full screen), help, export, and the message line under it (see gui_app.h).
#include "app/gui_app.h"

#include <imgui.h>

#include <algorithm>

#include "visual/text_fit.h"

namespace ws::app {
namespace {

// Puts the next item of `w` pixels on this row if it fits, otherwise on a new one, so that the
// toolbar wraps instead of clipping at large scales.
void FlowNext(float w) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SameLine();
  if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
}

// Width of a framed widget with a label to its right.
float LabelledWidth(float field_w, const char* label) {
  return field_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

}  // namespace

void Gui::DrawOpenFile() {
  const ImGuiStyle& style = ImGui::GetStyle();
  FlowNext(ImGui::CalcTextSize("open file\xe2\x80\xa6").x + style.FramePadding.x * 2);
  if (ImGui::Button("open file\xe2\x80\xa6##pick")) ImGui::OpenPopup("open##file");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Your own kernel file (warpscope new my_kernel.cu writes one): compiled now and again on every save.");
  if (ImGui::BeginPopup("open##file")) {
    ImGui::TextUnformatted("A kernel file in the dialect, with WS_KERNEL descriptions:");
    ImGui::SetNextItemWidth(420 * scale_);
    const bool enter = ImGui::InputText("##path", open_path_, sizeof open_path_, ImGuiInputTextFlags_EnterReturnsTrue);
    int pane = enter ? 0 : -1;
    if (ImGui::Button("open as A")) pane = 0;
    ImGui::SameLine();
    if (ImGui::Button("open as B (compare)")) pane = 1;
    if (pane >= 0 && open_path_[0]) {
      const std::string key = kernels::KernelFileKey(open_path_);
      opening_[key] = pane;
      files_.Load(key);
      message_ = "compiling " + std::string(open_path_) + "\xe2\x80\xa6";
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

void Gui::DrawPicker() {
  const auto& catalog = kernels::Catalog();
  const kernels::FamilyEntry* fam = pane_[0].variant.family;
  const std::string& family = fam->info.name;
  const std::string family_label = fam->from_file ? fam->info.title : family;
  ImGui::AlignTextToFramePadding();
  if (big_) ImGui::PushFont(big_);
  ImGui::TextUnformatted("warpscope");
  if (big_) ImGui::PopFont();
  // A variant's combo as wide as its family's longest name and the arrow ("shared_padded" was cut).
  // B's as wide as that and its own name, which may be of a kernel file (it was cut to A's width).
  auto fit = [&](float w, const std::string& name) {
    return std::max(w, ImGui::CalcTextSize(name.c_str()).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetFrameHeight());
  };
  float variant_w = 130 * scale_;
  for (const auto& v : fam->info.variants) variant_w = fit(variant_w, v.name);
  const float variant_b_w = Compare() ? fit(variant_w, pane_[1].variant.variant->name) : variant_w;
  // The family's combo as wide as its label too, a kernel file's title among them (it was cut at
  // 140 px), within the toolbar's row; a title longer than the row ends in "…" (the tooltip has it).
  const float row_w = ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
  // (One pixel more than the text: visual::FitWidth keeps a label a pixel inside its clip edge.)
  const float family_w = std::min(std::max(140 * scale_, fit(0, family_label) + 1.0f), row_w - LabelledWidth(0, "family"));
  const std::string family_shown =
      visual::Ellipsize(family_label, family_w - ImGui::GetStyle().FramePadding.x * 2 - ImGui::GetFrameHeight());
  const float n_w = 100 * scale_;
  FlowNext(LabelledWidth(family_w, "family"));
  ImGui::SetNextItemWidth(family_w);
  if (ImGui::BeginCombo("family##pick", family_shown.c_str())) {
    for (size_t i = 0; i < catalog.size(); ++i) {
      ImGui::PushID(int(i));
      const auto& f = catalog[i].info;
      if (ImGui::Selectable(f.name.c_str(), f.name == family) && f.name != family && !f.variants.empty()) {
        const kernels::VariantRef first{&catalog[i], &f.variants[0]};
        ShowVariant(0, first, true);
        pane_[1].variant = NextInFamily(first);
        pane_[1].step = 0;
        if (Compare()) Request(pane_[1]);
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.title.c_str());
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n\n%s", fam->info.title.c_str(), fam->info.story.c_str());
  DrawOpenFile();
  auto variant_combo = [&](int index, const char* label) {
    const Pane& p = pane_[index];
    ImGui::SetNextItemWidth(index == 0 ? variant_w : variant_b_w);
    if (ImGui::BeginCombo(label, p.variant.variant->name.c_str())) {
      for (size_t i = 0; i < fam->info.variants.size(); ++i) {
        ImGui::PushID(int(i));
        const auto& v = fam->info.variants[i];
        const bool current = &v == p.variant.variant;
        if (ImGui::Selectable(v.name.c_str(), current) && !current) ShowVariant(index, {fam, &v}, false);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", v.title.c_str(), v.description.c_str());
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
  };
  FlowNext(LabelledWidth(variant_w, "A"));
  variant_combo(0, "A##pick");
  FlowNext(LabelledWidth(ImGui::GetFrameHeight(), "compare") + (Compare() ? ImGui::GetStyle().ItemSpacing.x + LabelledWidth(variant_b_w, "B") : 0));
  if (ImGui::Checkbox("compare##pick", &compare_on_)) {
    if (compare_on_) {
      pane_[1].step = pane_[0].step;
      Request(pane_[1]);
    } else {
      focus_ = 0;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show variant B beside A; L chooses how B follows A's steps.");
  if (Compare()) {
    ImGui::SameLine();
    variant_combo(1, "B##pick");
  }
  FlowNext(LabelledWidth(n_w, "n"));
  ImGui::SetNextItemWidth(n_w);
  ImGui::InputInt("n##pick", &n_edit_, 0, 0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Problem size for the pictures: %s (teaching size %d, simulator limit %d). Enter applies.",
                      fam->info.size_meaning.c_str(), fam->info.teaching_n, fam->info.max_sim_n);
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    n_ = n_edit_;
    Request(pane_[0]);
    if (Compare()) Request(pane_[1]);
  }
  // Rarely used settings live in a menu.
  if (timing_n_ == 0) timing_n_ = fam->info.timing_n;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float more_w = ImGui::CalcTextSize("more\xe2\x80\xa6").x + style.FramePadding.x * 2;
  const float help_w = ImGui::CalcTextSize("help (F1)").x + style.FramePadding.x * 2;
  FlowNext(more_w + style.ItemSpacing.x + help_w);
  if (ImGui::Button("more\xe2\x80\xa6##pick")) ImGui::OpenPopup("more##pick");
  if (ImGui::BeginPopup("more##pick")) {
    ImGui::SetNextItemWidth(n_w);
    ImGui::InputInt("timing n##pick", &timing_n_, 0, 0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Size for GPU timings (family default %d).", fam->info.timing_n);
    timing_n_ = std::clamp(timing_n_, 1, 1 << 20);
    if (Tight()) {  // a short window's bottom bar is one row, without the speed
      ImGui::SetNextItemWidth(n_w);
      ImGui::SliderFloat("steps/s##pick", &pb_.speed, 0.5f, 60.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Playback speed");
    }
    ImGui::Text("UI scale %.2g (Ctrl+= / Ctrl+-)", base_scale_);
    if (ImGui::MenuItem("presenter mode", "P", present_)) Do(Action::Present);
    if (ImGui::MenuItem("full screen", "F11", fullscreen_)) Do(Action::FullScreen);
    ImGui::EndPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("help (F1)##pick")) Do(Action::Help);
  FlowNext(ImGui::CalcTextSize("exporting...").x + style.FramePadding.x * 2);
  export_.DrawButton(*this, scale_);
  if (!message_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(visual::Pack(visual::kWarningText)));
    ImGui::TextWrapped("%s", message_.c_str());
    ImGui::PopStyleColor();
    FlowNext(ImGui::CalcTextSize("dismiss").x + style.FramePadding.x * 2);
    if (ImGui::SmallButton("dismiss##msg")) message_.clear();
  } else if (!lesson_ && ImGui::GetIO().DisplaySize.y > 32 * ImGui::GetTextLineHeightWithSpacing()) {
    // The family's story where there is room for it; otherwise it is the family box's tooltip. A
    // lesson's slide has its caption instead.
    ImGui::PushStyleColor(ImGuiCol_Text, style.Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", fam->info.story.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace ws::app
