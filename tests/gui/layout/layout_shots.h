// The shots the lecture-hall layout rules are measured on, and the helpers the rules share: every
// family's default pair (its first two variants, from the catalog) and a few chosen steps, run by
// warpscope with --layout-out at 1280x720 and 1920x1080, UI scales 1 and 2, in the normal layout
// and in presenter mode. Shots() takes them once per run of ws_gui_layout_tests, whichever rule
// asks first; each test_*.cpp beside this file holds the rules of one concern. A rule is a
// TEST(LayoutRules, TheRule) whose JudgeEveryLayout("rule", ...) looks at each shot's layout and
// adds what fails with Fail(failed, shot, ...); a new concern is a new test_<concern>.cpp here
// (CMake finds it).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "visual/layout.h"

namespace ws::visual::layout_shots {

// One window: its size, --scale and presenter mode.
struct Config {
  int w, h;
  float scale;
  bool present;
  std::string Name() const {
    std::ostringstream s;
    s << w << "x" << h << "@" << scale << (present ? "+present" : "");
    return s.str();
  }
};

// One run of warpscope and the layout it wrote (null where it wrote none).
struct Shot {
  std::string family, cmd;
  std::string log;  // the run's exit status and output when it produced no layout
  Config config;
  nlohmann::json layout;
};

// Every family's default pair in every configuration (taken on the first call, two processes at a time).
const std::vector<Shot>& Shots();

// What a rule found wrong: "family config" (Key) -> details.
using Failures = std::map<std::string, std::string>;

// Every check must hold in every configuration: what failed (key "family config" -> details).
void Judge(const std::string& check, const Failures& failed);

// The loop every rule shares: rule(shot, failed) on each shot that wrote a layout (a shot that
// wrote none fails EveryConfigurationProducedALayout), then Judge(check, failed).
template <class Rule>
void JudgeEveryLayout(const std::string& check, Rule rule) {
  Failures failed;
  for (const Shot& s : Shots())
    if (s.layout.is_object()) rule(s, failed);
  Judge(check, failed);
}

// "family config", the key a rule's failures are listed under.
std::string Key(const Shot& s);

// Adds `what` to shot s's failures in `failed` (under Key(s), joined by "; ").
void Fail(Failures& failed, const Shot& s, const std::string& what);

// The grid a pane draws of an array in a layout (null where it draws none).
const nlohmann::json* GridOf(const nlohmann::json& layout, const nlohmann::json& pane, const nlohmann::json& array);

// Whether a window of the layout ("warpscope##root/pane_1A2B3C4D") is a pane, not a child of one.
bool IsPane(const std::string& window);

Rect RectOf(const nlohmann::json& r);

// "warpscope##root/pane_1A2B3C4D" at (642, 60) -> "pane@642,60".
std::string WindowName(const std::string& full, const nlohmann::json& rect);

// A text item of the layout as a failure names it: its first 60 characters and its window.
std::string Quote(const nlohmann::json& t);

// The side of a placed grid's cells, px: the memory view's own, else the grid's layout in its rectangle.
float CellSize(const nlohmann::json& g);

}  // namespace ws::visual::layout_shots
