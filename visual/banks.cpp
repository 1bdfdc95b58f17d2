// Shared-memory bank view (see banks.h).
#include "visual/banks.h"

#include <imgui.h>

#include "visual/help_marker.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "visual/palette.h"

namespace ws::visual {

std::vector<BankColumn> BankColumns(const sim::WarpInstruction& ins) {
  std::vector<BankColumn> cols(32);
  // CUDA C Programming Guide, "Shared Memory" (5.x+): 32 banks of 4 bytes; 64-bit accesses in
  // two half-warp phases, 128-bit in four quarter-warp phases.
  const int phase_lanes = ins.width >= 16 ? 8 : ins.width >= 8 ? 16 : 32;
  for (int p0 = 0; p0 < 32; p0 += phase_lanes) {
    std::map<int, std::set<uint64_t>> phase_words;
    for (int lane = p0; lane < p0 + phase_lanes; ++lane) {
      if (!(ins.mask >> lane & 1)) continue;
      for (uint64_t w = ins.addr[lane] / 4; w <= (ins.addr[lane] + std::max<int>(ins.width, 1) - 1) / 4; ++w) {
        const int bank = int(w % 32);
        phase_words[bank].insert(w);
        auto& words = cols[bank].words;
        auto it = std::find_if(words.begin(), words.end(), [&](const BankWord& b) { return b.word == w; });
        if (it == words.end()) words.push_back({w, {lane}});
        else if (std::find(it->lanes.begin(), it->lanes.end(), lane) == it->lanes.end()) it->lanes.push_back(lane);
      }
    }
    for (auto& [bank, words] : phase_words) cols[bank].degree = std::max(cols[bank].degree, int(words.size()));
  }
  return cols;
}

void BanksView::Draw(const StepFrame& frame, float height, float scale, std::vector<Placed>* placed) {
  const sim::WarpInstruction* ins = frame.Focus();
  ImGui::PushID(frame.pane.c_str());
  ImGui::TextUnformatted("Shared-memory banks");
  HelpMarker(
        "32 banks, 4 bytes wide: word w lives in bank w % 32. Each box is one word the warp touches,\n"
        "in the colour of the first lane that touches it; a white frame and a number mean several\n"
        "lanes read that word at once (a broadcast: free). A vermillion bank serves more than one\n"
        "word: those are served one after another (an n-way conflict).");
  if (!ins || ins->space != sim::Space::Shared) {
    ImGui::TextDisabled("the current instruction does not touch shared memory");
    ImGui::PopID();
    return;
  }
  const std::vector<BankColumn> cols = BankColumns(*ins);
  int max_words = 1;
  for (const auto& c : cols) max_words = std::max<int>(max_words, int(c.words.size()));
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float avail_h = std::max(height - ImGui::GetTextLineHeightWithSpacing(), 60.0f * scale);
  BankLayout b;
  b.header_h = ImGui::GetTextLineHeight() * 2.0f + 8.0f * scale;
  b.slot_h = std::clamp((avail_h - b.header_h) / float(max_words), 3.0f * scale, ImGui::GetTextLineHeight());
  b.area = {p.x, p.y, w, b.header_h + b.slot_h * float(max_words)};
  if (placed) {
    Placed pl{frame.pane, "banks", "", b.area};
    pl.header_h = b.header_h;
    pl.slot_h = b.slot_h;
    placed->push_back(pl);
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 m = ImGui::GetIO().MousePos;
  int hover_bank = -1, hover_slot = -1;
  const float band = 6.0f * scale;
  for (int bank = 0; bank < 32; ++bank) {
    const Rect h = BankHeader(b, bank);
    const BankColumn& c = cols[bank];
    const Rgb mark = c.degree > 1 ? kConflict : kBankOk;
    const float pad = std::max(1.0f, 0.06f * h.w);
    dl->AddRectFilled(ImVec2(h.x + pad, h.y), ImVec2(h.x + h.w - pad, h.y + band), Pack(mark, c.degree ? 255 : 90));
    char txt[16];
    std::snprintf(txt, sizeof txt, "%d", bank);
    const float tw = ImGui::CalcTextSize(txt).x;
    dl->AddText(ImVec2(h.CenterX() - tw * 0.5f, h.y + band + 1), ImGui::GetColorU32(ImGuiCol_TextDisabled), txt);
    if (c.degree > 1) {
      std::snprintf(txt, sizeof txt, "%d\xc3\x97", c.degree);
      const float dw = ImGui::CalcTextSize(txt).x;
      dl->AddText(ImVec2(h.CenterX() - dw * 0.5f, h.y + band + 1 + ImGui::GetTextLineHeight()), Pack(kConflict), txt);
    }
    for (int s = 0; s < int(c.words.size()); ++s) {
      const Rect q = BankSlot(b, bank, s);
      const BankWord& word = c.words[s];
      const float spad = std::max(1.0f, 0.1f * q.h);
      dl->AddRectFilled(ImVec2(q.x + pad, q.y + spad), ImVec2(q.x + q.w - pad, q.y + q.h - spad), Pack(LaneRgb(word.lanes.front())));
      if (word.lanes.size() > 1) {
        dl->AddRect(ImVec2(q.x + pad, q.y + spad), ImVec2(q.x + q.w - pad, q.y + q.h - spad), Pack(kLine), 0, 0, std::max(1.0f, scale));
        if (q.h >= ImGui::GetTextLineHeight() * 0.9f) {
          std::snprintf(txt, sizeof txt, "%zu", word.lanes.size());
          dl->AddText(ImVec2(q.x + pad + 1, q.y), Pack(TextOn(LaneRgb(word.lanes.front()))), txt);
        }
      }
      if (m.x >= q.x && m.x < q.x + q.w && m.y >= q.y && m.y < q.y + q.h) hover_bank = bank, hover_slot = s;
    }
    if (m.x >= h.x && m.x < h.x + h.w && m.y >= h.y && m.y < h.y + h.h) hover_bank = bank;
  }
  ImGui::Dummy(ImVec2(w, b.area.h));
  if (hover_bank >= 0 && ImGui::IsWindowHovered()) {
    const BankColumn& c = cols[hover_bank];
    ImGui::BeginTooltip();
    ImGui::Text("bank %d: %zu distinct word%s%s", hover_bank, c.words.size(), c.words.size() == 1 ? "" : "s",
                c.degree > 1 ? " (conflict: served one after another)" : "");
    for (int s = 0; s < int(c.words.size()); ++s) {
      if (hover_slot >= 0 && s != hover_slot) continue;
      std::string lanes;
      for (int l : c.words[s].lanes) lanes += (lanes.empty() ? "" : " ") + std::to_string(l);
      ImGui::Text("  word %llu (byte %llu): lane%s %s%s", (unsigned long long)c.words[s].word,
                  (unsigned long long)(c.words[s].word * 4), c.words[s].lanes.size() > 1 ? "s" : "", lanes.c_str(),
                  c.words[s].lanes.size() > 1 ? " (broadcast)" : "");
    }
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

}  // namespace ws::visual
