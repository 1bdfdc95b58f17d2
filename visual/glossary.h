// Glossary: the words the views use (request, sector, line, wavefront, bank, ...), each in one
// plain sentence, for the help window (F1) beside the key table.
#pragma once
#include <string>
#include <vector>

namespace ws::visual {

struct Term {
  std::string word;
  std::string meaning;  // where it states a rule, the rule's own sentence (sim/rule_text.h)
};

const std::vector<Term>& Glossary();

// Draws the glossary as a two-column table that wraps within `width` pixels.
void DrawGlossary(float width);

}  // namespace ws::visual
