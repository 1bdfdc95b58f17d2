// LineOf: the line of a source text that holds a piece of kernel code, so that tests name source
// lines by what is written on them rather than by number.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace ws::test {

// The line (1-based) of `source` that holds `text`, looked for in the function that opens on
// the line holding `after` (up to the next line that is "}" alone), or in the whole source when
// `after` is empty. Fails the test, and returns 0, unless exactly one line there holds it.
inline uint32_t LineOf(const std::string& source, const std::string& text, const std::string& after = "") {
  uint32_t line = 0, found = 0, count = 0;
  bool inside = after.empty();
  size_t start = 0;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    const std::string row = source.substr(start, end - start);
    ++line;
    start = end + 1;
    if (!inside) {
      inside = row.find(after) != std::string::npos;
      continue;
    }
    if (!after.empty() && row == "}") break;
    if (row.find(text) != std::string::npos) {
      found = line;
      ++count;
    }
  }
  EXPECT_EQ(count, 1u) << "'" << text << "' should be on exactly one line"
                       << (after.empty() ? std::string() : " of the function at '" + after + "'");
  return count == 1 ? found : 0;
}

}  // namespace ws::test
