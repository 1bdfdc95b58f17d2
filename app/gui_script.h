// A scripted run of the window (tests, screenshots, documentation): once every pane has its
// first complete picture (with --wait-counters: its whole launch, counters and chart too),
// go to --step, press Up/Down --iteration times and apply the --keys presses; then, after
// --frames frames (after a kernel file's save is redrawn, with --wait-reload) and once two frames
// in a row draw the same, save the screenshot and layout, write the --gif, and quit.
#pragma once
#include "app/gui_app.h"

namespace ws::app {

class ScriptedRun {
 public:
  ScriptedRun(const GuiOptions& opt, Clock::time_point start);
  // Before a frame is drawn: applies the script once the panes are loaded. False when the run
  // has waited too long for the simulation (the reason is on stderr).
  bool BeforeFrame(Gui& gui);
  // After a frame is rendered into the back buffer (fw x fh): saves what was asked and quits
  // when done. False if something could not be saved (the reason is on stderr).
  bool AfterFrame(Gui& gui, int fw, int fh);
  bool Applied() const { return applied_; }
  bool Active() const { return active_; }  // a scripted run (screenshot, benchmark, keys, GIF)

 private:
  const GuiOptions& opt_;
  bool active_ = false;
  bool applied_ = false;
  int frames_after_ = 0;
  uint64_t last_hash_ = 0;   // the last frame's draw data (a screenshot waits for two the same)
  bool shot_taken_ = false;
  bool gif_requested_ = false;
  Clock::time_point deadline_;
  Clock::time_point reload_deadline_;  // --wait-reload
};

}  // namespace ws::app
