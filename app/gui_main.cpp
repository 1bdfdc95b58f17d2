// `warpscope gui`: its command-line options and the entry point. The window is gui_app.h.
#include "app/gui_main.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <iostream>

#include "app/cli.h"
#include "app/gif_writer.h"
#include "app/gui_app.h"
#include "app/gui_options.h"
#include "app/gui_script.h"
#include "app/gui_settings.h"
#include "app/lesson.h"

namespace ws::app {

int GuiMain(int argc, char** argv) {
  CLI::App app{"warpscope gui: the desktop program. Scripted runs (tests, screenshots, benchmarks) use the flags below."};
  app.name("warpscope gui");
  GuiOptions o;
  app.add_option("--variant", o.variant, "variant A, FAMILY/VARIANT (default: the one last shown outside a lesson script, or shortcut/v0)");
  app.add_option("--compare", o.compare, "variant B, shown beside A in lockstep");
  app.add_flag("--no-compare", o.no_compare, "show A alone");
  app.add_option("--n", o.n, "problem size (default: the family's teaching size; clamped to the simulator's limit)");
  app.add_option("--block", o.block, "linear block index to show");
  app.add_option("--warp", o.warp, "warp index within the block");
  app.add_option("--step", o.step, "open at this warp instruction (0-based)");
  app.add_option("--iteration", o.iterations, "then press Up (or Down, if negative) this many times");
  app.add_flag("--whole-block", o.whole_block, "show every warp of the block at once");
  app.add_option("--focus", o.focus, "A or B: which pane the source view and the keys follow")->check(CLI::IsMember({"A", "B"}));
  app.add_option("--keys", o.keys, "key presses applied after loading, comma-separated: " + ActionNames());
  app.add_option("--scale", o.scale, "UI scale (0.5 .. 4)");
  app.add_option("--size", o.size, "window size WIDTHxHEIGHT");
  app.add_flag("--fullscreen", o.fullscreen, "start full screen on the primary monitor (F11 toggles)");
  app.add_flag("--no-caches", o.no_caches, "simulate without the cache model: no served-from marks, no L1 view");
  app.add_option("--threads", o.threads,
                 "CPU threads that simulate blocks, half for each pane while two show; the results are the same for any number "
                 "(default: every core, " + std::to_string(DefaultThreads()) + " here)")
      ->check(CLI::Range(1, 1024));
  app.add_flag("--present", o.present, "start in presenter mode: the two memory views alone, large (P toggles)");
  app.add_option("--side", o.side,
                 "the side panel's tab at start: counters (timings and counters), chart (memory chart), l1 (L1 "
                 "cache), l2 (the L2 sets the step looked up) or printf (a kernel file's printf output, once there is some)")
      ->check(CLI::IsMember({"counters", "chart", "l1", "l2", "printf"}));
  app.add_option("--screenshot", o.screenshot,
                 "save a PNG of the window once loaded and stepped: at the first complete picture (the block's steps "
                 "and marks final), while a launch of several waves may still be counting");
  app.add_flag("--wait-counters", o.wait_counters,
               "scripted run: wait for every pane's whole launch (counters, memory chart, check) before the keys, "
               "screenshot or quit");
  app.add_flag("--log-times", o.log_times,
               "print on stderr when each pane's first picture and its whole launch arrive (seconds since start); "
               "the whole launch's line gives its blocks, waves and the threads that ran it");
  app.add_option("--layout-out", o.layout_out, "with --screenshot: save where the views put their grids as JSON");
  app.add_option("--frames", o.frames, "frames to draw after loading before the screenshot / quit (default 6); a screenshot then waits until two frames in a row draw the same");
  app.add_option("--pointer", o.pointer,
                 "scripted run: hold the mouse pointer at X,Y pixels of the window (its tooltip and what it lights are "
                 "in the screenshot)")
      ->check([](const std::string& v) {
        float x, y;
        char end;
        return std::sscanf(v.c_str(), "%f,%f%c", &x, &y, &end) == 2 && x >= 0 && y >= 0 ? std::string()
                                                                                       : "--pointer takes X,Y: two pixel numbers, as 640,360";
      });
  app.add_flag("--quit", o.quit, "quit after the screenshot (or after --frames frames)");
  app.add_option("--benchmark-frames", o.benchmark_frames,
                 "play one step a frame for N frames; print median frame time, variant switch and start-up times; quit");
  app.add_flag("--no-settings", o.no_settings, "neither read nor write the settings file");
  app.add_option("--gif", o.gif, "write an animated GIF of the panes over --steps, then quit");
  app.add_option("--steps", o.steps, "with --gif: the warp instructions to show, FIRST..LAST (default 0..40)");
  app.add_option("--wait-reload", o.wait_reload,
                 "scripted run: after the keys, wait up to this many seconds for a kernel file shown to be saved "
                 "and its new picture drawn, then go on to the screenshot");
  app.add_option("--fps", o.fps, "with --gif: steps per second, 1..50 (default 4)");
  app.add_option("--lesson", o.lesson, "open a lesson script (JSON; see README, \"Writing a lesson\"); Page Down / Page Up "
                                       "move between its slides");
  app.add_option("--export", o.export_dir, "with --lesson: write each slide as DIR/slide-NN.png (the window) and "
                                           "DIR/slide-NN.gif (its steps), then quit");
  app.add_flag("--check", o.check, "with --lesson: simulate every slide and say whether each resolves; no window");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "warpscope gui: " << e.what() << " (see warpscope gui --help)\n";
    return kBadArguments;
  }
  o.frames = std::max(o.frames, 1);
  // A bad export request is refused before anything is simulated.
  StepRange steps;
  std::string why;
  if (!o.gif.empty() && (!ParseStepRange(o.steps, &steps, &why) || !CheckGifRequest(o.gif, o.fps, &why))) {
    std::cerr << "warpscope gui: " << why << "\n";
    return kBadArguments;
  }
  std::optional<Lesson> lesson;
  if (!o.lesson.empty()) {
    if (!(lesson = LoadLesson(o.lesson, &why))) {
      std::cerr << "warpscope: " << why << "\n";
      return kBadArguments;
    }
    // Every slide is simulated and checked before the window opens (about 0.2 s for a shipped
    // lesson), so that a step out of range is said before a lecture, and before an export writes.
    const auto problems = CheckLessonSteps(*lesson);
    for (const auto& p : problems) std::cerr << "warpscope: " << p << "\n";
    if (!problems.empty()) return kBadArguments;
    if (o.check) {
      std::cout << o.lesson << ": " << lesson->slides.size() << " slides, each resolves\n";
      return kOk;
    }
    std::error_code ec;
    if (!o.export_dir.empty() && (std::filesystem::create_directories(o.export_dir, ec), ec)) {
      std::cerr << "warpscope: cannot create " << o.export_dir << ": " << ec.message() << "\n";
      return kBadArguments;
    }
  } else if (!o.export_dir.empty() || o.check) {
    std::cerr << "warpscope gui: --export and --check go with a lesson (warpscope lesson FILE --export DIR)\n";
    return kBadArguments;
  }
  std::string message;
  GuiSettings s = o.no_settings ? GuiSettings{} : LoadSettings(SettingsPath(), &message);
  if (!message.empty()) std::cerr << "warpscope: " << message << "\n";
  try {
    Gui gui(o, s, message);
    if (lesson) gui.SetLesson(std::move(*lesson));
    return gui.Run();
  } catch (const kernels::BadRequest& e) {
    std::cerr << "warpscope: " << e.what() << "\n";
    return kBadArguments;
  }
}

}  // namespace ws::app
