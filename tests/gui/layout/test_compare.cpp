// Layout rules of stepping and comparing (gui_layout): step numbers are the same in every mode,
// and B follows A by role where the roles match, saying so on screen.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "layout_shots.h"

namespace ws::visual::layout_shots {
namespace {

// The frame's text with every run of spaces and line breaks made one space (wrapped lines).
std::string FrameText(const Shot& s) {
  std::string all;
  for (const auto& t : s.layout["text"]) {
    for (char c : t["text"].get<std::string>()) {
      const bool space = c == ' ' || c == '\n';
      if (!(space && (all.empty() || all.back() == ' '))) all += space ? ' ' : c;
    }
    all += ' ';
  }
  return all;
}

// Step numbers are the same in every mode: a family's pair at one window size and scale stands at
// the same steps in the normal layout and in presenter mode, and says each focused step the same
// way, from 0 ("step 2 (0-3)": the timeline's slider, presenter mode's status line).
TEST(LayoutRules, StepNumbersAreTheSameInEveryMode) {
  std::map<std::string, const Shot*> normal;
  for (const auto& s : Shots())
    if (s.layout.is_object() && !s.config.present) normal[s.family + " " + Config{s.config.w, s.config.h, s.config.scale, false}.Name()] = &s;
  JudgeEveryLayout("step_numbers", [&](const Shot& s, Failures& failed) {
    std::ostringstream d;
    const std::string text = FrameText(s);
    for (const auto& p : s.layout["panes"]) {
      const std::string label = p["label"].get<std::string>();
      const int step = p["step"].get<int>(), steps = p["steps"].get<int>();
      // The label, worked out here: counted from 0, the range of the warp's steps.
      const std::string want = steps ? "step " + std::to_string(step) + " (0\xe2\x80\x93" + std::to_string(steps - 1) + ")" : "no steps";
      if (label != want) d << p["pane"].get<std::string>() << " says \"" << label << "\", not \"" << want << "\"; ";
      if (p["pane"] == s.layout["focus"] && text.find(label) == std::string::npos)
        d << "\"" << label << "\" is not on screen; ";
    }
    if (s.config.present) {
      const auto n = normal.find(s.family + " " + Config{s.config.w, s.config.h, s.config.scale, false}.Name());
      if (n != normal.end() && n->second->layout["panes"] != s.layout["panes"])
        d << "presenter " << s.layout["panes"].dump() << " vs normal " << n->second->layout["panes"].dump() << "; ";
    }
    if (!d.str().empty()) failed[Key(s)] = d.str();
  });
}

// Pairs that mean something: with two panes the follow mode is recorded and said on screen; where
// the rule chose "by role" the two panes' steps have the same role (the same operation, space and
// array name); and pairs v1 at its atomic (step 64: 32 loads each of a and b, then the atomicAdd,
// a reduction) has v3's atomic beside it (step 66: v3 first copies b into the tile, 2 steps).
TEST(LayoutRules, BFollowsAByRoleWhereTheRolesMatch) {
  JudgeEveryLayout("follow_by_role", [](const Shot& s, Failures& failed) {
    if (s.layout["panes"].size() != 2) return;
    std::ostringstream d;
    const auto& f = s.layout["follow"];
    const auto& a = s.layout["panes"][0];
    const auto& b = s.layout["panes"][1];
    const std::string mode = f["mode"].get<std::string>(), words = f["words"].get<std::string>();
    const std::string why = f["why"].get<std::string>();
    const std::map<std::string, std::string> said = {{"roles match", "B follows A by role"},
                                                     {"same steps", "B follows A in lockstep: same steps"},
                                                     {"roles differ", "B follows A in lockstep: roles differ"}};
    if (!said.count(why)) d << "mode " << mode << " not by the rule (" << why << "); ";
    else if (words != said.at(why) || (mode == "role") != (why == "roles match")) d << mode << " says \"" << words << "\"; ";
    if (mode == "role" && a["role"] != b["role"]) d << "A " << a["role"] << " beside B " << b["role"] << "; ";
    // The status line says all of the sentence; the timeline's button as much of it as fits
    // ("B: in lockstep" at the least).
    const std::string text = FrameText(s);
    const std::string least = mode == "role" ? "role" : mode == "lockstep" ? "lockstep" : "alone";
    if (text.find(s.config.present ? words : least) == std::string::npos) d << "\"" << words << "\" is not on screen; ";
    if (s.family == "pairs+atomic" &&
        (mode != "role" || a["step"] != 64 || b["step"] != 66 || a["role"] != "red.global ans" || b["role"] != "red.global ans"))
      d << "A " << a.dump() << ", B " << b.dump() << "; ";
    if (!d.str().empty()) failed[Key(s)] = d.str();
  });
}

}  // namespace
}  // namespace ws::visual::layout_shots
