// Counters and timings (see counters.h).
#include "visual/counters.h"

#include <imgui.h>

#include "visual/help_marker.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/metrics.h"
#include "visual/palette.h"
#include "visual/text_fit.h"

namespace ws::visual {

namespace {
// A kernel file's id, "path/file.cu:kernel": the file's name and the kernel; empty for a catalog id.
bool FromFile(const std::string& id, std::string* file, std::string* kernel) {
  const size_t colon = id.rfind(':');
  if (colon == std::string::npos) return false;
  const size_t slash = id.rfind('/', colon);
  *file = id.substr(slash == std::string::npos ? 0 : slash + 1, colon - (slash == std::string::npos ? 0 : slash + 1));
  *kernel = id.substr(colon + 1);
  return true;
}

}  // namespace

std::string Times(double x) {
  char b[32];
  std::snprintf(b, sizeof b, x < 10 ? "%.1f\xc3\x97" : "%.3g\xc3\x97", x);  // "5.2×", "31.7×", "150×"
  return b;
}

std::string Ms(double ms) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g ms", ms);
  return b;
}

std::string ShortName(const std::string& id) {
  std::string file, kernel;
  return FromFile(id, &file, &kernel) ? kernel : id.substr(id.find('/') + 1);
}

std::pair<std::string, std::string> ColumnNames(const std::string& a, const std::string& b) {
  if (b.empty() || ShortName(a) != ShortName(b)) return {ShortName(a), b.empty() ? b : ShortName(b)};
  auto middle = [](const std::string& id) {
    std::string file, kernel;
    return FromFile(id, &file, &kernel) ? file + ":" + kernel : id;
  };
  if (middle(a) != middle(b)) return {middle(a), middle(b)};
  return {a, b};
}

std::string SpeedComparison(const std::string& name_a, double ms_a, const std::string& name_b, double ms_b) {
  const auto [a, b] = ColumnNames(name_a, name_b);
  if (ms_a <= 0 || ms_b <= 0) return {};
  const double ratio = ms_a / ms_b;
  if (ratio < 1.02 && ratio > 1 / 1.02) return a + " and " + b + " take the same time (" + Ms(ms_a) + ")";
  // The times themselves are on the bars below.
  if (ratio >= 1) return b + " is " + Times(ratio) + " faster than " + a;
  return a + " is " + Times(1 / ratio) + " faster than " + b;
}

std::string TimingBarText(const TimingRow& r) {
  char b[160];
  std::snprintf(b, sizeof b, r.rate >= 100 ? "%s  %.3g ms  %.0f %s  " : "%s  %.3g ms  %.3g %s  ",
                ShortName(r.variant).c_str(), r.ms, r.rate, r.rate_unit.c_str());
  std::string s = b;
  std::snprintf(b, sizeof b, r.pct_of_peak < 10 ? "%.1f%%" : "%.0f%%", r.pct_of_peak);
  s += b;
  if (r.speedup > 0) s += "  " + Times(r.speedup);
  return s;
}

std::string TimingsLegend(const std::vector<TimingRow>& rows) {
  for (const auto& r : rows) {
    if (!r.error.empty()) continue;
    std::string first;
    for (const auto& x : rows)
      if (x.speedup > 0.999 && x.speedup < 1.001) { first = ShortName(x.variant); break; }
    return "time \xc2\xb7 " + r.rate_unit + " \xc2\xb7 % of " + (r.peak_name.empty() ? "peak" : r.peak_name) +
           (first.empty() ? "" : " \xc2\xb7 speed-up over " + first);
  }
  return {};
}

std::string UsageLine(const sim::ResourceUsage& u) {
  if (!u.Known()) return "ptxas gave no resource usage";
  auto bytes = [](int64_t b) { return b < 0 ? std::string("?") : std::to_string(b) + " B"; };
  std::string s = std::to_string(u.registers) + " registers per thread, stack " + bytes(u.stack_bytes);
  if (u.spill_store_bytes >= 0 || u.spill_load_bytes >= 0)
    s += ", spills " + bytes(u.spill_store_bytes) + " stored / " + bytes(u.spill_load_bytes) + " loaded";
  return s + ", static shared " + bytes(u.shared_bytes < 0 ? 0 : u.shared_bytes);
}

