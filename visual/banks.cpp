// Shared-memory bank view (see banks.h).
#include "visual/banks.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/rule_text.h"
#include "visual/help_marker.h"
#include "visual/palette.h"
#include "visual/warp_lanes.h"

namespace ws::visual {

std::string BanksHelp() {
  return "32 banks, 4 bytes wide: word w lives in bank w % 32. Each box is one word the warp touches, in the colour of "
         "the first lane that touches it; a white frame and a number mean several lanes read that word at once (a "
         "broadcast: free). A vermillion bank serves more than one word in one phase: those are served one after "
         "another (an n-way conflict). " + sim::BankPhaseRule() + ".";
}

BankStack FitBankStack(int words, int fit) {
  if (words <= fit) return {words, 0};
  const int shown = std::max(fit - 1, 0);
  return {shown, words - shown};
}

void BanksView::Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed) {
  const sim::WarpInstruction* ins = shown_step.Focus();
  ImGui::PushID(shown_step.pane.c_str());
  const float title_y = ImGui::GetCursorPosY();
  ImGui::TextUnformatted("Shared-memory banks");
  HelpMarker(BanksHelp());
  if (!ins || ins->space != sim::Space::Shared) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("the current instruction does not touch shared memory");
    ImGui::PopStyleColor();
    ImGui::PopID();
    return;
  }
  const std::vector<sim::BankColumn> cols = sim::SharedBanks(*ins);
  int max_words = 1;
  for (const auto& c : cols) max_words = std::max<int>(max_words, int(c.words.size()));
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float line_h = ImGui::GetTextLineHeight();
  const float avail_h = std::max(height - (ImGui::GetCursorPosY() - title_y), 3.0f * line_h);
  BankLayout b;
  b.header_h = line_h * 2.0f + 8.0f * scale;
  // A slot is at least half a text line (a legible box); more words than fit are summarised.
  const float min_slot = std::max(6.0f * scale, 0.5f * line_h);
  const int fit = std::max(1, int(std::floor((avail_h - b.header_h) / min_slot)));
  const BankStack stack = FitBankStack(max_words, fit);
  const int rows = stack.shown + (stack.more > 0 ? 1 : 0);
  b.slot_h = std::clamp((avail_h - b.header_h) / float(std::max(rows, 1)), min_slot, line_h);
  b.area = {p.x, p.y, w, b.header_h + b.slot_h * float(rows)};
  if (placed) {
    Placed pl{shown_step.pane, "banks", "", b.area};
    pl.header_h = b.header_h;
    pl.slot_h = b.slot_h;
    placed->push_back(pl);
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 m = ImGui::GetIO().MousePos;
  int hover_bank = -1, hover_slot = -1;
  const float band = 6.0f * scale;
  // Bank numbers as the lane strip numbers its lanes: never running together.
  const int label_stride = LabelStride(BankHeader(b, 0).w, ImGui::CalcTextSize("00").x);
  // The n-way mark goes on every conflicting bank where it fits, else on the worst one only.
  int worst = -1;
  for (int bank = 0; bank < 32; ++bank)
    if (cols[bank].degree > 1 && (worst < 0 || cols[bank].degree > cols[worst].degree)) worst = bank;
  for (int bank = 0; bank < 32; ++bank) {
    const Rect h = BankHeader(b, bank);
    const sim::BankColumn& c = cols[bank];
    const Rgb mark = c.degree > 1 ? kConflict : kBankOk;
    const float pad = std::max(1.0f, 0.06f * h.w);
    dl->AddRectFilled(ImVec2(h.x + pad, h.y), ImVec2(h.x + h.w - pad, h.y + band), Pack(mark, c.degree ? 255 : 90));
    char txt[32];
    if (bank % label_stride == 0) {
      std::snprintf(txt, sizeof txt, "%d", bank);
      dl->AddText(ImVec2(h.x + pad, h.y + band + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), txt);
    }
    if (c.degree > 1) {
      std::snprintf(txt, sizeof txt, "%d\xc3\x97", c.degree);
      const float dw = ImGui::CalcTextSize(txt).x;
      if (dw <= h.w || bank == worst) {
        const float x = std::clamp(h.CenterX() - dw * 0.5f, b.area.x, b.area.x + b.area.w - dw);
        dl->AddText(ImVec2(x, h.y + band + 1 + line_h), Pack(kConflict), txt);
      }
    }
    const int shown = std::min<int>(int(c.words.size()), stack.shown);
    for (int s = 0; s < shown; ++s) {
      const Rect q = BankSlot(b, bank, s);
      const sim::BankWord& word = c.words[s];
      const float spad = std::max(1.0f, 0.1f * q.h);
      dl->AddRectFilled(ImVec2(q.x + pad, q.y + spad), ImVec2(q.x + q.w - pad, q.y + q.h - spad), Pack(LaneRgb(word.lanes.front())));
      if (word.lanes.size() > 1) {
        dl->AddRect(ImVec2(q.x + pad, q.y + spad), ImVec2(q.x + q.w - pad, q.y + q.h - spad), Pack(kLine), 0, 0, std::max(1.0f, scale));
        std::snprintf(txt, sizeof txt, "%zu", word.lanes.size());
        if (q.h >= line_h * 0.9f && ImGui::CalcTextSize(txt).x <= q.w - 2 * pad)
          dl->AddText(ImVec2(q.x + pad + 1, q.y), Pack(TextOn(LaneRgb(word.lanes.front()))), txt);
      }
      if (m.x >= q.x && m.x < q.x + q.w && m.y >= q.y && m.y < q.y + q.h) hover_bank = bank, hover_slot = s;
    }
    if (int(c.words.size()) > shown) {
      // The summary row: "+21 more" under the bank, kept inside the view.
      const Rect q = BankSlot(b, bank, stack.shown);
      std::snprintf(txt, sizeof txt, "+%d more", int(c.words.size()) - shown);
      const float tw = ImGui::CalcTextSize(txt).x;
      const float x = std::clamp(q.x, b.area.x, b.area.x + b.area.w - tw);
      dl->AddText(ImVec2(x, q.y + (q.h - line_h) * 0.5f), Pack(kConflict), txt);
      if (placed) placed->push_back({shown_step.pane, "banks_more", txt, Rect{x, q.y, tw, q.h}});
      if (m.x >= x && m.x < x + tw && m.y >= q.y && m.y < q.y + q.h) hover_bank = bank;
    }
    if (m.x >= h.x && m.x < h.x + h.w && m.y >= h.y && m.y < h.y + h.h) hover_bank = bank;
  }
  ImGui::Dummy(ImVec2(w, b.area.h));
  if (hover_bank >= 0 && ImGui::IsWindowHovered()) {
    const sim::BankColumn& c = cols[hover_bank];
    ImGui::BeginTooltip();
    ImGui::Text("bank %d: %zu word%s%s", hover_bank, c.words.size(), c.words.size() == 1 ? "" : "s",
                c.degree > 1 ? " (conflict: served one after another)" : "");
    const int phases = 32 / sim::BankPhaseLanes(ins->width);
    for (int s = 0; s < int(c.words.size()) && s < 40; ++s) {
      if (hover_slot >= 0 && s != hover_slot) continue;
      std::string lanes;
      for (int l : c.words[s].lanes) lanes += (lanes.empty() ? "" : " ") + std::to_string(l);
      char phase[32] = "";
      if (phases > 1) std::snprintf(phase, sizeof phase, ", phase %d of %d", c.words[s].phase + 1, phases);
      ImGui::Text("  word %llu (byte %llu)%s: lane%s %s%s", (unsigned long long)c.words[s].word,
                  (unsigned long long)(c.words[s].word * 4), phase, c.words[s].lanes.size() > 1 ? "s" : "", lanes.c_str(),
                  c.words[s].lanes.size() > 1 ? " (broadcast)" : "");
    }
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

}  // namespace ws::visual
