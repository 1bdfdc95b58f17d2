// Glossary (see glossary.h).
#include "visual/glossary.h"

#include <imgui.h>

#include <algorithm>

#include "sim/geometry.h"
#include "sim/rule_text.h"

namespace ws::visual {

const std::vector<Term>& Glossary() {
  static const std::vector<Term> terms = {
      {"request", "One memory instruction of a warp: the addresses of all its active lanes, served together. A whole "
                  "block's step is a request per warp: its sectors are counted per request (sector requests), apart "
                  "from the distinct sectors and lines they all reach."},
      {"sector", std::to_string(sim::kSectorBytes) + " bytes of memory, the unit global memory moves: a request costs one transfer per distinct sector it touches."},
      {"line", std::to_string(sim::kLineBytes) + " bytes (four sectors), the unit a cache keeps; a well-coalesced warp touches few lines."},
      {"ideal", "What a request would cost at best: " + sim::IdealDefinition() + "."},
      {"wavefront", "One pass of a shared-memory request through the " + std::to_string(sim::kBanks) + " banks; a request without conflicts needs one."},
      {"bank", "Shared memory is split into " + std::to_string(sim::kBanks) + " banks of " +
                   std::to_string(sim::kBankWordBytes) + "-byte words, and each bank serves one word per pass. " +
                   sim::BankPhaseRule() + "."},
      {"bank conflict", "Lanes asking one bank for different words: the bank serves them one after another, a wavefront each."},
      {"broadcast", "Lanes reading the very same word get it in one pass, at no extra cost."},
      {"L1 hit", "A sector the load found in the L1 cache of its SM (each SM has its own), the fastest place after registers and shared memory."},
      {"L2 hit", "A sector the L1 did not hold but the device-wide L2 cache did; and every store's sector: " +
                     sim::StoreAllocationRule() + "."},
      {"from DRAM", "A sector neither cache held: it is read from the GPU's device memory, the slowest trip."},
      {"set, way", "A cache is split into sets: a line can live only in the set its address maps to, in any of that "
                   "set's ways (its slots). When every way is taken, a new line evicts one of them."},
      {"LRU", "Least recently used: the line a full set evicts is the one used longest ago. The L1 and L2 tabs draw a "
              "set's ways most recent first, so the next to leave is on the right."},
      {"divergence", "Lanes of a warp taking different sides of a branch: the warp runs each side in turn, the other lanes masked off."},
      {"occupancy", "How many warps an SM holds at once, as a share of its maximum; more warps hide more memory latency."},
  };
  return terms;
}

void DrawGlossary(float width) {
  if (!ImGui::BeginTable("glossary##help", 2, ImGuiTableFlags_SizingFixedFit, ImVec2(width, 0))) return;
  float word_w = 0;
  for (const Term& t : Glossary()) word_w = std::max(word_w, ImGui::CalcTextSize(t.word.c_str()).x);
  ImGui::TableSetupColumn("word", ImGuiTableColumnFlags_WidthFixed, word_w);
  ImGui::TableSetupColumn("meaning", ImGuiTableColumnFlags_WidthStretch);
  for (const Term& t : Glossary()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(t.word.c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", t.meaning.c_str());
  }
  ImGui::EndTable();
}

}  // namespace ws::visual
