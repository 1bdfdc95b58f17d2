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

// A short window's strip of the entries `use` says are drawn, every one of them (a colour hidden
// behind "+N" had no meaning on screen): one row at the text's size where they fit, else at a
// smaller size, down to a line of kLegendLeastShare of the window's height (a slide's smallest
// text), else in as many rows of even length as that size needs.
inline constexpr float kLegendLeastShare = 0.03f;
struct LegendFit {
  float font_scale = 1;  // times the current font's size
  int rows = 1;
  float wrap_w = 0;  // where its rows break: the least width that holds them in `rows` (rows of even length)
};
LegendFit FitLegend(const LegendUse& use, float width, float scale, float window_h);

class LegendView {
 public:
  // Draws the strip across the available width of the current window; records the lane-colour
  // swatch as kind "legend", name "lanes" (lane k's colour at k/32 of its width). With `only`
  // (a short window), the entries it uses as FitLegend fits them.
  void Draw(float scale, std::vector<Placed>* placed, const LegendUse* only = nullptr);
  // Height the strip takes at `width` (its rows where it wraps; with `only`, FitLegend's), for layout.
  static float Height(float width, float scale, const LegendUse* only = nullptr);
};

}  // namespace ws::visual
