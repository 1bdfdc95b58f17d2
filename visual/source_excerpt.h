// The step's source line and the lines around it, in the room that presenter mode's picture leaves
// at the bottom of a pane: presenter mode draws no source view, and a hall reads the code that
// made the access next to what the access did.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "visual/shown_step.h"

namespace ws::visual {

// Which lines of `text` to show for the step's `line` (1-based) in `rows` rows. The excerpt is
// centred on the line where the text allows; where the count is even, the extra line goes
// below, to the code that follows. Blank lines at either end are dropped. Returns first and last, 1-based and
// inclusive; {0, 0}: none (line 0, a line past the text, or no rows). Pure, for tests.
struct ExcerptLines {
  uint32_t first = 0, last = 0;
};
ExcerptLines ExcerptAround(const std::string& text, uint32_t line, int rows);

// Draws the excerpt in the mono font, as many rows as `height` holds; nothing where not even the
// step's line fits. Each line is cut with "…" to the width and starts with its number. The step's
// line is on the highlight, and the lines' common indentation is removed. The excerpt is
// recorded in `placed` as kind "source", named "line N" (N: the step's line). Returns the height used.
float DrawSourceExcerpt(const ShownStep& shown_step, const std::string& text, float height, void* mono_font,
                        std::vector<Placed>* placed);

}  // namespace ws::visual
