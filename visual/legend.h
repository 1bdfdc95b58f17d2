// Legend strip: what each colour and outline of the views means (lane colours, line and sector
// outlines, trail, bank conflict, broadcast, masked lane, earlier touches, where a sector was
// served from), always on screen.
// Entries wrap onto more rows rather than clip; a short window's strip is one row of the entries
// the shown steps draw (LegendUse).
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

// What the shown steps draw, read off their instructions: global requests (line and sector
// outlines, where each sector was served from), shared ones (banks), a conflict, a broadcast
// (lanes sharing an address), masked lanes, and earlier steps (the trail, touched before).
struct LegendUse {
  bool global = false, shared = false, conflict = false, broadcast = false, masked = false, served = false, earlier = false;
};
LegendUse LegendUseOf(const std::vector<const sim::WarpInstruction*>& shown, bool earlier_steps);
// Whether an entry explains something `use` says is drawn (the lane colours always).
bool Explains(Swatch s, const LegendUse& use);

class LegendView {
 public:
  // Draws the strip across the available width of the current window; records the lane-colour
  // swatch as kind "legend", name "lanes" (lane k's colour at k/32 of its width). With `only`
  // (a short window), one row of the entries it uses; any that do not fit are named in the
  // tooltip of a last entry, "+N".
  void Draw(float scale, std::vector<Placed>* placed, const LegendUse* only = nullptr);
  // Height the strip takes at `width` (one row, or more where it wraps), for layout.
  static float Height(float width, float scale, bool one_row = false);
};

}  // namespace ws::visual
