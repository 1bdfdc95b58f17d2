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
  NextSlide, PreviousSlide,  // a lesson's slides (what a presentation clicker sends)
  Sass,        // the compiled kernel's SASS listing in place of the source, and back
  AsCompiled,  // the counters as the compiled code runs them, in a column beside the simulated ones
  CacheView,   // the L1 cache's view beside the panes, then the L2's, then neither
};

// What the keys act on: the window (gui_app.h) implements it; each binding's function calls one
// of these, so the table, not a switch elsewhere, says what a key does.
class KeyTarget {
 public:
  virtual ~KeyTarget() = default;
  virtual void PlayPause() = 0;
  virtual void Step(int delta) = 0;      // warp instructions forward (> 0) or back
  virtual void GoToStep(int step) = 0;
  virtual void Iterate(int dir) = 0;     // the same source line, one loop iteration forward or back
  virtual void SwitchFocus() = 0;
  virtual void ToggleHelp() = 0;
  virtual void CloseHelp() = 0;
  virtual void TogglePresent() = 0;
  virtual void NextFollow() = 0;         // in lockstep -> by source role -> alone -> ...
  virtual void ToggleFullScreen() = 0;
  virtual void Scale(int dir) = 0;       // the user's UI scale one notch up (> 0) or down
  virtual void RunOnGpu() = 0;
  virtual void NextSlide(int dir) = 0;   // a lesson's next (> 0) or previous slide
  virtual void ToggleSass() = 0;
  virtual void ToggleAsCompiled() = 0;
  virtual void NextCacheView() = 0;      // the side tab: L1 cache -> L2 cache -> timings -> L1 cache ...
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
  void (*run)(KeyTarget&);  // what pressing it does
};

// Every binding, in the order the help lists them.
const std::vector<KeyBinding>& KeyTable();

// Does `a` on `target`: the function of the action's first binding.
void Press(Action a, KeyTarget& target);

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
