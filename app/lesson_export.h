// `warpscope lesson FILE --export DIR`: each slide in turn, as the window shows it, written as a PNG
// of the window (caption included) and a GIF of the panes playing the slide's steps; then quit.
#pragma once
#include <cstdint>
#include <string>

#include "app/gui_app.h"

namespace ws::app {

class LessonExport {
 public:
  explicit LessonExport(std::string dir) : dir_(std::move(dir)) {}
  bool Active() const { return !dir_.empty() && !done_; }
  // Before a frame: goes to the next slide once the last one is written.
  void BeforeFrame(Gui& gui);
  // After a frame is rendered into the back buffer (fw x fh): the slide's PNG once its picture has
  // settled, then its GIF. False when a file could not be written (the reason is on stderr).
  bool AfterFrame(Gui& gui, int fw, int fh);

  static std::string PngName(int slide);  // "slide-01.png" for the first slide
  static std::string GifName(int slide);

 private:
  enum class Stage { Next, Settle, Gif };
  std::string dir_;
  bool done_ = false;
  Stage stage_ = Stage::Next;
  int slide_ = -1;
  int frames_ = 0;
  uint64_t last_hash_ = 0;
  int written_ = 0, failed_ = 0;
  Clock::time_point deadline_;
};

}  // namespace ws::app