bool CountersView::Draw(const std::string& name_a, const sim::Trace* a, const std::string& name_b,
                        const sim::Trace* b, const Timings& timings, bool can_run_gpu, float scale,
                        const CompiledCounters* ca, const CompiledCounters* cb) {
  bool run = false;
  ImGui::TextUnformatted("GPU timings");
  HelpMarker(
        "The same kernels run on the GPU at the timing size: median of several runs (CUDA events).\n"
        "Memory-bound families: GB/s = the bytes the family must move / time, as a % of the\n"
        "device-to-device copy bandwidth. Compute-bound families (shortcut, pairs): Gop/s = the\n"
        "arithmetic operations the family must do / time, as a % of the FP32 lane peak.\n"
        "The last figure is the speed-up over the family's first variant.");
  if (can_run_gpu) {
    if (FitsBeside(ImGui::CalcTextSize("run on GPU").x + 2 * ImGui::GetStyle().FramePadding.x)) ImGui::SameLine();
    ImGui::BeginDisabled(timings.running);
    if (ImGui::SmallButton("run on GPU##timings")) run = true;
    ImGui::EndDisabled();
  }
  if (timings.running) {
    const char spin[] = "|/-\\";
    ImGui::TextWrapped("%c running... %s", spin[int(ImGui::GetTime() * 8) % 4], timings.status.c_str());
    ImGui::ProgressBar(float(timings.progress), ImVec2(-1, 0));
  } else {
    // One short line (wrapped, never cut); the long reason (a driver's error) waits in the tooltip.
    ImGui::TextWrapped("%s", timings.status.c_str());
    if (!timings.status_detail.empty() && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", timings.status_detail.c_str());
  }
  // A vs B in one line, as a lecturer says it.
  const TimingRow *ra = nullptr, *rb = nullptr;
  for (const auto& r : timings.rows) {
    if (r.variant == name_a && r.error.empty()) ra = &r;
    if (r.variant == name_b && r.error.empty()) rb = &r;
  }
  if (ra && rb && ra != rb) {
    ImGui::TextWrapped("%s", SpeedComparison(name_a, ra->ms, name_b, rb->ms).c_str());
  }
  const std::string legend = TimingsLegend(timings.rows);
  if (!legend.empty()) ImGui::TextWrapped("%s", legend.c_str());
  double max_ms = 0;
  for (const auto& r : timings.rows) max_ms = std::max(max_ms, r.ms);
  for (size_t i = 0; i < timings.rows.size(); ++i) {
    const TimingRow& r = timings.rows[i];
    ImGui::PushID(int(i));
    const bool is_shown = r.variant == name_a || r.variant == name_b;
    if (!r.error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(Pack(kErrorText)));
      ImGui::TextWrapped("%s: %s", r.variant.c_str(), r.error.c_str());
      ImGui::PopStyleColor();
      ImGui::PopID();
      continue;
    }
    // The text wraps rather than being cut; the bar under it is the time.
    ImGui::BeginGroup();
    if (!is_shown) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    // Too wide for one line: the figures go under the name and time, broken at a gap (ImGui's
    // own wrapping would break "0.9×" after its point).
    std::string text = TimingBarText(r);
    if (ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) {
      const size_t gap = text.find("  ", text.find(" ms"));
      if (gap != std::string::npos) text.replace(gap, 2, "\n");
    }
    ImGui::TextWrapped("%s", text.c_str());
    if (!is_shown) ImGui::PopStyleColor();
    const float frac = max_ms > 0 ? float(r.ms / max_ms) : 0;
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImGui::ColorConvertU32ToFloat4(Pack(is_shown ? kBarShown : kBarOther)));
    ImGui::ProgressBar(frac, ImVec2(-1, 6 * scale), "");
    ImGui::PopStyleColor();
    ImGui::EndGroup();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s at n=%d: median %.4g ms (min %.4g, max %.4g)\n%.4g %s = %.2g%% of %s (%s)\n%.2fx the first variant",
                        r.variant.c_str(), r.n, r.ms, r.ms_min, r.ms_max, r.rate, r.rate_unit.c_str(), r.pct_of_peak,
                        r.peak_name.c_str(), r.peak_meaning.empty() ? "peak" : r.peak_meaning.c_str(), r.speedup);
    ImGui::PopID();
  }
  ImGui::Separator();
  ImGui::TextWrapped("Simulator counters (whole launch)");
  // The checkbox beside the heading where the row has room for it, else under it.
  const float check_w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("hide zeros").x;
  if (FitsBeside(check_w)) ImGui::SameLine();
  ImGui::Checkbox("hide zeros##counters", &hide_zero_);
  // "as compiled": a column beside each side's simulated one, with the counts of the compiled code.
  const bool can_compile = (ca && ca->as_compiled) || (cb && cb->as_compiled);
  if (can_compile) {
    const float compiled_w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("as compiled").x;
    if (FitsBeside(compiled_w)) ImGui::SameLine();
    ImGui::Checkbox("as compiled##counters", &as_compiled_);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A column beside each side's: the counters as the code nvcc emitted runs them, where it\n"
                        "merged, removed, predicated or hoisted accesses (the notes under the source lines;\n"
                        "docs/FIDELITY.md).");
  }
  const auto [head_a, head_b] = ColumnNames(name_a, b ? name_b : std::string());
  // The columns: A, A as compiled, B, B as compiled (those there are).
  struct Column {
    std::string head;
    std::vector<sim::Metric> m;
    bool ratio = false;  // B's: the value's ratio to A's beside it
  };
  std::vector<Column> columns;
  columns.push_back({head_a, a ? sim::Metrics(a->total, !a->caches.device.empty()) : std::vector<sim::Metric>{}});
  if (a && as_compiled_ && ca && ca->as_compiled)
    columns.push_back({head_a + " compiled", sim::Metrics(*ca->as_compiled, !a->caches.device.empty())});
  if (b) columns.push_back({head_b, sim::Metrics(b->total, !b->caches.device.empty()), true});
  if (b && as_compiled_ && cb && cb->as_compiled)
    columns.push_back({head_b + " compiled", sim::Metrics(*cb->as_compiled, !b->caches.device.empty()), true});
  const std::vector<sim::Metric>& ma = columns.front().m;
  // The values as they are written, to size the columns by them. B's columns say their ratio to A's.
  struct Row {
    size_t i;
    std::vector<std::string> v;
  };
  std::vector<Row> rows;
  char buf[64];
  for (size_t i = 0; i < ma.size(); ++i) {
    bool all_zero = true;
    for (const auto& c : columns) all_zero &= i >= c.m.size() || c.m[i].value == 0;
    if (hide_zero_ && all_zero) continue;
    Row r{i, {}};
    // Nsight Compute names a percentage ".pct"; the other counters' unit is in their label.
    const char* unit = ma[i].name.ends_with(".pct") ? " %" : "";
    for (size_t c = 0; c < columns.size(); ++c) {
      const double v = i < columns[c].m.size() ? columns[c].m[i].value : 0;
      if (columns[c].ratio && v != ma[i].value && ma[i].value != 0) std::snprintf(buf, sizeof buf, "%.6g%s (%.2gx)", v, unit, v / ma[i].value);
      else std::snprintf(buf, sizeof buf, "%.6g%s", v, unit);
      r.v.push_back(buf);
    }
    rows.push_back(r);
  }
  std::vector<float> widths;
  for (const auto& c : columns) widths.push_back(ImGui::CalcTextSize(c.head.c_str()).x);
  float wl = 0;
  for (const auto& r : rows) {
    for (size_t c = 0; c < r.v.size(); ++c) widths[c] = std::max(widths[c], ImGui::CalcTextSize(r.v[c].c_str()).x);
    wl = std::max(wl, ImGui::CalcTextSize(ma[r.i].label.c_str()).x);
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  const float cell_pad = 2 * style.CellPadding.x + 2.0f;  // each column's padding and border
  const float avail = ImGui::GetContentRegionAvail().x;
  const int cols = int(columns.size()) + 1;
  // A table where the values fit their columns beside labels at least 40% of the width (labels
  // wrap); a narrow panel lists each counter with its values under it instead.
  float values_w = cell_pad * float(cols - 2);
  for (float w : widths) values_w += w;
  if (avail - values_w - cell_pad >= std::min(wl, 0.4f * avail)) {
    if (ImGui::BeginTable("counters##table", cols, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                                       ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("metric", ImGuiTableColumnFlags_WidthStretch);
      for (size_t c = 0; c < columns.size(); ++c)
        ImGui::TableSetupColumn(columns[c].head.c_str(), ImGuiTableColumnFlags_WidthFixed, widths[c]);
      ImGui::TableHeadersRow();
      for (const auto& r : rows) {
        ImGui::PushID(int(r.i));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        // A short label in the table; the Nsight Compute name and its meaning in the tooltip.
        ImGui::TextWrapped("%s", ma[r.i].label.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", ma[r.i].name.c_str(), ma[r.i].meaning.c_str());
        for (const auto& v : r.v) {
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(v.c_str());
        }
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
  } else {
    for (const auto& r : rows) {
      ImGui::PushID(int(r.i));
      ImGui::TextWrapped("%s", ma[r.i].label.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", ma[r.i].name.c_str(), ma[r.i].meaning.c_str());
      ImGui::Indent();
      ImGui::PushStyleColor(ImGuiCol_Text, style.Colors[ImGuiCol_TextDisabled]);
      std::string values;
      for (size_t c = 0; c < r.v.size(); ++c)
        values += (c ? " \xc2\xb7 " : "") + (columns.size() > 1 ? columns[c].head + " " : std::string()) + r.v[c];
      ImGui::TextWrapped("%s", values.c_str());
      ImGui::PopStyleColor();
      ImGui::Unindent();
      ImGui::PopID();
    }
  }
  // ptxas' figures for each side's kernel.
  if (ca || cb) {
    ImGui::Separator();
    ImGui::TextWrapped("Compiled by nvcc (ptxas)");
    HelpMarker("Registers per thread decide how many blocks an SM holds (and so the cache model's waves);\n"
               "stack: local arrays and spills; spills: registers ptxas stored to and loaded from local\n"
               "memory; static shared: the kernel's __shared__ arrays.");
    for (const auto& [head, c] : {std::pair{head_a, ca}, std::pair{head_b, cb}}) {
      if (!c) continue;
      const std::string text = head + ": " + (c->usage ? UsageLine(*c->usage) : c->status);
      ImGui::TextWrapped("%s", text.c_str());
    }
  }

  return run;
}

}  // namespace ws::visual
