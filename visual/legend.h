// Legend strip: what each colour and outline of the views means (lane colours, line and sector
// outlines, trail, bank conflict, broadcast, masked lane, earlier touches, where a sector was
// served from), always on screen.
// Entries wrap onto more rows rather than clip.
#pragma once
#include <string>
#include <vector>

#include "visual/shown_step.h"

namespace ws::visual {

// How one entry's swatch is drawn.
enum class Swatch { LaneRamp, LineOutline, SectorOutline, Trail, Conflict, Broadcast, Masked, Heat, ServedL1, ServedL2, ServedDram };

struct LegendEntry {
  Swatch swatch;
  std::string label;
  std::string tooltip;  // where it states a rule, the rule's own sentence (sim/rule_text.h)
};

// The entries in the order they are shown.
const std::vector<LegendEntry>& LegendEntries();

class LegendView {
 public:
  // Draws the strip across the available width of the current window; records the lane-colour
  // swatch as kind "legend", name "lanes" (lane k's colour at k/32 of its width).
  void Draw(float scale, std::vector<Placed>* placed);
  // Height the strip takes at `width` (one row, or more where it wraps), for layout.
  static float Height(float width, float scale);
};

}  // namespace ws::visual
