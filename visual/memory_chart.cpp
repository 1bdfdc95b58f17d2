// Memory chart (see memory_chart.h): boxes for warps, L1, L2 and DRAM joined by arrows that carry
// the traffic between them, one column per pane; the rows of A and B line up.
#include "visual/memory_chart.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "sim/metrics.h"
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
  f.l1_hit_pct = Metric(m, "l1tex__t_sector_hit_rate.pct");
  f.l2_read_sectors = Metric(m, "lts__t_sectors_srcunit_tex_op_read.sum");
  f.dram_read_bytes = Metric(m, "dram__bytes_read.sum");
  f.dram_write_bytes = Metric(m, "dram__bytes_write.sum");
  if (f.l1_hit_pct || f.l2_read_sectors || f.dram_read_bytes) f.cache_source = "the simulator";
  return f;
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
  if (f.l1_hit_pct) {
    char b[64];
    std::snprintf(b, sizeof b, "L1: %.1f%% hits", *f.l1_hit_pct);
    t.boxes.push_back(b);
    t.l1_hit = float(std::clamp(*f.l1_hit_pct / 100.0, 0.0, 1.0));
  } else {
    t.boxes.push_back("L1: hits not known");
  }
  t.arrows.push_back(f.l2_read_sectors ? Count(*f.l2_read_sectors) + " sectors read (" +
                                             Bytes(*f.l2_read_sectors * 32) + ")"
                                       : "reads not known");
  t.boxes.push_back("L2");
  std::string dram = f.dram_read_bytes ? Bytes(*f.dram_read_bytes) + " read" : "reads not known";
  if (f.dram_write_bytes) dram += ", " + Bytes(*f.dram_write_bytes) + " written";
  t.arrows.push_back(dram);
  t.boxes.push_back("DRAM");
  return t;
}

void MemoryChartView::Draw(const MemoryFlow* a, const MemoryFlow* b, float scale,
                           std::vector<Placed>* placed) {
  // The title wraps on a narrow side panel; its explanation is in the tooltip.
  ImGui::TextWrapped("Memory chart, whole launch (?)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s",
      "Where the launch's global-memory traffic goes, as Nsight Compute's memory workload chart\n"
      "shows it: the warps' requests reach the SM's L1 as 32-byte sectors; the sectors L1 misses\n"
      "are read from the device's L2; what L2 misses comes from DRAM.\n"
      "Requests and sectors are the simulator's. The cache figures are the simulator's where it\n"
      "counts them, else Nsight Compute's recording at the same size (named under each chart).");
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
  const ImU32 frame = Pack(Rgb{150, 150, 160});
  const ImU32 fill = Pack(Rgb{40, 44, 56});
  const ImU32 hit = Pack(Rgb{0, 158, 115});  // Okabe-Ito bluish green: L1 hits
  const ImU32 arrow = Pack(kSector);
  const char* level_names[4] = {"warps", "L1", "L2", "DRAM"};
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float y = origin.y;
  // Above each column: which pane and variant it is.
  float head_h = 0;
  for (int s = 0; s < sides; ++s) {
    if (!flows[s]) continue;
    const float x = origin.x + s * (col_w + gap);
    const std::string name = flows[s]->variant.substr(flows[s]->variant.find('/') + 1);
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
  // Under the charts: where the cache figures come from (once when A and B agree).
  float foot_h = 0;
  const bool same = sides == 2 && flows[0] && flows[1] && flows[0]->cache_source == flows[1]->cache_source;
  for (int s = 0; s < sides; ++s) {
    if (!flows[s] || (same && s == 1)) continue;
    const float x = origin.x + s * (col_w + gap);
    const std::string& from = flows[s]->cache_source;
    const std::string src = (same ? std::string("Cache figures: ") : std::string(s ? "B" : "A") + "'s cache figures: ") +
                            (from.empty() ? "none recorded at this size" : from);
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
