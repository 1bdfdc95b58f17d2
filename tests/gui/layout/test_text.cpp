// Layout rules on text (gui_layout): no text is clipped or outside the window, no two text items
// overlap, no window hides content it has no scrollbar for, and every text's line box is a share
// of the window's height (1.5 %, the step's headline 3 %; presenter mode 3 % and 5 %).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "layout_shots.h"
#include "tests/one_spaced.h"

namespace ws::visual::layout_shots {
namespace {

// Text cut by its clip rectangle. Scrolled content is exempt on the axis its window scrolls.
TEST(LayoutRules, NoTextIsClipped) {
  JudgeEveryLayout("text_clipped", [](const Shot& s, Failures& failed) {
    for (const auto& t : s.layout["text"]) {
      if (!t["clipped"].get<bool>()) continue;
      const Rect r = RectOf(t["rect"]), c = RectOf(t["clip"]);
      const bool cut_x = r.x < c.x - 0.25f || r.x + r.w > c.x + c.w + 0.25f;
      const bool cut_y = r.y < c.y - 0.25f || r.y + r.h > c.y + c.h + 0.25f;
      // Scrolled content: cut only on axes its window, or a window it is in, has a scrollbar for
      // (a pane that scrolls its arrays into sight cuts the label above them).
      bool scrolls_x = false, scrolls_y = false;
      const std::string window = t["window"].get<std::string>();
      for (const auto& w : s.layout["windows"]) {
        const std::string name = w["name"].get<std::string>();
        if (window.compare(0, name.size(), name) != 0 || (window.size() > name.size() && window[name.size()] != '/')) continue;
        scrolls_x = scrolls_x || w.value("scrollbar_x", false);
        scrolls_y = scrolls_y || w.value("scrollbar_y", false);
      }
      if ((cut_x || cut_y) && (!cut_x || scrolls_x) && (!cut_y || scrolls_y)) continue;
      Fail(failed, s, Quote(t));
    }
  });
}

TEST(LayoutRules, NoTextIsOutsideTheWindow) {
  JudgeEveryLayout("text_outside", [](const Shot& s, Failures& failed) {
    for (const auto& t : s.layout["text"])
      if (t["outside"].get<bool>()) {
        Fail(failed, s, Quote(t));
      }
  });
}

TEST(LayoutRules, NoTwoTextItemsOverlap) {
  JudgeEveryLayout("text_overlap", [](const Shot& s, Failures& failed) {
    for (const auto& o : s.layout["text_overlaps"]) {
      Fail(failed, s, Quote(s.layout["text"][o[0].get<int>()]) + " over " + Quote(s.layout["text"][o[1].get<int>()]));
    }
  });
}

TEST(LayoutRules, NoWindowHidesContentItCannotScrollTo) {
  JudgeEveryLayout("window_overflow", [](const Shot& s, Failures& failed) {
    for (const auto& w : s.layout["windows"])
      if (w["overflow"].get<bool>()) {
        const Rect c = RectOf(w["clip"]);
        std::ostringstream d;
        d << WindowName(w["name"].get<std::string>(), w["rect"]) << " (content to " << w["content_right"].get<float>() << ","
          << w["content_bottom"].get<float>() << ", visible to " << c.x + c.w << "," << c.y + c.h << ")";
        Fail(failed, s, d.str());
      }
  });
}

// Text grows with the screen: every text's line box (its font's size as drawn) is at least 1.5 %
// of the window's height, 3 % in presenter mode, and the step's headline (the cost badge's first
// line: the text at the badge's top) at least 3 %, 5 % in presenter mode. The shares are the
// issue's (a slide's 18 pt on 540 pt is 3.3 %); at 1280x720 they are 10.8, 21.6 and 36 px.
TEST(LayoutRules, TextGrowsWithTheScreen) {
  JudgeEveryLayout("text_share", [](const Shot& s, Failures& failed) {
    const float h = float(s.config.h);
    const float text_share = s.config.present ? 0.03f : 0.015f, head_share = s.config.present ? 0.05f : 0.03f;
    std::ostringstream d;
    for (const auto& t : s.layout["text"])
      if (t["line_h"].get<float>() < text_share * h - 0.01f) d << Quote(t) << ": " << t["line_h"].get<float>() << " px; ";
    for (const auto& b : s.layout["placed"]) {
      if (b["kind"] != "badge") continue;
      const Rect r = RectOf(b["rect"]);
      const nlohmann::json* head = nullptr;  // the topmost text inside the badge
      for (const auto& t : s.layout["text"]) {
        const Rect q = RectOf(t["rect"]);
        if (q.x >= r.x - 0.5f && q.y >= r.y - 0.5f && q.x + q.w <= r.x + r.w + 0.5f && q.y + q.h <= r.y + r.h + 0.5f &&
            (!head || q.y < RectOf((*head)["rect"]).y))
          head = &t;
      }
      if (!head) d << b["pane"].get<std::string>() << ": no headline in the badge; ";
      else if ((*head)["line_h"].get<float>() < head_share * h - 0.01f)
        d << "headline " << Quote(*head) << ": " << (*head)["line_h"].get<float>() << " px < " << head_share * h << "; ";
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  });
}

// A warning's kind is on screen whole, in its own strip, however narrow the pane: pairs v2's
// "[warp-synchronous-race]" was cut to "A: warning [warp-synchron…" at 1280x720 and 1920x1080,
// scale 2, beside the "go there" button; the strip is the button there, the kind on its width.
TEST(LayoutRules, AWarningsKindIsOnScreenWhole) {
  JudgeEveryLayout("warning_kind", [](const Shot& s, Failures& failed) {
    for (const auto& t : s.layout["text"]) {
      const std::string text = t["text"].get<std::string>();
      if (text.rfind("A: warning", 0) != 0 && text.rfind("B: warning", 0) != 0) continue;
      const size_t open = text.find('['), close = text.find(']');
      if (open == std::string::npos || close == std::string::npos || close < open) Fail(failed, s, Quote(t) + ": the kind is cut");
    }
  });
}

using ::ws::test::OneSpaced;

// The cost badge's text is on screen whole: what its lines say, read in order with the spaces and
// line breaks as one space, is the caption (headline, then the details, " · " between them), no
// "…". At scale 2 the details were cut to one line ("16 sectors: 16 from DRAM · broadcast…",
// "4 sectors: stores allocate their line in …") in 58 of the 110 shots at 11fe30d.
TEST(LayoutRules, NoBadgeTextIsCut) {
  JudgeEveryLayout("badge_whole", [](const Shot& s, Failures& failed) {
    for (const auto& b : s.layout["placed"]) {
      if (b["kind"] != "badge") continue;
      const Rect r = RectOf(b["rect"]);
      std::vector<std::pair<float, std::string>> lines;  // the texts inside the badge, top first
      for (const auto& t : s.layout["text"]) {
        const Rect q = RectOf(t["rect"]);
        if (q.x >= r.x - 0.5f && q.x < r.x + r.w && q.y >= r.y - 0.5f && q.y < r.y + r.h)
          lines.push_back({q.y, t["text"].get<std::string>()});
      }
      std::sort(lines.begin(), lines.end());
      std::string shown;
      for (const auto& [y, text] : lines) shown += (shown.empty() ? "" : " \xc2\xb7 ") + text;
      const std::string want = OneSpaced(b["name"].get<std::string>());
      if (OneSpaced(shown) != want)
        Fail(failed, s, b["pane"].get<std::string>() + ": the badge shows \"" + OneSpaced(shown) + "\" for \"" + want + "\"");
    }
  });
}

}  // namespace
}  // namespace ws::visual::layout_shots
