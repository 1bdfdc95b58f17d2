// What `warpscope gui` was asked on its command line (parsed in gui_main.cpp, used by the window,
// the scripted run and the benchmark).
#pragma once
#include <string>

namespace ws::app {

struct GuiOptions {
  std::string variant, compare;
  bool no_compare = false;
  int n = 0;
  int block = 0, warp = 0, step = 0, iterations = 0;
  bool whole_block = false;
  std::string focus = "A";
  std::string keys;  // scripted key presses: "right,right,up,tab,space"
  float scale = 0;
  std::string size;
  bool fullscreen = false;
  bool present = false;  // start in presenter mode
  bool no_caches = false;  // simulate without the cache model: no served-from marks, no L1 view
  int threads = 0;  // CPU threads that simulate blocks, half a pane while two show; 0: every core
  std::string side = "counters";  // the side panel's tab at start: "counters", "chart", "l1", "l2" or "printf"
  std::string screenshot, layout_out;
  bool wait_counters = false;  // scripted run: go on once every pane's whole launch has run, not at its first picture
  bool log_times = false;      // stderr: when each pane's first picture and whole launch arrive
  int frames = 6;
  // Scripted run: the mouse pointer held at x,y px of the window (a tooltip, and what a hovered
  // mark or cache slot lights, in the screenshot); empty: a scripted run ignores the mouse.
  std::string pointer;
  bool quit = false;
  int benchmark_frames = 0;
  bool no_settings = false;
  std::string gif, steps = "0..40";  // --gif: write the panes over these steps, then quit
  int fps = 4;
  int wait_reload = 0;
  std::string lesson;      // a lesson script to open (warpscope lesson FILE)
  std::string export_dir;  // with a lesson: write each slide's PNG and GIF here, then quit
  bool check = false;      // with a lesson: check every slide (simulating each) and quit, no window  // scripted run: seconds to wait for a kernel file to be saved and redrawn
};

}  // namespace ws::app
