// The desktop program's keys (see key_table.h).
#include "app/key_table.h"

#include <GLFW/glfw3.h>

namespace ws::app {

const std::vector<KeyBinding>& KeyTable() {
  // key, ctrl, repeats, while typing, action, --keys name, label, help
  static const std::vector<KeyBinding> table = {
      {GLFW_KEY_SPACE, false, false, false, Action::PlayPause, "space", "Space", "play / pause"},
      {GLFW_KEY_LEFT, false, true, false, Action::Previous, "left", "\xe2\x86\x90", "one warp instruction back / forward"},
      {GLFW_KEY_RIGHT, false, true, false, Action::Next, "right", "\xe2\x86\x92", ""},
      {GLFW_KEY_UP, false, true, false, Action::NextIteration, "up", "\xe2\x86\x91",
       "the same source line one loop iteration forward / back"},
      {GLFW_KEY_DOWN, false, true, false, Action::PreviousIteration, "down", "\xe2\x86\x93", ""},
      {GLFW_KEY_HOME, false, true, false, Action::First, "home", "Home", "the first instruction"},
      {GLFW_KEY_TAB, false, false, false, Action::SwitchFocus, "tab", "Tab",
       "switch focus between variant A and variant B (the focused pane leads)"},
      {GLFW_KEY_L, false, false, false, Action::Follow, "follow", "L",
       "how the other pane follows: in lockstep, by source role, or alone"},
      {GLFW_KEY_P, false, false, false, Action::Present, "present", "P",
       "presenter mode on / off: the two memory views alone, large"},
      {GLFW_KEY_F11, false, false, true, Action::FullScreen, "fullscreen", "F11",
       "full screen on / off (--fullscreen starts that way)"},
      {GLFW_KEY_EQUAL, true, true, true, Action::ScaleUp, "larger", "Ctrl+=", "scale the whole interface up / down"},
      {GLFW_KEY_MINUS, true, true, true, Action::ScaleDown, "smaller", "Ctrl+-", ""},
      {GLFW_KEY_KP_ADD, true, true, true, Action::ScaleUp, nullptr, nullptr, nullptr},
      {GLFW_KEY_KP_SUBTRACT, true, true, true, Action::ScaleDown, nullptr, nullptr, nullptr},
      {GLFW_KEY_F1, false, false, true, Action::Help, "help", "F1", "the keys, and a glossary of the words the views use"},
      {GLFW_KEY_ESCAPE, false, false, true, Action::CloseHelp, "escape", "Esc", "close the help"},
      {0, false, false, false, Action::RunOnGpu, "gpu", nullptr, nullptr},  // the "run on GPU" button
  };
  return table;
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
