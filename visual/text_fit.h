// Labels that must fit a width on one line (a grid's label, a file name, a button): the first of
// several wordings, longest first, that fits in the current font, else the last cut with an
// ellipsis. Only for text that is not the lesson; the caller puts the full text in a tooltip.
// And whether an item fits beside the previous one.
#pragma once
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <initializer_list>
#include <string>

namespace ws::visual {

// ImGui drops a glyph that starts past the clip edge, so a label ends a pixel before it.
inline float FitWidth(float width) { return width - 1.0f; }

// `text` cut at a UTF-8 character boundary so that it and "…" fit `width` ("" when even "…" does not).
inline std::string Ellipsize(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= FitWidth(width)) return text;
  const char* dots = "\xe2\x80\xa6";
  const float dots_w = ImGui::CalcTextSize(dots).x;
  size_t n = text.size();
  while (n > 0) {
    do --n;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80);
    if (ImGui::CalcTextSize(text.c_str(), text.c_str() + n).x + dots_w <= FitWidth(width)) break;
  }
  if (n == 0 && dots_w > FitWidth(width)) return {};
  return text.substr(0, n) + dots;
}

// The first wording that fits `width`, else the last one ellipsized.
inline std::string FitText(std::initializer_list<std::string> wordings, float width) {
  std::string last;
  for (const auto& w : wordings) {
    if (ImGui::CalcTextSize(w.c_str()).x <= FitWidth(width)) return w;
    last = w;
  }
  return Ellipsize(last, width);
}

// `text` with its spaces turned into line breaks where a line would pass `width` in `font` at
// `size` px, so that a figure such as "12.5%" is never split at its point (ImGui's own wrapping
// breaks after punctuation). A word wider than `width` keeps its line; draw it with ImGui's
// wrapping at `width` as well.
inline std::string WrapAtSpaces(const ImFont* font, float size, const std::string& text, float width) {
  std::string out;
  float line_w = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t end = text.find_first_of(" \n", i);
    if (end == std::string::npos) end = text.size();
    const float word_w = font->CalcTextSizeA(size, FLT_MAX, 0, text.c_str() + i, text.c_str() + end).x;
    const float space_w = font->CalcTextSizeA(size, FLT_MAX, 0, " ").x;
    if (line_w > 0 && line_w + space_w + word_w > width) {
      out += '\n';
      line_w = 0;
    } else if (line_w > 0) {
      out += ' ';
      line_w += space_w;
    }
    out.append(text, i, end - i);
    line_w += word_w;
    if (end < text.size() && text[end] == '\n') out += '\n', line_w = 0, ++end;
    else if (end < text.size()) ++end;
    i = end;
  }
  return out;
}

// Wrapped lines cut to at most `most` lines (a cut last line ends with an ellipsis,
// the rest of the text with it).
inline std::string KeepLines(const std::string& wrapped, int most, float width) {
  std::string out;
  size_t at = 0;
  for (int line = 0; at < wrapped.size(); ++line) {
    const size_t end = wrapped.find('\n', at);
    if (line + 1 == most && end != std::string::npos) {  // the last line kept, more after it
      std::string rest = wrapped.substr(at);
      std::replace(rest.begin(), rest.end(), '\n', ' ');
      return out + Ellipsize(rest, width);
    }
    out += wrapped.substr(at, end == std::string::npos ? std::string::npos : end - at + 1);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

// Whether an item `width` px wide fits to the right of the last one on its row (ImGui::SameLine
// then a new line would leave the row's content as wide as the spacing, past the window).
inline bool FitsBeside(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  return ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right;
}

}  // namespace ws::visual
