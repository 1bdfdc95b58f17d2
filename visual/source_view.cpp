// Source view (see source_view.h).
#include "visual/source_view.h"

#include <imgui.h>

#include "visual/help_marker.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "sim/metrics.h"
#include "sim/rule_text.h"
#include "visual/palette.h"
#include "visual/text_fit.h"

namespace ws::visual {

void SourceView::Draw(const ShownStep& shown_step, const std::string& source_path, const std::string& text, float height,
                      float scale, void* mono_font, const std::vector<SourceMark>* errors,
                      const CompiledBeside* compiled) {
  ImGui::PushID(shown_step.pane.c_str());
  // The path where it fits, else the file's name (the path in a tooltip).
  const std::string full_head = shown_step.pane + "  " + source_path;
  const std::string file = source_path.substr(source_path.rfind('/') == std::string::npos ? 0 : source_path.rfind('/') + 1);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float marker_w = style.ItemSpacing.x + ImGui::CalcTextSize("(?)").x;
  // The SASS toggle at the line's end, or under it where the pane's letter and the marker leave no
  // room for it (a narrow side panel at scale 1.5 cut it at the window's edge).
  const bool has_sass = compiled && compiled->kernel;
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const float sass_w = has_sass ? style.ItemSpacing.x + ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize("SASS").x : 0.0f;
  const bool sass_beside = ImGui::CalcTextSize((shown_step.pane + "  " + file).c_str()).x + marker_w + sass_w <= FitWidth(avail_w);
  const std::string head =
      FitText({full_head, shown_step.pane + "  " + file}, avail_w - marker_w - (sass_beside ? sass_w : 0.0f));
  ImGui::TextUnformatted(head.c_str());
  if (head != full_head && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", source_path.c_str());
  HelpMarker(
        "The kernel as it is compiled for both the GPU and the simulator. Highlighted: the line of\n"
        "the current instruction. Right: this launch's global sectors / ideal and shared wavefronts\n"
        "per line, over the whole launch. Hover a line for all its counters. Under a line: the memory\n"
        "instructions nvcc emitted for it (from its SASS) and, in colour, where they differ from the\n"
        "source as the simulator runs it. SASS: the compiled kernel's whole listing instead.");
  if (has_sass) {
    if (sass_beside) ImGui::SameLine();
    ImGui::Checkbox("SASS##source", &show_sass_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", compiled->status.c_str());
  } else if (compiled && !compiled->status.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", compiled->status.c_str());
    ImGui::PopStyleColor();
  }
  const ImVec4 red = ImGui::ColorConvertU32ToFloat4(Pack(kErrorText));
  float header_h = ImGui::GetTextLineHeightWithSpacing() + (has_sass && !sass_beside ? ImGui::GetFrameHeightWithSpacing() : 0.0f);
  if (errors) {
    ImGui::PushStyleColor(ImGuiCol_Text, red);
    const float before = ImGui::GetCursorPosY();
    ImGui::TextWrapped("does not compile: %zu message%s below; the pictures are the last good build",
                       errors->size(), errors->size() == 1 ? "" : "s");
    ImGui::PopStyleColor();
    header_h += ImGui::GetCursorPosY() - before;
  }
  // Long lines wrap (a projector has no room to scroll sideways), indented under their code. The
  // scrollbar is always there: the lines' wrapping does not change with it coming and going.
  const uint32_t current = shown_step.Focus() && shown_step.trace && shown_step.Focus()->site < shown_step.trace->sites.size()
                               ? shown_step.trace->sites[shown_step.Focus()->site].line
                               : 0;
  if (has_sass && show_sass_) {
    ImGui::BeginChild("sass##view", ImVec2(0, height - header_h), true, ImGuiWindowFlags_AlwaysVerticalScrollbar);
    if (mono_font) ImGui::PushFont(static_cast<ImFont*>(mono_font));
    DrawSass(shown_step, *compiled, current);
    if (mono_font) ImGui::PopFont();
    ImGui::EndChild();
    ImGui::PopID();
    return;
  }
  ImGui::BeginChild("source##view", ImVec2(0, height - header_h), true, ImGuiWindowFlags_AlwaysVerticalScrollbar);
  if (mono_font) ImGui::PushFont(static_cast<ImFont*>(mono_font));
  // A scroll to a line is asked again every frame until the scroll range has stayed the same for
  // two frames: a new window's content takes a few frames to be measured, and a scroll asked
  // before then is cut short by the range of those frames, so where the view ended up depended on
  // the frame the simulation arrived in.
  const float max_y = ImGui::GetScrollMaxY();
  settled_frames_ = max_y == settle_max_ ? settled_frames_ + 1 : 0;
  settle_max_ = max_y;
  if (settled_frames_ >= 2) settle_line_ = 0;
  std::istringstream in(text);
  std::string line;
  uint32_t number = 0;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  while (std::getline(in, line)) {
    ++number;
    ImGui::PushID(int(number));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const sim::Counters* c = nullptr;
    if (shown_step.trace) {
      auto it = shown_step.trace->per_line.find(number);
      if (it != shown_step.trace->per_line.end() && it->second.mem_inst) c = &it->second;
    }
    // The line's counters at the right of its first row, or on a row of their own under a line
    // that would otherwise be squeezed into less than half the width.
    char buf[96] = "";
    bool wasteful = false;
    if (c) {
      const uint64_t sec = c->GlobalSectors();
      const uint64_t ideal = c->GlobalIdealSectors();
      const uint64_t wf = c->SharedWavefronts();
      if (sec) std::snprintf(buf, sizeof buf, "%llu sectors (ideal %llu)", (unsigned long long)sec, (unsigned long long)ideal);
      else std::snprintf(buf, sizeof buf, "%llu wavefronts (ideal %llu)", (unsigned long long)wf,
                         (unsigned long long)c->SharedIdealWavefronts());
      wasteful = sec > ideal || wf > c->SharedIdealWavefronts();
    }
    char num[16];
    std::snprintf(num, sizeof num, "%3u  ", number);
    const float num_w = ImGui::CalcTextSize(num).x;
    // On a row of its own that is too narrow, the ideal goes to the tooltip.
    std::string counter = buf;
    if (c && ImGui::CalcTextSize(counter.c_str()).x > FitWidth(w))
      counter = FitText({counter, counter.substr(0, counter.find(" ("))}, w);
    const float counter_w = buf[0] ? ImGui::CalcTextSize(counter.c_str()).x : 0.0f;
    const bool counter_beside = buf[0] && w - num_w - counter_w - spacing >= 0.5f * w;
    const float code_w = std::max(w - num_w - (counter_beside ? counter_w + spacing : 0.0f), ImGui::CalcTextSize("M").x);
    const ImVec2 code_size = ImGui::CalcTextSize(line.c_str(), nullptr, false, code_w);
    const float row_h = std::max(code_size.y, ImGui::GetTextLineHeight()) + (buf[0] && !counter_beside ? ImGui::GetTextLineHeightWithSpacing() : 0.0f);
    if (number == current)
      ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + row_h + ImGui::GetStyle().ItemSpacing.y), Pack(kHighlight, 70));
    bool marked = false;
    if (errors)
      for (const auto& m : *errors) marked |= m.line == int(number);
    if (marked)
      ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + row_h + ImGui::GetStyle().ItemSpacing.y), Pack(kError, 60));
    ImGui::BeginGroup();
    ImGui::TextUnformatted(num);
    ImGui::SameLine(0, 0);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + code_w);
    ImGui::TextUnformatted(line.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    const bool hovered = ImGui::IsItemHovered();
    if (c) {
      if (counter_beside) ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - counter_w);
      else ImGui::SetCursorPosX(ImGui::GetWindowContentRegionMax().x - counter_w);
      ImGui::TextColored(wasteful ? ImGui::ColorConvertU32ToFloat4(Pack(kConflict))
                                  : ImGui::GetStyle().Colors[ImGuiCol_TextDisabled],
                         "%s", counter.c_str());
    }
    if ((hovered || ImGui::IsItemHovered()) && c) {
      ImGui::BeginTooltip();
      ImGui::Text("line %u over the whole launch:", number);
      for (const auto& m : sim::Metrics(*c))
        if (m.value != 0) ImGui::Text("  %-58s %12.6g", m.name.c_str(), m.value);
      ImGui::TextDisabled("sectors: the %s sectors the line's global accesses moved; wavefronts: the passes its shared\n"
                          "accesses took through the %u banks; ideal: %s", sim::BytesName(sim::kSectorBytes).c_str(),
                          sim::kBanks, sim::IdealDefinition().c_str());
      ImGui::EndTooltip();
    }
    if (errors)
      for (const auto& m : *errors)
        if (m.line == int(number)) {
          ImGui::PushStyleColor(ImGuiCol_Text, red);
          ImGui::TextWrapped("     ^ %s", m.text.c_str());
          ImGui::PopStyleColor();
        }
    if (compiled && compiled->comparison) {
      // What nvcc emitted for the line, and where that differs from the source as simulated.
      const auto e = compiled->comparison->emitted.find(number);
      const std::string note = compiled->comparison->LineText(number);
      if (e != compiled->comparison->emitted.end() || !note.empty()) {
        std::string said = "     nvcc: " + (e != compiled->comparison->emitted.end() ? e->second : std::string("no memory instruction"));
        if (!note.empty()) said += " \xc2\xb7 " + note;
        ImGui::PushStyleColor(ImGuiCol_Text, note.empty() ? ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]
                                                          : ImGui::ColorConvertU32ToFloat4(Pack(kConflict)));
        ImGui::TextWrapped("%s", said.c_str());
        ImGui::PopStyleColor();
      }
    }
    bool asked = false;
    if (marked && scrolled_to_ != ~0u - number) {  // a new error: scroll it into view once
      ImGui::SetScrollHereY(0.35f);
      scrolled_to_ = ~0u - number;
      asked = true;
    }
    if (number == current && !errors && (scrolled_to_ != current || scrolled_version_ != shown_step.version)) {
      if (scrolled_to_ != current) ImGui::SetScrollHereY(0.35f), asked = true;
      scrolled_to_ = current;
      scrolled_version_ = shown_step.version;
    }
    if (asked) settle_line_ = number, settled_frames_ = 0;
    else if (number == settle_line_) ImGui::SetScrollHereY(0.35f);
    ImGui::PopID();
  }
  if (errors)
    for (const auto& m : *errors)
      if (m.line <= 0 || m.line > int(number)) {
        ImGui::PushStyleColor(ImGuiCol_Text, red);
        ImGui::TextWrapped("%s", m.text.c_str());
        ImGui::PopStyleColor();
      }
  if (text.empty()) ImGui::TextDisabled("(source not embedded in this build)");
  if (mono_font) ImGui::PopFont();
  ImGui::EndChild();
  ImGui::PopID();
}

