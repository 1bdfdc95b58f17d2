// Fault banner: the first error the simulator found in a pane, as one red strip that wraps over
// the panes, and the first warning (a race and the like) as one ochre line atop its pane. It
// says what went wrong and where — block, thread, line and address only when the finding has
// them (a refused launch ran no thread) — with a "go there" button when there is a place to go.
#pragma once
#include <string>

#include "sim/trace.h"

namespace ws::visual {

// The banner's text for pane "A"/"B": the pane, then the finding's one text (sim::FindingText),
// as stats prints it: "A: error [out-of-bounds] line 42, block (1,0,0), thread (3,0,0), address
// 0x1000: the thread accesses ...".
std::string FaultText(const std::string& pane, const sim::Trace& trace, const sim::Finding& f);

class FaultBannerView {
 public:
  // Draws the banner across the available width, red for an error and ochre for a warning
  // (sim::IsError), wrapped or (`one_line`) cut to one line with the whole text in its tooltip;
  // true when "go there" was pressed.
  bool Draw(const std::string& pane, const sim::Trace& trace, const sim::Finding& f, float scale, bool one_line = false);
};

}  // namespace ws::visual
