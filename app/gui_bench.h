// `warpscope gui --benchmark-frames N`: prints the time to the first frame, to the lesson's
// first picture and to its whole launch, plays one step a frame for N frames and prints the
// median, p90 and p99 frame times (and the median of those drawn while a whole launch was still
// counting behind its first picture) and the process's CPU time per frame (the software
// rasteriser's threads included),
// then switches A to the next variant and prints the time to its first frame, and quits.
#pragma once
#include <vector>

#include "app/gui_app.h"

namespace ws::app {

class FrameBenchmark {
 public:
  FrameBenchmark(int frames, Clock::time_point start) : frames_(frames), start_(start) {
    state_ = frames > 0 ? State::Playing : State::Off;
  }
  // True while the window should step once per frame instead of playing at its own speed.
  bool StepsEveryFrame(bool script_applied) const { return state_ == State::Playing && script_applied; }
  // After a frame that began at t0 was on screen at t1.
  void AfterFrame(Gui& gui, Clock::time_point t0, Clock::time_point t1, bool script_applied);

 private:
  enum class State { Off, Playing, Switching, Done };
  int frames_;
  Clock::time_point start_;
  State state_;
  bool first_frame_ = true, first_loaded_ = true, first_counted_ = true;
  std::vector<double> frame_ms_;
  std::vector<double> counting_ms_;  // the measured frames drawn while a whole launch ran
  double cpu_start_ms_ = 0;
  Clock::time_point switch_start_;
};

}  // namespace ws::app
