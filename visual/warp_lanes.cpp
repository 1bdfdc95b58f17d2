// Warp view (see warp_lanes.h).
#include "visual/warp_lanes.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "sim/caption.h"
#include "sim/geometry.h"
#include "sim/rule_text.h"
#include "visual/help_marker.h"
#include "visual/palette.h"
#include "visual/steps.h"
#include "visual/text_fit.h"

namespace ws::visual {

namespace {

ImFont* LargestFont() {
  ImFont* best = nullptr;
  for (ImFont* f : ImGui::GetIO().Fonts->Fonts)
    if (!best || f->FontSize > best->FontSize) best = f;
  return best;
}

// The headline in the large font, the details under it in the text font, both wrapped to the
// pane's width; the badge grows in height to hold them. The details are whole on screen: where at
// the text font they take more than an eighth of the height left in the pane (a 720-line
// projector at scale 2, which keeps its height for the picture), their font shrinks, not below 3 %
// of the window's height (a slide's smallest text), and they take the lines they need at that.
Rect DrawCostBadge(const sim::CaptionParts& caption, ImFont* font, float min_headline, float scale, bool global,
                   const char* what) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float avail = std::max(ImGui::GetContentRegionAvail().x, 40.0f * scale);
  const float pad = 6.0f * scale;
  const float wrap = avail - 2 * pad;
  std::string details;
  for (const auto& d : caption.details) details += (details.empty() ? "" : " \xc2\xb7 ") + d;
  // The headline font as large as it is, shrunk (not below the text font nor `min_headline`) while the headline
  // would take more than two lines or the badge more than half the height left in the pane: a
  // narrow or short pane keeps room for the lanes and the picture, and nothing is cut.
  ImFont* head_font = font ? font : ImGui::GetFont();
  // Lines break at spaces only ("12.5%" stays whole).
  const std::string all_details = details;
  ImFont* text_font = ImGui::GetFont();
  float detail_size = ImGui::GetFontSize();
  const float avail_h = ImGui::GetContentRegionAvail().y;
  const int detail_lines = std::max(1, int(avail_h / 8.0f / ImGui::GetTextLineHeight()));
  const float least_detail = std::min(detail_size, std::ceil(0.03f * ImGui::GetIO().DisplaySize.y));
  details = WrapAtSpaces(text_font, detail_size, all_details, wrap);
  while (!details.empty() && size_t(std::count(details.begin(), details.end(), '\n')) >= size_t(detail_lines) &&
         detail_size > least_detail + 0.5f) {
    detail_size = std::max(std::floor(detail_size * 0.9f), least_detail);
    details = WrapAtSpaces(text_font, detail_size, all_details, wrap);
  }
  const bool short_pane = avail_h < 16.0f * ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 ds = details.empty() ? ImVec2(0, 0) : text_font->CalcTextSizeA(detail_size, FLT_MAX, wrap, details.c_str());
  const float gap = details.empty() ? 0.0f : 2.0f * scale;
  const float room = 0.5f * ImGui::GetContentRegionAvail().y - ds.y - gap - 2 * pad;
  float head_size = head_font->FontSize;
  std::string headline = WrapAtSpaces(head_font, head_size, caption.headline, wrap);
  ImVec2 hs = head_font->CalcTextSizeA(head_size, FLT_MAX, wrap, headline.c_str());
  const float least = std::min(head_font->FontSize, std::max(ImGui::GetFontSize(), min_headline));
  // A short pane keeps the headline on one line where `least` allows.
  const float most_lines = short_pane ? 1.5f : 2.5f;
  while ((hs.y > most_lines * head_size || hs.y > room) && head_size > least + 0.5f) {
    head_size = std::max(head_size * 0.85f, least);
    headline = WrapAtSpaces(head_font, head_size, caption.headline, wrap);
    hs = head_font->CalcTextSizeA(head_size, FLT_MAX, wrap, headline.c_str());
  }
  const Rect r{p.x, p.y, std::min(avail, std::max(hs.x, ds.x) + 2 * pad), hs.y + gap + ds.y + 2 * pad};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(r.x, r.y), ImVec2(r.x + r.w, r.y + r.h), Pack(kHeadlineFill), 4.0f * scale);
  dl->AddRect(ImVec2(r.x, r.y), ImVec2(r.x + r.w, r.y + r.h), Pack(kHighlight, 160), 4.0f * scale, 0,
              std::max(1.0f, scale));
  dl->AddText(head_font, head_size, ImVec2(r.x + pad, r.y + pad), Pack(kHighlight), headline.c_str(), nullptr, wrap);
  if (!details.empty())
    dl->AddText(text_font, detail_size, ImVec2(r.x + pad, r.y + pad + hs.y + gap), Pack(kHeadlineDetail), details.c_str(),
                nullptr, wrap);
  ImGui::Dummy(ImVec2(r.w, r.h));
  if (ImGui::IsItemHovered())
    WrappedTooltip(std::string(what) + "\n\n" + caption.headline + (all_details.empty() ? "" : "\n" + all_details) + "\n\n" +
                   CostHelp(global));
  return r;
}

}  // namespace

