// The step's source lines under presenter mode's picture (see source_excerpt.h).
#include "visual/source_excerpt.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "visual/palette.h"
#include "visual/text_fit.h"

namespace ws::visual {
namespace {

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(at, end - at);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    for (char& c : l)
      if (c == '\t') c = ' ';
    lines.push_back(std::move(l));
    if (end == text.size()) break;
    at = end + 1;
  }
  if (!lines.empty() && lines.back().empty()) lines.pop_back();  // the newline that ends the file
  return lines;
}

bool Blank(const std::string& l) { return l.find_first_not_of(' ') == std::string::npos; }

// ExcerptAround on the text's lines, split once by the caller.
ExcerptLines Around(const std::vector<std::string>& lines, uint32_t line, int rows) {
  if (line == 0 || line > lines.size() || rows <= 0) return {};
  const int64_t n = int64_t(lines.size());
  const int64_t count = std::min<int64_t>(rows, n);
  int64_t first = int64_t(line) - (count - 1) / 2;
  first = std::clamp<int64_t>(first, 1, n - count + 1);
  int64_t last = first + count - 1;
  while (first < int64_t(line) && Blank(lines[size_t(first - 1)])) ++first;
  while (last > int64_t(line) && Blank(lines[size_t(last - 1)])) --last;
  return {uint32_t(first), uint32_t(last)};
}

}  // namespace

ExcerptLines ExcerptAround(const std::string& text, uint32_t line, int rows) { return Around(SplitLines(text), line, rows); }

float DrawSourceExcerpt(const ShownStep& shown_step, const std::string& text, float height, void* mono_font,
                        std::vector<Placed>* placed) {
  const sim::WarpInstruction* focus = shown_step.Focus();
  if (!focus || !shown_step.trace || focus->site >= shown_step.trace->sites.size()) return 0;
  const uint32_t line = shown_step.trace->sites[focus->site].line;
  const std::string array = focus->array >= 0 && size_t(focus->array) < shown_step.trace->arrays.size()
                                ? shown_step.trace->arrays[size_t(focus->array)].name : std::string();
  ImFont* font = static_cast<ImFont*>(mono_font);
  if (font) ImGui::PushFont(font);
  const float row_h = ImGui::GetTextLineHeightWithSpacing();
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const int rows = int((height + spacing) / row_h);
  const std::vector<std::string> lines = SplitLines(text);
  if (rows <= 0 || line == 0 || line > lines.size()) {
    if (font) ImGui::PopFont();
    return 0;
  }
  // The step's line is the lesson: wrapped whole where the rows allow, its neighbours around it.
  char num[16];
  std::snprintf(num, sizeof num, "%u ", line + uint32_t(rows));
  const float num_w = ImGui::CalcTextSize(num).x;
  const float w = ImGui::GetContentRegionAvail().x;
  auto trimmed = [&](uint32_t k, size_t indent) {
    const std::string& l = lines[k - 1];
    return l.size() > indent ? l.substr(indent) : std::string();
  };
  // The step's line in rows of the width (less its indentation in the excerpt), broken at spaces;
  // where it needs more rows than there are, those that reach the step's array, "…" where cut.
  const size_t own_indent = std::min(lines[line - 1].find_first_not_of(' '), lines[line - 1].size());
  auto wrap_own = [&](size_t lead) {
    const float lead_w = ImGui::CalcTextSize(std::string(lead, ' ').c_str()).x;
    std::vector<std::string> rows_of = SplitLines(WrapAtSpaces(ImGui::GetFont(), ImGui::GetFontSize(), trimmed(line, own_indent), w - num_w - lead_w));
    if (rows_of.empty()) rows_of.push_back("");
    if (int(rows_of.size()) > rows) {
      // The rows shown are the first ones that reach the step's array ("_b[").
      size_t at = 0, start = 0;
      const size_t access = array.empty() ? std::string::npos : trimmed(line, own_indent).find(array + "[");
      for (size_t r = 0; r < rows_of.size(); at += rows_of[r].size() + 1, ++r)
        if (access != std::string::npos && access >= at && access < at + rows_of[r].size() + 1)
          start = r + 1 > size_t(rows) ? r + 1 - size_t(rows) : 0;
      const bool cut_before = start > 0, cut_after = start + size_t(rows) < rows_of.size();
      rows_of = std::vector<std::string>(rows_of.begin() + long(start), rows_of.begin() + long(start) + rows);
      if (cut_before) rows_of.front() = "\xe2\x80\xa6" + rows_of.front();
      if (cut_after) rows_of.back() += "\xe2\x80\xa6";
    }
    for (auto& r : rows_of) r = std::string(lead, ' ') + r;
    return rows_of;
  };
  auto common_indent = [&](const ExcerptLines& x) {  // of the shown lines
    size_t indent = std::string::npos;
    for (uint32_t k = x.first; k <= x.last; ++k)
      if (!Blank(lines[k - 1])) indent = std::min(indent, lines[k - 1].find_first_not_of(' '));
    return indent == std::string::npos ? size_t(0) : indent;
  };
  std::vector<std::string> own = wrap_own(0);
  ExcerptLines e = Around(lines, line, rows - int(own.size()) + 1);
  size_t indent = common_indent(e);
  if (own_indent > indent) {  // indented under its neighbours: wrapped again in the narrower room
    own = wrap_own(own_indent - indent);
    e = Around(lines, line, rows - int(own.size()) + 1);
    indent = std::min(indent, common_indent(e));
  }
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const float x0 = ImGui::GetCursorPosX();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (uint32_t k = e.first; k <= e.last; ++k) {
    const bool is_own = k == line;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    if (is_own) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + row_h * float(own.size())), Pack(kHighlight, 70));
    std::snprintf(num, sizeof num, "%u", k);
    ImGui::TextDisabled("%s", num);
    ImGui::SameLine(x0 + num_w);
    if (!is_own) {
      ImGui::TextUnformatted(Ellipsize(trimmed(k, indent), w - num_w).c_str());
      continue;
    }
    for (size_t r = 0; r < own.size(); ++r) {
      if (r) ImGui::SetCursorPosX(x0 + num_w);
      ImGui::TextUnformatted(Ellipsize(own[r], w - num_w).c_str());
    }
  }
  const float used = ImGui::GetCursorScreenPos().y - top.y;
  if (font) ImGui::PopFont();
  if (placed) placed->push_back({shown_step.pane, "source", "line " + std::to_string(line), Rect{top.x, top.y, w, used}});
  return used;
}

}  // namespace ws::visual
