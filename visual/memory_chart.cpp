// Memory chart (see memory_chart.h): boxes for warps, L1, L2 and DRAM joined by arrows that carry
// the traffic between them, one column per pane; the rows of A and B line up.
#include "visual/memory_chart.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "sim/metrics.h"
#include "sim/rule_text.h"
#include "visual/counters.h"
#include "visual/palette.h"

namespace ws::visual {

namespace {

std::optional<double> Metric(const std::vector<sim::Metric>& m, const char* name) {
  for (const auto& x : m)
    if (x.name == name) return x.value;
  return std::nullopt;
}

std::string Count(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

// The cache levels under their Nsight Compute names, from `get` (the simulator's metrics or a
// recording's): one list of names for both sources.
template <class Get>
CacheFigures Levels(Get get) {
  CacheFigures c;
  c.l1_hit_pct = get("l1tex__t_sector_hit_rate.pct");
  c.l2_read_sectors = get("lts__t_sectors_srcunit_tex_op_read.sum");
  c.dram_read_bytes = get("dram__bytes_read.sum");
  c.dram_write_bytes = get("dram__bytes_write.sum");
  return c;
}

// One level's figure from each source that has it: "0.0% simulated, 43.4% measured".
std::string BothSources(const std::optional<double>& sim, const std::optional<double>& rec,
                        std::string (*say)(double)) {
  if (sim && rec) return say(*sim) + " simulated, " + say(*rec) + " measured";
  if (sim) return say(*sim) + " simulated";
  if (rec) return say(*rec) + " measured";
  return {};
}

std::string Pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", v);
  return b;
}

std::string SectorsAndBytes(double sectors) { return Count(sectors) + " sectors (" + Bytes(sectors * 32) + ")"; }

}  // namespace

MemoryFlow FlowFromCounters(const std::string& variant, const sim::Counters& c, bool caches) {
  const auto m = sim::Metrics(c, caches);
  auto get = [&](const char* name) { return Metric(m, name).value_or(0); };
  MemoryFlow f;
  f.variant = variant;
  f.ld_requests = get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  f.st_requests = get("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  f.atomic_requests = get("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum") +
                      get("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum");
  f.ld_sectors = get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  f.st_sectors = get("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
  f.atomic_sectors = get("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum") +
                     get("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum");
  f.simulated = Levels([&](const char* name) { return Metric(m, name); });
  return f;
}

void AddRecorded(MemoryFlow& f, const std::map<std::string, double>& ncu_metrics, const std::string& device, int n) {
  f.recorded = Levels([&](const char* name) -> std::optional<double> {
    auto it = ncu_metrics.find(name);
    return it == ncu_metrics.end() ? std::nullopt : std::optional<double>(it->second);
  });
  f.recorded_on = f.recorded.Any() ? device + " at n=" + std::to_string(n) : "";
}

std::string Bytes(double b) {
  char s[32];
  if (b < 1000) std::snprintf(s, sizeof s, "%.0f B", b);
  else if (b < 1e6) std::snprintf(s, sizeof s, "%.1f KB", b / 1e3);
  else if (b < 1e9) std::snprintf(s, sizeof s, "%.2f MB", b / 1e6);
  else std::snprintf(s, sizeof s, "%.2f GB", b / 1e9);
  return s;
}

MemoryChartText ChartText(const MemoryFlow& f) {
  MemoryChartText t;
  std::string warps = "Warps: " + Count(f.ld_requests) + " ld, " + Count(f.st_requests) + " st";
  if (f.atomic_requests > 0) warps += ", " + Count(f.atomic_requests) + " atomic";
  t.boxes.push_back(warps + " requests");
  std::string to_l1 = Count(f.ld_sectors) + " ld + " + Count(f.st_sectors) + " st";
  if (f.atomic_sectors > 0) to_l1 += " + " + Count(f.atomic_sectors) + " atomic";
  t.arrows.push_back(to_l1 + " sectors");
  const CacheFigures &sim = f.simulated, &rec = f.recorded;
  const std::string hits = BothSources(sim.l1_hit_pct, rec.l1_hit_pct, Pct);
  t.boxes.push_back(hits.empty() ? "L1: hits not known" : "L1 hits: " + hits);
  if (const auto& bar = sim.l1_hit_pct ? sim.l1_hit_pct : rec.l1_hit_pct)
    t.l1_hit = float(std::clamp(*bar / 100.0, 0.0, 1.0));
  const std::string l2 = BothSources(sim.l2_read_sectors, rec.l2_read_sectors, SectorsAndBytes);
  t.arrows.push_back(l2.empty() ? "reads not known" : "read: " + l2);
  t.boxes.push_back("L2");
  const std::string read = BothSources(sim.dram_read_bytes, rec.dram_read_bytes, Bytes);
  const std::string written = BothSources(sim.dram_write_bytes, rec.dram_write_bytes, Bytes);
  std::string dram = read.empty() ? "reads not known" : "read: " + read;
  if (!written.empty()) dram += "; written: " + written;
  t.arrows.push_back(dram);
  t.boxes.push_back("DRAM");
  return t;
}

void MemoryChartView::Draw(const MemoryFlow* a, const MemoryFlow* b, float scale,
                           std::vector<Placed>* placed) {
  // The title wraps on a narrow side panel; its explanation is in the tooltip.
  ImGui::TextWrapped("Memory chart, whole launch (?)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", (
      "Where the launch's global-memory traffic goes, as Nsight Compute's memory workload chart\n"
      "shows it: the warps' requests reach the SM's L1 as " + sim::BytesName(sim::kSectorBytes) +
      " sectors; the sectors L1 misses\n"
      "are read from the device's L2; what L2 misses comes from DRAM.\n"
      "Requests and sectors are the simulator's. The cache figures are the simulator's cache model's\n"
      "(\"simulated\") and, beside them, Nsight Compute's recording of the same variant at the same size\n"
      "(\"measured\", the device named under the charts) wherever one exists.").c_str());
  const MemoryFlow* flows[2] = {a, b};
  const int sides = b ? 2 : 1;
  MemoryChartText texts[2];
  for (int s = 0; s < sides; ++s)
    if (flows[s]) texts[s] = ChartText(*flows[s]);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float gap = style.ItemSpacing.x * 2;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float col_w = std::max(40.0f * scale, (avail - gap * (sides - 1)) / sides);
  const float pad = 4.0f * scale;
  const float arrow_w = 14.0f * scale;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 frame = Pack(kFrame);
  const ImU32 fill = Pack(kBoxFill);
  const ImU32 hit = Pack(kServedL1);
  const ImU32 arrow = Pack(kSector);
  const char* level_names[4] = {"warps", "L1", "L2", "DRAM"};
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float y = origin.y;
  // Above each column: which pane and variant it is.
  float head_h = 0;
  const auto names = ColumnNames(a ? a->variant : std::string(), b ? b->variant : std::string());
  for (int s = 0; s < sides; ++s) {
    if (!flows[s]) continue;
    const float x = origin.x + s * (col_w + gap);
    const std::string& name = s ? names.second : names.first;
    ImGui::SetCursorScreenPos(ImVec2(x, y));
    ImGui::PushTextWrapPos(x + col_w - ImGui::GetWindowPos().x);
    ImGui::Text("%s: %s", s ? "B" : "A", name.c_str());
    ImGui::PopTextWrapPos();
    head_h = std::max(head_h, ImGui::GetItemRectSize().y + style.ItemSpacing.y);
  }
  y += head_h;
  // 7 rows: box, arrow, box, arrow, box, arrow, box. Each row is as tall as its taller side.
  for (int row = 0; row < 7; ++row) {
    const bool is_box = row % 2 == 0;
    const int k = row / 2;
    float row_h = 0;
    for (int s = 0; s < sides; ++s) {
      if (!flows[s]) continue;
      const std::string& text = is_box ? texts[s].boxes[k] : texts[s].arrows[k];
      const float wrap = is_box ? col_w - 2 * pad : col_w - arrow_w - pad;
      float h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y;
      if (is_box) h += 2 * pad + (k == 1 && texts[s].l1_hit ? 6.0f * scale + pad : 0);
      row_h = std::max(row_h, h + (is_box ? 0 : pad));
    }
    for (int s = 0; s < sides; ++s) {
      if (!flows[s]) continue;
      const float x = origin.x + s * (col_w + gap);
      const std::string& text = is_box ? texts[s].boxes[k] : texts[s].arrows[k];
      if (is_box) {
        dl->AddRectFilled(ImVec2(x, y), ImVec2(x + col_w, y + row_h), fill, 3.0f * scale);
        dl->AddRect(ImVec2(x, y), ImVec2(x + col_w, y + row_h), frame, 3.0f * scale, 0, 1.0f * scale);
        ImGui::SetCursorScreenPos(ImVec2(x + pad, y + pad));
        ImGui::PushTextWrapPos(x + col_w - pad - ImGui::GetWindowPos().x);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        if (k == 1 && texts[s].l1_hit) {  // the hit rate as a bar: green hits, grey misses
          const float by = y + row_h - pad - 6.0f * scale;
          const float bw = col_w - 2 * pad;
          dl->AddRectFilled(ImVec2(x + pad, by), ImVec2(x + pad + bw, by + 6.0f * scale), Pack(kMasked));
          dl->AddRectFilled(ImVec2(x + pad, by), ImVec2(x + pad + bw * *texts[s].l1_hit, by + 6.0f * scale), hit);
        }
        if (placed) {
          Placed p;
          p.pane = s ? "B" : "A";
          p.kind = "chart";
          p.name = level_names[k];
          p.rect = {x, y, col_w, row_h};
          placed->push_back(p);
        }
      } else {
        // A downward arrow at the left; the traffic it carries beside it.
        const float ax = x + arrow_w * 0.5f;
        const float head = 5.0f * scale;
        dl->AddLine(ImVec2(ax, y + 1), ImVec2(ax, y + row_h - head), arrow, 2.0f * scale);
        dl->AddTriangleFilled(ImVec2(ax - head, y + row_h - head), ImVec2(ax + head, y + row_h - head),
                              ImVec2(ax, y + row_h - 1), arrow);
        ImGui::SetCursorScreenPos(ImVec2(x + arrow_w, y + pad * 0.5f));
        ImGui::PushTextWrapPos(x + col_w - ImGui::GetWindowPos().x);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
      }
    }
    y += row_h;
  }
  // Under the charts: what "measured" is (once when A and B agree).
  float foot_h = 0;
  const bool same = sides == 2 && flows[0] && flows[1] && flows[0]->recorded_on == flows[1]->recorded_on;
  for (int s = 0; s < sides; ++s) {
    if (!flows[s] || (same && s == 1)) continue;
    const float x = origin.x + s * (col_w + gap);
    const std::string& on = flows[s]->recorded_on;
    const std::string src = (same ? std::string("Measured: ") : std::string(s ? "B" : "A") + " measured: ") +
                            (on.empty() ? "no Nsight Compute recording at this size" : "Nsight Compute on " + on);
    ImGui::SetCursorScreenPos(ImVec2(x, y + pad));
    ImGui::PushTextWrapPos(same ? origin.x + avail - ImGui::GetWindowPos().x : x + col_w - ImGui::GetWindowPos().x);
    ImGui::TextDisabled("%s", src.c_str());
    ImGui::PopTextWrapPos();
    foot_h = std::max(foot_h, ImGui::GetItemRectSize().y + pad);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, y + foot_h));
  ImGui::Dummy(ImVec2(avail, style.ItemSpacing.y));
}

}  // namespace ws::visual
