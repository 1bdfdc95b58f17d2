// Shared-memory bank view (see banks.h).
#include "visual/banks.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/geometry.h"
#include "sim/rule_text.h"
#include "visual/help_marker.h"
#include "visual/palette.h"
#include "visual/text_fit.h"
#include "visual/tooltip.h"
#include "visual/warp_lanes.h"

namespace ws::visual {

std::string BanksHelp() {
  const std::string banks = std::to_string(sim::kBanks);
  return banks + " banks, " + std::to_string(sim::kBankWordBytes) + " bytes wide: word w lives in bank w % " + banks +
         ". Under each bank, one mark per lane it serves, in the "
         "lane's colour; the lanes of one word sit together. A vermillion bank serves more than one word in one phase: "
         "those are served one after another (an n-way conflict: n words, n marks and more). A white frame marked "
         "\"free\" is one word several lanes read at once (a broadcast: one read serves them all). " +
         sim::BankPhaseRule() + ".";
}

int StackMarks(const std::vector<sim::BankColumn>& cols) {
  int most = 0;
  for (const auto& c : cols) {
    int marks = 0;
    for (const auto& w : c.words) marks += int(w.lanes.size());
    most = std::max(most, marks);
  }
  return most;
}

namespace {
// A mark's least height: a thin bar, told apart from its neighbours by the lane colours (32 of
// them in 96 px, whatever the scale: a short pane at a large scale keeps them all in view).
float MinSlot(float) { return 3.0f; }
// The colour band and the bank numbers' line, and the n-way marks' line under it (in the hall,
// the marks are on the numbers' line).
float HeaderHeight(float scale, bool hall) { return ImGui::GetTextLineHeight() * (hall ? 1.0f : 2.0f) + 8.0f * scale; }
}  // namespace

float BanksView::NeededHeight(const ShownStep& shown_step, float scale, bool hall) {
  const sim::WarpInstruction* ins = shown_step.Focus();
  if (!ins || ins->space != sim::Space::Shared) return (hall ? 1.0f : 2.0f) * ImGui::GetTextLineHeightWithSpacing();
  return NeededHeight(StackMarks(sim::SharedBanks(*ins)), scale);
}

// (With the header of two lines: the room a plan keeps for the view is what it kept before the
// hall's header of one line, which then gives the marks that line.)
float BanksView::NeededHeight(int marks, float scale) {
  return ImGui::GetTextLineHeightWithSpacing() + HeaderHeight(scale, false) + MinSlot(scale) * float(std::max(marks, 1)) +
         ImGui::GetStyle().ItemSpacing.y;
}

void BanksView::Draw(const ShownStep& shown_step, float height, float scale, std::vector<Placed>* placed, bool hall) {
  const sim::WarpInstruction* ins = shown_step.Focus();
  if (hall && (!ins || ins->space != sim::Space::Shared)) {
    // The hall: the step touches no shared memory, the banks are a label as an untouched array is.
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const std::string label = FitText({"Shared-memory banks: not touched by this step", "banks: not touched by this step", "banks"},
                                      ImGui::GetContentRegionAvail().x);
    ImGui::TextDisabled("%s", label.c_str());
    if (ImGui::IsItemHovered()) WrappedTooltip(BanksHelp());
    if (placed) placed->push_back({shown_step.pane, "banks_label", "", Rect{p.x, p.y, ImGui::GetItemRectSize().x, ImGui::GetItemRectSize().y}});
    return;
  }
  ImGui::PushID(shown_step.pane.c_str());
  const float title_y = ImGui::GetCursorPosY();
  // The title in full where it fits beside its help marker, else shorter.
  const bool narrow = ImGui::CalcTextSize("Shared-memory banks (?)").x + ImGui::GetStyle().ItemSpacing.x >
                      ImGui::GetContentRegionAvail().x;
  ImGui::TextUnformatted(narrow ? "Banks" : "Shared-memory banks");
  HelpMarker(BanksHelp());
  if (!ins || ins->space != sim::Space::Shared) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("the current instruction does not touch shared memory");
    ImGui::PopStyleColor();
    ImGui::PopID();
    return;
  }
  const std::vector<sim::BankColumn> cols = sim::SharedBanks(*ins);
  const int rows = std::max(StackMarks(cols), 1);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float line_h = ImGui::GetTextLineHeight();
  BankLayout b;
  // The hall's header of one line where the stack needs the room (its marks under a header of two
  // would be less than a text line tall); a stack of a mark or two keeps the numbers' line apart.
  const float room = height - (ImGui::GetCursorPosY() - title_y);
  const bool one_line = hall && (room - HeaderHeight(scale, false)) / float(rows) < line_h;
  b.header_h = HeaderHeight(scale, one_line);
  // (At least the header and a mark: NeededHeight's least, which a plan may give exactly.)
  const float avail_h = std::max(height - (ImGui::GetCursorPosY() - title_y), b.header_h + MinSlot(scale));
  // Every mark of the tallest stack, a text line tall at most (two in the hall, where the room
  // left under a stack of a mark or two is otherwise an empty band), a thin bar at least.
  b.slot_h = std::clamp((avail_h - b.header_h) / float(rows), MinSlot(scale), hall ? 2.0f * line_h : line_h);
  b.area = {p.x, p.y, w, b.header_h + b.slot_h * float(rows)};
  if (placed) {
    Placed pl{shown_step.pane, "banks", "", b.area, uint64_t(rows), 32};
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
  // The broadcast mark likewise, on the bank with the most lanes in one word where "free" does not fit every one.
  int widest = -1;
  size_t widest_lanes = 1;
  for (int bank = 0; bank < 32; ++bank)
    for (const auto& word : cols[bank].words)
      if (word.lanes.size() > widest_lanes) widest = bank, widest_lanes = word.lanes.size();
  const char* kFree = "free";
  const float free_w = ImGui::CalcTextSize(kFree).x;
  // The n-way and "free" marks: their text and where it goes, a line under the numbers, or in the
  // hall on their line (a number the mark would cover is left out: the mark stands over its bank).
  struct Mark {
    std::string text;
    float x = 0;
    bool conflict = false;
  };
  std::vector<Mark> marks;
  for (int bank = 0; bank < 32; ++bank) {
    const Rect h = BankHeader(b, bank);
    const sim::BankColumn& c = cols[bank];
    bool broadcast = false;
    for (const auto& word : c.words) broadcast = broadcast || word.lanes.size() > 1;
    if (c.degree > 1) {
      char txt[32];
      std::snprintf(txt, sizeof txt, "%d\xc3\x97", c.degree);
      const float dw = ImGui::CalcTextSize(txt).x;
      if (dw <= h.w || bank == worst) marks.push_back({txt, std::clamp(h.CenterX() - dw * 0.5f, b.area.x, b.area.x + b.area.w - dw), true});
    } else if (broadcast && (free_w <= h.w || (bank == widest && worst < 0))) {
      marks.push_back({kFree, std::clamp(h.CenterX() - free_w * 0.5f, b.area.x, b.area.x + b.area.w - free_w), false});
    }
  }
  const float marks_y = p.y + band + 1 + (one_line ? 0.0f : line_h);
  const float space_w = ImGui::CalcTextSize(" ").x;
  auto covered = [&](float x0, float x1) {
    if (!one_line) return false;
    for (const Mark& k : marks)
      if (x1 + space_w > k.x && x0 < k.x + ImGui::CalcTextSize(k.text.c_str()).x + space_w) return true;
    return false;
  };
  for (const Mark& k : marks) dl->AddText(ImVec2(k.x, marks_y), k.conflict ? Pack(kConflict) : Pack(kLine), k.text.c_str());
  for (int bank = 0; bank < 32; ++bank) {
    const Rect h = BankHeader(b, bank);
    const sim::BankColumn& c = cols[bank];
    const Rgb mark = c.degree > 1 ? kConflict : kBankOk;
    const float pad = std::max(1.0f, 0.06f * h.w);
    dl->AddRectFilled(ImVec2(h.x + pad, h.y), ImVec2(h.x + h.w - pad, h.y + band), Pack(mark, c.degree ? 255 : 90));
    char txt[32];
    if (bank % label_stride == 0) {
      std::snprintf(txt, sizeof txt, "%d", bank);
      if (!covered(h.x + pad, h.x + pad + ImGui::CalcTextSize(txt).x))
        dl->AddText(ImVec2(h.x + pad, h.y + band + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), txt);
    }
    // The stack: a mark per lane, a word's lanes together, a broadcast's framed.
    int slot = 0;
    for (size_t wi = 0; wi < c.words.size(); ++wi) {
      const sim::BankWord& word = c.words[wi];
      const int first = slot;
      for (int lane : word.lanes) {
        const Rect q = BankSlot(b, bank, slot++);
        const float spad = q.h >= 6.0f ? std::max(1.0f, 0.1f * q.h) : 0.0f;
        dl->AddRectFilled(ImVec2(q.x + pad, q.y + spad), ImVec2(q.x + q.w - pad, q.y + q.h - spad), Pack(LaneRgb(lane)));
      }
      const Rect top = BankSlot(b, bank, first), bottom = BankSlot(b, bank, slot - 1);
      if (word.lanes.size() > 1)
        dl->AddRect(ImVec2(top.x + pad, top.y), ImVec2(top.x + top.w - pad, bottom.y + bottom.h), Pack(kLine), 0, 0,
                    std::max(1.0f, scale));
      if (m.x >= top.x && m.x < top.x + top.w && m.y >= top.y && m.y < bottom.y + bottom.h) hover_bank = bank, hover_slot = int(wi);
    }
    if (m.x >= h.x && m.x < h.x + h.w && m.y >= h.y && m.y < h.y + h.h) hover_bank = bank;
  }
  ImGui::Dummy(ImVec2(w, b.area.h));
  if (hover_bank >= 0 && ImGui::IsWindowHovered()) {
    const sim::BankColumn& c = cols[hover_bank];
    BeginClearTooltip(scale);
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
    EndClearTooltip();
  }
  ImGui::PopID();
}

}  // namespace ws::visual
