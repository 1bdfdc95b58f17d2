// Text compared as words: every run of spaces and line breaks made one space, none at the ends
// (wrapped lines on screen, Markdown's wrapped paragraphs).
#pragma once
#include <string>

namespace ws::test {

inline std::string OneSpaced(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace ws::test
