// The desktop program's keys (see key_table.h).
#include "app/key_table.h"

#include <GLFW/glfw3.h>

namespace ws::app {

const std::vector<KeyBinding>& KeyTable() {
  using T = KeyTarget;
  // key, ctrl, repeats, while typing, action, --keys name, label, help, function
  static const std::vector<KeyBinding> table = {
      {GLFW_KEY_SPACE, false, false, false, Action::PlayPause, "space", "Space", "play / pause",
       [](T& t) { t.PlayPause(); }},
      {GLFW_KEY_LEFT, false, true, false, Action::Previous, "left", "\xe2\x86\x90", "one warp instruction back / forward",
       [](T& t) { t.Step(-1); }},
      {GLFW_KEY_RIGHT, false, true, false, Action::Next, "right", "\xe2\x86\x92", "", [](T& t) { t.Step(+1); }},
      {GLFW_KEY_UP, false, true, false, Action::NextIteration, "up", "\xe2\x86\x91",
       "the same source line one loop iteration forward / back", [](T& t) { t.Iterate(+1); }},
      {GLFW_KEY_DOWN, false, true, false, Action::PreviousIteration, "down", "\xe2\x86\x93", "", [](T& t) { t.Iterate(-1); }},
      {GLFW_KEY_HOME, false, true, false, Action::First, "home", "Home", "the first instruction",
       [](T& t) { t.GoToStep(0); }},
      {GLFW_KEY_TAB, false, false, false, Action::SwitchFocus, "tab", "Tab",
       "switch focus between variant A and variant B (the focused pane leads)", [](T& t) { t.SwitchFocus(); }},
      {GLFW_KEY_L, false, false, false, Action::Follow, "follow", "L",
       "how the other pane follows: in lockstep, by source role, or alone", [](T& t) { t.NextFollow(); }},
      {GLFW_KEY_P, false, false, false, Action::Present, "present", "P",
       "presenter mode on / off: the two memory views alone, large", [](T& t) { t.TogglePresent(); }},
      {GLFW_KEY_F11, false, false, true, Action::FullScreen, "fullscreen", "F11",
       "full screen on / off (--fullscreen starts that way)", [](T& t) { t.ToggleFullScreen(); }},
      {GLFW_KEY_EQUAL, true, true, true, Action::ScaleUp, "larger", "Ctrl+=", "scale the whole interface up / down",
       [](T& t) { t.Scale(+1); }},
      {GLFW_KEY_MINUS, true, true, true, Action::ScaleDown, "smaller", "Ctrl+-", "", [](T& t) { t.Scale(-1); }},
      {GLFW_KEY_KP_ADD, true, true, true, Action::ScaleUp, nullptr, nullptr, nullptr, [](T& t) { t.Scale(+1); }},
      {GLFW_KEY_KP_SUBTRACT, true, true, true, Action::ScaleDown, nullptr, nullptr, nullptr, [](T& t) { t.Scale(-1); }},
      {GLFW_KEY_PAGE_DOWN, false, false, false, Action::NextSlide, "next-slide", "Page Down",
       "a lesson's next / previous slide (presentation clickers send these)", [](T& t) { t.NextSlide(+1); }},
      {GLFW_KEY_PAGE_UP, false, false, false, Action::PreviousSlide, "previous-slide", "Page Up", "",
       [](T& t) { t.NextSlide(-1); }},
      {GLFW_KEY_S, false, false, false, Action::Sass, "sass", "S",
       "the SASS nvcc made of the kernel in place of its source (the step's instructions lit) / the source",
       [](T& t) { t.ToggleSass(); }},
      {GLFW_KEY_C, false, false, false, Action::AsCompiled, "as-compiled", "C",
       "the counters as the compiled code runs them, beside the simulated ones, on / off",
       [](T& t) { t.ToggleAsCompiled(); }},
      {GLFW_KEY_K, false, false, false, Action::CacheView, "cache", "K",
       "the L1 cache beside the panes, then the L2 cache, then neither (the side panel's tabs; in presenter mode and at large "
       "scales a column of its own)",
       [](T& t) { t.NextCacheView(); }},
      {GLFW_KEY_F1, false, false, true, Action::Help, "help", "F1", "the keys, and a glossary of the words the views use",
       [](T& t) { t.ToggleHelp(); }},
      {GLFW_KEY_ESCAPE, false, false, true, Action::CloseHelp, "escape", "Esc", "close the help", [](T& t) { t.CloseHelp(); }},
      // the "run on GPU" button
      {0, false, false, false, Action::RunOnGpu, "gpu", nullptr, nullptr, [](T& t) { t.RunOnGpu(); }},
  };
  return table;
}

void Press(Action a, KeyTarget& target) {
  for (const auto& k : KeyTable())
    if (k.action == a) {
      k.run(target);
      return;
    }
}

std::vector<KeyRow> KeyRows() {
  std::vector<KeyRow> rows;
  for (const auto& k : KeyTable()) {
    if (!k.label) continue;
    const std::string name = k.name ? k.name : "";
    if (k.help[0] == '\0' && !rows.empty()) {
      rows.back().keys += std::string(" / ") + k.label;
      rows.back().names += " / " + name;
    } else {
      rows.push_back({k.label, name, k.help});
    }
  }
  return rows;
}

std::string KeyRowsMarkdown() {
  std::string md = "| key | `--keys` | what it does |\n| --- | --- | --- |\n";
  for (const auto& r : KeyRows()) md += "| " + r.keys + " | " + r.names + " | " + r.help + " |\n";
  return md;
}

std::optional<Action> ActionNamed(const std::string& name) {
  for (const auto& k : KeyTable())
    if (k.name && name == k.name) return k.action;
  return std::nullopt;
}

std::string ActionNames() {
  std::string out;
  for (const auto& k : KeyTable())
    if (k.name) out += (out.empty() ? "" : ",") + std::string(k.name);
  return out;
}

}  // namespace ws::app
