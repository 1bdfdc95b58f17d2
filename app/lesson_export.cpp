// Exporting a lesson slide by slide (see lesson_export.h).
#include "app/lesson_export.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/gui_capture.h"

namespace ws::app {
namespace {

constexpr int kLeastFrames = 3;          // frames drawn after a slide's panes arrive, before its PNG
constexpr int kMostSettleFrames = 240;   // then at most this many more, waiting for two the same
constexpr int kGifFps = 2;               // a lecture's pace: two steps a second
constexpr auto kSlideTimeout = std::chrono::seconds(300);

std::string Numbered(int slide, const char* ext) {
  char name[32];
  std::snprintf(name, sizeof name, "slide-%02d.%s", slide + 1, ext);
  return name;
}

}  // namespace

std::string LessonExport::PngName(int slide) { return Numbered(slide, "png"); }
std::string LessonExport::GifName(int slide) { return Numbered(slide, "gif"); }

void LessonExport::BeforeFrame(Gui& gui) {
  if (!Active()) return;
  // The pointer, wherever the display put it, hovers nothing: no tooltip in a slide's picture.
  ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;
  if (stage_ != Stage::Next) return;
  const int count = int(gui.lesson()->slides.size());
  if (++slide_ >= count) {
    std::cerr << "warpscope: wrote " << written_ << " slides (PNG and GIF each) to " << dir_
              << (failed_ ? ", " + std::to_string(failed_) + " failed" : "") << "\n";
    done_ = true;
    gui.Close();
    return;
  }
  if (gui.slide() != slide_) gui.GoToSlide(slide_);  // the first slide is shown as the window opens
  gui.Say("");  // the last GIF's "wrote ..." stays out of this slide's picture
  stage_ = Stage::Settle;
  frames_ = 0;
  last_hash_ = 0;
  deadline_ = Clock::now() + kSlideTimeout;
}

bool LessonExport::AfterFrame(Gui& gui, int fw, int fh) {
  if (!Active()) return true;
  const std::string png = (std::filesystem::path(dir_) / PngName(slide_)).string();
  const std::string gif = (std::filesystem::path(dir_) / GifName(slide_)).string();
  if (stage_ == Stage::Settle) {
    if (gui.SlidePending() || !gui.Loaded()) {
      if (Clock::now() < deadline_) return true;
      std::cerr << "warpscope: slide " << slide_ + 1 << ": its simulation did not finish in time; skipped\n";
      ++failed_;
      stage_ = Stage::Next;
      return false;
    }
    // As a scripted screenshot: once two frames in a row draw the same (see gui_script.cpp).
    const uint64_t hash = HashDrawData(*ImGui::GetDrawData());
    const bool settled = frames_ > 0 && hash == last_hash_;
    last_hash_ = hash;
    if (++frames_ < kLeastFrames || (!settled && frames_ < kLeastFrames + kMostSettleFrames)) return true;
    std::string why;
    if (!SaveScreenshot(png, fw, fh, &why)) {
      std::cerr << "warpscope: " << why << "\n";
      ++failed_;
      stage_ = Stage::Next;
      return false;
    }
    const Slide& s = gui.lesson()->slides[size_t(slide_)];
    const int from = gui.pane(0).step;
    const StepRange play = s.play ? *s.play : StepRange{from, from + kPlaySteps - 1};
    gui.slide_export().RequestGif(gif, play, kGifFps);
    stage_ = Stage::Gif;
    return true;
  }
  if (stage_ == Stage::Gif && !gui.slide_export().Busy()) {
    std::cerr << "warpscope: slide " << slide_ + 1 << ": " << png << "; " << gui.slide_export().Outcome() << "\n";
    stage_ = Stage::Next;
    if (!gui.slide_export().Succeeded()) {
      ++failed_;
      return false;
    }
    ++written_;
  }
  return true;
}

}  // namespace ws::app
