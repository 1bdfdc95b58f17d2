// The desktop program's keys: one table of what each key does, read by the key handler, the help
// window, `--keys` (scripted presses by name) and the README's key list (checked by a test).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ws::app {

// What a key does; the keyboard, the buttons and `--keys` name the same actions.
enum class Action {
  PlayPause, Next, Previous, First, NextIteration, PreviousIteration, SwitchFocus, Help,
  CloseHelp,
  Present,     // presenter mode on/off
  Follow,      // how B follows A: in lockstep, by source role, alone
  FullScreen,  // full screen on/off
  ScaleUp, ScaleDown,  // the user's UI scale
  RunOnGpu,    // time every variant of A's family on the GPU ("run on GPU")
};

struct KeyBinding {
  int key;            // GLFW_KEY_*; 0 for an action no key presses (a button's)
  bool ctrl;          // Ctrl must be held; the other keys act whatever modifiers are held
  bool repeats;       // acts again while the key is held
  bool while_typing;  // acts even while a text field has the keyboard
  Action action;
  const char* name;   // its `--keys` name; null for a second key of the same action
  const char* label;  // the key as the help and the README write it; null: not listed
  const char* help;   // what it does; empty: the key shares the row of the entry before ("← / →")
};

// Every binding, in the order the help lists them.
const std::vector<KeyBinding>& KeyTable();

// One row of the help window and of the README's key list: "← / →", "left / right", "one warp
// instruction back / forward".
struct KeyRow {
  std::string keys, names, help;
};
std::vector<KeyRow> KeyRows();
// The README's key list as Markdown, a header and one line per row.
std::string KeyRowsMarkdown();

// The action a --keys name stands for ("right", "up", "tab", ...), or none for an unknown name.
std::optional<Action> ActionNamed(const std::string& name);
// The names ActionNamed knows, for --help: "space,left,right,...".
std::string ActionNames();

}  // namespace ws::app
