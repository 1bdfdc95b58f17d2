// Counters and timings (see counters.h).
#include "visual/counters.h"

#include <imgui.h>

#include "visual/help_marker.h"

#include <algorithm>
#include <cmath>

#include "sim/metrics.h"
#include "visual/palette.h"

namespace ws::visual {

bool CountersView::Draw(const std::string& name_a, const sim::Trace* a, const std::string& name_b,
                        const sim::Trace* b, const Timings& timings, bool can_run_gpu, float scale) {
  bool run = false;
  ImGui::TextUnformatted("GPU timings");
  HelpMarker(
        "The same kernels run on the GPU at the timing size: median of several runs (CUDA events).\n"
        "GB/s: the bytes the family must move / time. % of peak: of the ceiling named below.\n"
        "Speed-up: over the family's first variant.");
  if (can_run_gpu) {
    ImGui::SameLine();
    ImGui::BeginDisabled(timings.running);
    if (ImGui::SmallButton("run on GPU##timings")) run = true;
    ImGui::EndDisabled();
  }
  if (timings.running) {
    const char spin[] = "|/-\\";
    ImGui::Text("%c running... %s", spin[int(ImGui::GetTime() * 8) % 4], timings.status.c_str());
    ImGui::ProgressBar(float(timings.progress), ImVec2(-1, 0));
  } else {
    ImGui::TextWrapped("%s", timings.status.c_str());
  }
  // A vs B in one line, as a lecturer says it.
  const TimingRow *ra = nullptr, *rb = nullptr;
  for (const auto& r : timings.rows) {
    if (r.variant == name_a && r.error.empty()) ra = &r;
    if (r.variant == name_b && r.error.empty()) rb = &r;
  }
  if (ra && rb && rb->ms > 0) {
    auto short_name = [](const std::string& id) { return id.substr(id.find('/') + 1); };
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.94f, 0.89f, 0.26f, 1));
    ImGui::TextWrapped("%s vs %s: %.3g ms vs %.3g ms, %.1fx", short_name(name_a).c_str(),
                       short_name(name_b).c_str(), ra->ms, rb->ms, ra->ms / rb->ms);
    ImGui::PopStyleColor();
  }
  double max_ms = 0;
  for (const auto& r : timings.rows) max_ms = std::max(max_ms, r.ms);
  for (size_t i = 0; i < timings.rows.size(); ++i) {
    const TimingRow& r = timings.rows[i];
    ImGui::PushID(int(i));
    const bool is_shown = r.variant == name_a || r.variant == name_b;
    if (!r.error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%s: %s", r.variant.c_str(), r.error.c_str());
      ImGui::PopID();
      continue;
    }
    const float frac = max_ms > 0 ? float(r.ms / max_ms) : 0;
    char overlay[160];
    std::snprintf(overlay, sizeof overlay, "%s  %.3g ms  %.0f GB/s  %.0f%%  %.2fx", r.variant.c_str(), r.ms, r.gbps,
                  r.pct_of_peak, r.speedup);
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, is_shown ? ImVec4(0.0f, 0.45f, 0.70f, 1) : ImVec4(0.35f, 0.35f, 0.4f, 1));
    ImGui::ProgressBar(frac, ImVec2(-1, ImGui::GetTextLineHeight() + 4 * scale), overlay);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s at n=%d: median %.4g ms (min %.4g, max %.4g)\n%.1f GB/s = %.1f%% of %s\n%.2fx the first variant",
                        r.variant.c_str(), r.n, r.ms, r.ms_min, r.ms_max, r.gbps, r.pct_of_peak,
                        timings.peak_meaning.empty() ? "peak" : timings.peak_meaning.c_str(), r.speedup);
    ImGui::PopID();
  }
  ImGui::Separator();
  ImGui::TextUnformatted("Simulator counters (whole launch)");
  ImGui::SameLine();
  ImGui::Checkbox("hide zeros##counters", &hide_zero_);
  const auto ma = a ? sim::Metrics(a->total) : std::vector<sim::Metric>{};
  const auto mb = b ? sim::Metrics(b->total) : std::vector<sim::Metric>{};
  const int cols = b ? 3 : 2;
  if (ImGui::BeginTable("counters##table", cols, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                                     ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("metric", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn(name_a.c_str(), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    if (b) ImGui::TableSetupColumn(name_b.c_str(), ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < ma.size(); ++i) {
      const double vb = i < mb.size() ? mb[i].value : 0;
      if (hide_zero_ && ma[i].value == 0 && vb == 0) continue;
      ImGui::PushID(int(i));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      // A short label in the table; the Nsight Compute name and its meaning in the tooltip.
      ImGui::TextUnformatted(ma[i].label.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", ma[i].name.c_str(), ma[i].meaning.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.6g", ma[i].value);
      if (b) {
        ImGui::TableNextColumn();
        if (vb != ma[i].value && ma[i].value != 0) ImGui::Text("%.6g (%.2gx)", vb, vb / ma[i].value);
        else ImGui::Text("%.6g", vb);
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }

  return run;
}

}  // namespace ws::visual
