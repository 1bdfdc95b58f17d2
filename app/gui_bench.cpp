// The frame benchmark (see gui_bench.h).
#include "app/gui_bench.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace ws::app {
namespace {
double Ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
// CPU time of the whole process (every thread, the software rasteriser's included), in ms.
double ProcessCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}
}  // namespace

void FrameBenchmark::AfterFrame(Gui& gui, Clock::time_point t0, Clock::time_point t1, bool script_applied) {
  if (state_ == State::Off) return;
  if (first_frame_) {
    first_frame_ = false;
    std::printf("startup_to_first_frame_ms=%.1f\n", Ms(start_, t1));
  }
  if (first_loaded_ && gui.Loaded()) {
    first_loaded_ = false;
    std::printf("startup_to_lesson_frame_ms=%.1f\n", Ms(start_, t1));  // the first complete picture
    std::fflush(stdout);
  }
  if (first_counted_ && state_ != State::Switching && gui.Counted()) {
    first_counted_ = false;
    std::printf("startup_to_whole_launch_ms=%.1f\n", Ms(start_, t1));
    std::fflush(stdout);
  }
  if (state_ == State::Playing && script_applied) {
    // CPU time is counted from the end of the first measured frame: the frames after it.
    if (frame_ms_.empty()) cpu_start_ms_ = ProcessCpuMs();
    frame_ms_.push_back(Ms(t0, t1));
    if (!gui.Counted()) counting_ms_.push_back(Ms(t0, t1));
    if (int(frame_ms_.size()) < frames_) return;
    if (!counting_ms_.empty()) {
      std::sort(counting_ms_.begin(), counting_ms_.end());
      std::printf("frames_while_counting=%zu median_frame_ms_while_counting=%.2f p90_frame_ms_while_counting=%.2f\n",
                  counting_ms_.size(), counting_ms_[counting_ms_.size() / 2], counting_ms_[counting_ms_.size() * 9 / 10]);
    }
    const double cpu_ms = (ProcessCpuMs() - cpu_start_ms_) / double(std::max<size_t>(frame_ms_.size() - 1, 1));
    std::sort(frame_ms_.begin(), frame_ms_.end());
    std::printf("frames=%zu median_frame_ms=%.2f p90_frame_ms=%.2f p99_frame_ms=%.2f cpu_ms_per_frame=%.2f\n", frame_ms_.size(),
                frame_ms_[frame_ms_.size() / 2], frame_ms_[frame_ms_.size() * 9 / 10], frame_ms_[frame_ms_.size() * 99 / 100],
                cpu_ms);
    // Switch A to another variant of the family at its teaching size: time to its first frame.
    const auto& a = gui.pane(0).variant;
    const auto& vs = a.family->info.variants;
    const size_t next = (size_t(a.variant - vs.data()) + 1) % vs.size();
    switch_start_ = Clock::now();
    gui.ShowVariant(0, {a.family, &vs[next]}, true);
    state_ = State::Switching;
  } else if (state_ == State::Switching && !gui.pane(0).loading) {
    std::printf("switch_variant_to_first_frame_ms=%.1f (%s at n=%d)\n", Ms(switch_start_, t1), gui.pane(0).Id().c_str(),
                gui.pane(0).n);
    std::fflush(stdout);
    state_ = State::Done;
    gui.Close();
  }
}

}  // namespace ws::app
