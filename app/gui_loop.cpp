// The event loop: polls, plays, draws and renders one frame at a time, waits for events when
// nothing moves, and saves the settings on the way out (see gui_app.h).
#include "app/gui_app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "app/cli.h"
#include "app/gui_bench.h"
#include "app/gui_script.h"
#include "app/lesson_export.h"

namespace ws::app {

constexpr double kLoadingFrameSeconds = 0.05;
constexpr double kIdleWaitSeconds = 0.25;

int Gui::Run() {
  if (!InitWindow()) return kFailed;
  if (lesson_) {
    GoToSlide(0);
  } else {
    Request(pane_[0]);
    if (Compare()) Request(pane_[1]);
  }

  ScriptedRun script(opt_, start_);
  LessonExport lesson_export(opt_.export_dir);
  FrameBenchmark bench(opt_.benchmark_frames, start_);
  int rc = kOk;
  auto last = Clock::now();
  while (!glfwWindowShouldClose(window_)) {
    const auto t0 = Clock::now();
    glfwPollEvents();
    UpdateScale();  // the window may have been resized (presenter mode's scale follows its height)
    if (fonts_dirty_) LoadFonts();
    PollWorker();
    DecideFollow();
    PollFiles();
    PollTimings();
    if (!script.BeforeFrame(*this)) {
      rc = kFailed;
      break;
    }
    if (lesson_) ApplyPendingSlide();
    lesson_export.BeforeFrame(*this);

    // Playback.
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    if (bench.StepsEveryFrame(script.Applied())) {
      Pane& f = Focused();
      StepAll(f.step + 1 >= int(f.steps.size()) ? -f.step : 1);  // one step a frame, wrapping
    } else if (pb_.playing && Loaded()) {
      play_accum_ += dt * pb_.speed;
      while (play_accum_ >= 1.0) {
        play_accum_ -= 1.0;
        Pane& f = Focused();
        if (f.step + 1 >= int(f.steps.size())) SetStepAll(0);
        else StepAll(1);
      }
    } else {
      play_accum_ = 0;
    }
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (float x, y; !opt_.pointer.empty() && std::sscanf(opt_.pointer.c_str(), "%f,%f", &x, &y) == 2)
      ImGui::GetIO().MousePos = ImVec2(x, y);  // --pointer: where the backend read the real one
    ImGui::NewFrame();
    ApplyKeys();
    DrawFrame();
    ImGui::Render();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window_, &fw, &fh);
    RenderFrame(fw, fh);
    export_.AfterRender(*this, fw, fh);
    if (!script.AfterFrame(*this, fw, fh)) rc = kFailed;
    if (!lesson_export.AfterFrame(*this, fw, fh)) rc = kFailed;
    glfwSwapBuffers(window_);
    glFinish();
    bench.AfterFrame(*this, t0, Clock::now(), script.Applied());
    // Frames only when something moves. While a pane loads or the GPU runs, a frame each 50 ms
    // shows the progress, so the cores go to the work (a software-rendered frame costs as much
    // CPU as a core can give). Idle (not playing, no scripted run or export, no input for half a
    // second), the window waits for an event, up to 250 ms (a kernel file saved, GPU results).
    // Input, and the worker's result, wake the loop at once.
    const bool loading = pane_[0].loading || (Compare() && pane_[1].loading) || timings_.running;
    const bool moving = (pb_.playing && Loaded()) || script.Active() || export_.Busy() || lesson_export.Active() ||
                        Clock::now() - last_input_ < std::chrono::milliseconds(500);
    if (loading) glfwWaitEventsTimeout(kLoadingFrameSeconds);
    else if (!moving) glfwWaitEventsTimeout(kIdleWaitSeconds);
  }

  if (!opt_.no_settings) {
    settings_.scale = base_scale_;
    // A lesson's slides are the script's, not the user's choice: the variants saved stay those
    // last shown outside a lesson.
    if (!lesson_) {
      settings_.variant = pane_[0].Id();
      settings_.compare = pane_[1].Id();
      settings_.compare_on = compare_on_;
    }
    if (!fullscreen_) glfwGetWindowSize(window_, &settings_.width, &settings_.height);
    std::string why;
    if (!SaveSettings(settings_, SettingsPath(), &why)) std::cerr << "warpscope: " << why << "\n";
  }
  gpu_.reset();
  CloseWindow();
  return rc;
}

}  // namespace ws::app