void SourceView::SassRowsOf(const sim::CompiledKernel& k, const std::string& file, uint32_t line,
                            const sim::WarpInstruction* step, std::vector<size_t>* at_line, std::vector<size_t>* strong) {
  for (size_t i = 0; i < k.instructions.size(); ++i) {
    const auto& ins = k.instructions[i];
    bool here = false;
    for (const auto& w : ins.where)
      if (sim::IsSameFile(w.file, file)) {
        here = w.line == line;
        break;
      }
    if (!here || line == 0) continue;
    at_line->push_back(i);
    // The step's own kind of access: its space (a generic LD/ST may be either) and operation.
    const bool space = ins.space == sim::MemSpace::Generic ||
                       (step && (step->space == sim::Space::Shared) == (ins.space == sim::MemSpace::Shared));
    const bool op = step && (step->op == ins.op || (step->op != sim::Op::Load && step->op != sim::Op::Store &&
                                                    ins.op != sim::Op::Load && ins.op != sim::Op::Store));
    if (ins.IsMemory() && step && space && op) strong->push_back(i);
  }
}

void SourceView::DrawSass(const ShownStep& shown_step, const CompiledBeside& compiled, uint32_t current) {
  const sim::CompiledKernel& k = *compiled.kernel;
  std::vector<size_t> at_line, strong;
  SassRowsOf(k, compiled.file, current, shown_step.Focus(), &at_line, &strong);
  ImGui::TextDisabled("%s", k.demangled.c_str());
  const bool scroll = sass_scrolled_version_ != shown_step.version;
  size_t scroll_to = !strong.empty() ? strong.front() : !at_line.empty() ? at_line.front() : ~size_t(0);
  for (size_t i = 0; i < k.instructions.size(); ++i) {
    const auto& ins = k.instructions[i];
    uint32_t line = 0;
    for (const auto& w : ins.where)
      if (sim::IsSameFile(w.file, compiled.file)) {
        line = w.line;
        break;
      }
    char head[32];
    std::snprintf(head, sizeof head, "%4u /*%04x*/ ", line, ins.offset);
    const bool is_strong = std::find(strong.begin(), strong.end(), i) != strong.end();
    const bool is_line = std::find(at_line.begin(), at_line.end(), i) != at_line.end();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    // Long instructions wrap, indented under the offset (a projector has no room to scroll sideways).
    const float head_w = ImGui::CalcTextSize(head).x;
    const float h = ImGui::CalcTextSize(ins.text.c_str(), nullptr, false, std::max(w - head_w, head_w)).y +
                    ImGui::GetStyle().ItemSpacing.y;
    if (is_line) ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + w, p.y + h), Pack(kHighlight, is_strong ? 110 : 50));
    ImGui::BeginGroup();
    ImGui::TextDisabled("%s", head);
    ImGui::SameLine(0, 0);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(w - head_w, head_w));
    if (!ins.IsMemory()) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextUnformatted(ins.text.c_str());
    if (!ins.IsMemory()) ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    if (ImGui::IsItemHovered() && ins.IsMemory())
      ImGui::SetTooltip("%d B %s %s%s%s", int(ins.width), sim::ToString(ins.op), sim::ToString(ins.space),
                        ins.predicate.empty() ? "" : ", predicated (every lane issues it; the predicate masks lanes)",
                        ins.loop >= 0 ? ", in a loop" : "");
    if (scroll && i == scroll_to) ImGui::SetScrollHereY(0.35f);
  }
  if (scroll) sass_scrolled_version_ = shown_step.version;
}

}  // namespace ws::visual