std::string CostHelp(bool global) {
  if (global)
    return "A global request costs one transaction per distinct " + std::to_string(sim::kSectorBytes) +
           "-byte sector its active lanes touch; lines are " + std::to_string(sim::kLineBytes) + " bytes. Ideal: " + sim::IdealDefinition() + ". A whole block's step counts each warp's request apart from "
           "the distinct sectors and lines they all reach. Bytes moved are used: distinct bytes the lanes ask for / "
           "bytes the sectors carry. Broadcast: several lanes read one address (one read serves them all). Atomic "
           "updates to one address are applied one after another. Sectors: where the cache model found each one (L1 "
           "hit, L2, DRAM); " + sim::StoreAllocationRule() + "; " + sim::AtomicRule() + ".";
  return "Shared memory has 32 banks of 4 bytes. Lanes reading the same word share it (broadcast); distinct words in "
         "one bank are served one after another, each an extra wavefront (a pass through the banks). Ideal: " +
         sim::IdealDefinition() + ". " + sim::BankPhaseRule() + ".";
}

int LabelStride(float column_w, float label_w) {
  if (column_w >= 2.0f * label_w) return 1;
  for (int stride : {4, 8, 16})
    if (float(stride) * column_w >= 1.5f * label_w) return stride;
  return 32;
}

InstructionWording InstructionWords(const ShownStep& shown_step) {
  const sim::WarpInstruction* ins = shown_step.Focus();
  if (!shown_step.trace || !ins) return {};
  const sim::Trace& trace = *shown_step.trace;
  const sim::ArrayInfo* a = ins->array >= 0 && ins->array < int(trace.arrays.size()) ? &trace.arrays[ins->array] : nullptr;
  const uint32_t line = ins->site < trace.sites.size() ? trace.sites[ins->site].line : 0;
  char full[160], brief[120];
  if (shown_step.current.size() > 1)
    std::snprintf(full, sizeof full, "block %u, %zu warps, line %u: %s.%s %s %uB", ins->block, shown_step.current.size(),
                  line, sim::ToString(ins->op), sim::ToString(ins->space), a ? a->name.c_str() : "?", ins->width);
  else
    std::snprintf(full, sizeof full, "block %u warp %u, line %u: %s.%s %s %uB", ins->block, ins->warp, line,
                  sim::ToString(ins->op), sim::ToString(ins->space), a ? a->name.c_str() : "?", ins->width);
  std::snprintf(brief, sizeof brief, "line %u: %s.%s %s", line, sim::ToString(ins->op), sim::ToString(ins->space),
                a ? a->name.c_str() : "?");
  return {full, brief};
}

void WarpLanesView::DrawCost(const ShownStep& shown_step, float scale, std::vector<Placed>* placed, ImFont* badge_font,
                             float min_headline, bool instruction_line) {
  const sim::WarpInstruction* ins = shown_step.Focus();
  if (!shown_step.trace || !ins) {
    ImGui::TextDisabled("no memory instruction for this warp");
    return;
  }
  ImGui::PushID(shown_step.pane.c_str());
  // Which instruction, in one line: in full where it fits, else without the warp, else only in
  // the badge's tooltip (a narrow pane keeps its height for the badge and the picture).
  const InstructionWording words = InstructionWords(shown_step);
  const char* full = words.full.c_str();
  const float avail_w = ImGui::GetContentRegionAvail().x;
  if (instruction_line && ImGui::CalcTextSize(full).x <= avail_w) ImGui::TextUnformatted(full);
  else if (instruction_line && ImGui::CalcTextSize(words.brief.c_str()).x <= avail_w) ImGui::TextUnformatted(words.brief.c_str());
  // The cost, as the simulator words it (whole block: every warp of the step).
  const sim::CaptionParts caption = sim::CaptionOf(shown_step.current);
  const Rect badge = DrawCostBadge(caption, badge_font ? badge_font : LargestFont(), min_headline, scale,
                                   ins->space == sim::Space::Global, full);
  if (placed) placed->push_back({shown_step.pane, "badge", caption.Text(), badge});
  ImGui::PopID();
}

void WarpLanesView::Draw(const ShownStep& shown_step, float scale, std::vector<Placed>* placed, bool compact) {
  const sim::WarpInstruction* ins = shown_step.Focus();
  if (!shown_step.trace || !ins) return;
  const sim::Trace& trace = *shown_step.trace;
  const sim::ArrayInfo* a = ins->array >= 0 && ins->array < int(trace.arrays.size()) ? &trace.arrays[ins->array] : nullptr;
  ImGui::PushID(shown_step.pane.c_str());
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float num_h = compact ? 0.0f : ImGui::GetTextLineHeight();
  const Rect strip{p.x, p.y + num_h, w, (compact ? 10.0f : 22.0f) * scale};
  if (placed) placed->push_back({shown_step.pane, "lanes", a ? a->name : "", strip});
  ImDrawList* dl = ImGui::GetWindowDrawList();
  int hovered = -1;
  const int label_stride = LabelStride(LaneBox(strip, 0).w, ImGui::CalcTextSize("00").x);
  for (int lane = 0; lane < 32; ++lane) {
    const Rect b = LaneBox(strip, lane);
    const bool on = ins->mask >> lane & 1;
    const float pad = std::max(1.0f, 0.08f * b.w);
    if (!compact && lane % label_stride == 0) {
      char num[8];
      std::snprintf(num, sizeof num, "%d", lane);
      dl->AddText(ImVec2(b.x + pad, p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), num);
    }
    dl->AddRectFilled(ImVec2(b.x + pad, b.y), ImVec2(b.x + b.w - pad, b.y + b.h), Pack(on ? LaneRgb(lane) : kMasked));
    if (!on) dl->AddRect(ImVec2(b.x + pad, b.y), ImVec2(b.x + b.w - pad, b.y + b.h), Pack(kMaskedOutline));
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (ImGui::IsWindowHovered() && m.x >= b.x && m.x < b.x + b.w && m.y >= b.y && m.y < b.y + b.h) hovered = lane;
  }
  ImGui::Dummy(ImVec2(w, strip.h + num_h + 2 * scale));
  if (hovered >= 0) {
    ImGui::BeginTooltip();
    const bool on = ins->mask >> hovered & 1;
    ImGui::Text("lane %d (thread %u of the block)%s", hovered, ins->warp * 32 + hovered, on ? "" : ": masked off");
    if (on && a) {
      const uint64_t e = ElementOf(*a, ins->addr[hovered]);
      ImGui::Text("%s[%llu]  address 0x%llx  sector %llu  line %llu", a->name.c_str(), (unsigned long long)e,
                  (unsigned long long)ins->addr[hovered], (unsigned long long)sim::SectorIndex(ins->addr[hovered]),
                  (unsigned long long)sim::LineIndex(ins->addr[hovered]));
      if (a->space == sim::Space::Shared) ImGui::Text("bank %u", sim::BankOf(ins->addr[hovered]));
    }
    if (!on) ImGui::TextDisabled("This lane's thread took another path here (or is outside the data).");
    ImGui::EndTooltip();
  }
  // Each lane's element: [row,col] of a matrix, the index of a 1-D array (whose rows on screen
  // are a line, or part of one in a narrow pane).
  if (show_addresses && a) {
    const bool matrix = a->rows > 1 && a->cols > 0;
    std::string text;
    for (int lane = 0; lane < 32; ++lane) {
      char cell[64];
      if (ins->mask >> lane & 1) {
        const uint64_t e = ElementOf(*a, ins->addr[lane]);
        if (matrix)
          std::snprintf(cell, sizeof cell, "%2d:[%llu,%llu]", lane, (unsigned long long)(e / a->cols),
                        (unsigned long long)(e % a->cols));
        else
          std::snprintf(cell, sizeof cell, "%2d:[%llu]", lane, (unsigned long long)e);
      } else {
        std::snprintf(cell, sizeof cell, "%2d:off", lane);
      }
      text += cell;
      text += lane % 8 == 7 ? "\n" : "  ";
    }
    ImGui::TextUnformatted(text.c_str());
  }
  ImGui::PopID();
}

}  // namespace ws::visual
