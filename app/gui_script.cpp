// The scripted run (see gui_script.h).
#include "app/gui_script.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

#include <imgui.h>

#include "app/gif_writer.h"
#include "app/gui_capture.h"

namespace ws::app {

namespace {

// Frames a screenshot waits, beyond --frames, for the picture to stop changing.
constexpr int kMostSettleFrames = 240;

StepState StepStateOf(const Gui& gui) {
  StepState s;
  const int shown = gui.compare() ? 2 : 1;
  for (int i = 0; i < shown; ++i) {
    const Pane& p = gui.pane(i);
    PaneStep ps{p.name, p.step, int(p.steps.size()), visual::StepLabel(p.step, int(p.steps.size())), ""};
    if (const auto* ins = p.shown_step.Focus()) ps.role = visual::RoleName(p.outcome->trace, *ins);
    s.panes.push_back(ps);
  }
  s.focus = gui.pane(gui.focus()).name;
  if (shown == 2) {
    const visual::Follow f = gui.follow();
    s.follow = f == visual::Follow::Role ? "role" : f == visual::Follow::Lockstep ? "lockstep" : "alone";
    const visual::FollowWhy why = gui.follow_why();
    s.why = why == visual::FollowWhy::Chosen       ? "chosen"
            : why == visual::FollowWhy::RolesMatch ? "roles match"
            : why == visual::FollowWhy::SameSteps  ? "same steps"
                                                   : "roles differ";
    const std::string other = gui.pane(1 - gui.focus()).name;
    s.words = visual::FollowSentence(other, s.focus, f, why);
  }
  return s;
}

}  // namespace

// A benchmark at a family's largest size simulates for minutes on a busy 2-core machine
// (shortcut at n=1024: about 30 s idle, over two minutes at load 12); other scripted runs give
// up after two minutes.
ScriptedRun::ScriptedRun(const GuiOptions& opt, Clock::time_point start)
    : opt_(opt), deadline_(start + std::chrono::seconds(opt.benchmark_frames || opt.wait_counters ? 900 : 120)) {
  active_ = !opt_.screenshot.empty() || opt_.quit || opt_.benchmark_frames || !opt_.keys.empty() || !opt_.gif.empty();
}

namespace {
// Every shown pane has finished: its first complete picture arrived (with `whole`, its whole
// launch: counters and chart), or its error is on screen (a kernel file whose build failed or
// whose process died). A scripted run goes on then, so that the picture of an error can be taken
// too, instead of waiting out its deadline.
// Complete: the marks of the step the script shows first (--step) are final; where the script
// moves on (keys, iterations, a GIF's steps) or shows every warp, those of every step.
bool Finished(const Gui& gui, const GuiOptions& opt) {
  const bool moves = !opt.keys.empty() || opt.iterations != 0 || !opt.gif.empty() || opt.whole_block;
  for (int i = 0; i < (gui.compare() ? 2 : 1); ++i) {
    const Pane& p = gui.pane(i);
    const bool to_come = moves ? p.marks_pending || p.FinalSteps() < p.steps.size() : p.MarksToCome(opt.step);
    if (p.loading || (!p.outcome && p.error.empty()) || (p.outcome && to_come) || (opt.wait_counters && p.counting))
      return false;
  }
  return true;
}
}  // namespace

bool ScriptedRun::BeforeFrame(Gui& gui) {
  if (!active_) return true;
  if (!applied_ && Finished(gui, opt_)) {
    applied_ = true;
    gui.SetStepAll(opt_.step);
    for (int i = 0; i < std::abs(opt_.iterations); ++i) gui.IterationAll(opt_.iterations > 0 ? 1 : -1);
    std::stringstream keys(opt_.keys);
    for (std::string k; std::getline(keys, k, ',');) {
      if (const auto a = ActionNamed(k)) gui.Do(*a);
      else if (!k.empty()) std::cerr << "warpscope: unknown key '" << k << "' in --keys (known: " << ActionNames() << ")\n";
    }
    if (opt_.wait_reload > 0) {
      reload_deadline_ = Clock::now() + std::chrono::seconds(opt_.wait_reload);
      std::cerr << "warpscope: waiting for " << gui.pane(0).Id() << " to be saved" << std::endl;
    }
  }
  if (!applied_ && Clock::now() > deadline_) {
    std::cerr << "warpscope: scripted run timed out waiting for the simulation\n";
    return false;
  }
  return true;
}

bool ScriptedRun::AfterFrame(Gui& gui, int fw, int fh) {
  if (!applied_) return true;
  bool ok = true;
  if (opt_.wait_reload > 0 && (gui.reloads() == 0 || !gui.Loaded())) {
    if (Clock::now() < reload_deadline_) return true;
    std::cerr << "warpscope: no save of a kernel file was redrawn in " << opt_.wait_reload << " s\n";
    gui.Close();
    return false;
  }
  // "gpu" in --keys: the picture is taken once the timings are in.
  if (gui.TimingOnGpu()) return true;
  const bool gif = !opt_.gif.empty();
  if (gif && gif_requested_ && !gui.slide_export().Busy()) {  // --gif: quit once it is written
    std::cerr << "warpscope: " << gui.slide_export().Outcome() << "\n";
    gui.Close();
    return gui.slide_export().Succeeded();
  }
  if (gif && !gif_requested_ && (opt_.screenshot.empty() || shot_taken_)) {
    StepRange steps;  // checked by GuiMain before anything ran
    ParseStepRange(opt_.steps, &steps, nullptr);
    gui.slide_export().RequestGif(opt_.gif, steps, opt_.fps);
    gif_requested_ = true;
    return true;
  }
  if (!opt_.screenshot.empty()) {
    if (shot_taken_) return true;
    // The picture is taken once it has settled: at least --frames frames after the script, and
    // the frame drawn the same as the one before it (a view that measures its content over a few
    // frames, a scroll that follows, have stopped moving). So the frame saved does not depend on
    // how fast this machine drew, or in which frame each pane's simulation arrived.
    const uint64_t hash = HashDrawData(*ImGui::GetDrawData());
    const bool settled = frames_after_ > 0 && hash == last_hash_;
    last_hash_ = hash;
    if (++frames_after_ < opt_.frames || (!settled && frames_after_ < opt_.frames + kMostSettleFrames)) return true;
    shot_taken_ = true;
    std::string why;
    if (!settled) {  // a failed run: the picture saved depends on the frame it was taken in
      std::cerr << "warpscope: the picture still changed after " << frames_after_
                << " frames; saved the last one, but something on screen moves by itself\n";
      ok = false;
    }
    if (!SaveScreenshot(opt_.screenshot, fw, fh, &why)) {
      std::cerr << "warpscope: " << why << "\n";
      ok = false;
    }
    std::vector<CurrentAccess> current;
    for (int i = 0; i < (gui.compare() ? 2 : 1); ++i)
      if (const auto* ins = gui.pane(i).shown_step.Focus(); ins && ins->array >= 0)
        current.push_back({gui.pane(i).name, gui.pane(i).outcome->trace.arrays[size_t(ins->array)].name});
    if (!opt_.layout_out.empty() &&
        !SaveLayout(opt_.layout_out, gui.placed(), FindTextRuns(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts), FindWindowExtents(),
                    current, StepStateOf(gui), fw, fh, gui.scale(), &why)) {
      std::cerr << "warpscope: " << why << "\n";
      ok = false;
    }
    if (opt_.quit && !gif) gui.Close();
  } else if (opt_.quit && !gif && !opt_.benchmark_frames && ++frames_after_ >= opt_.frames) {
    gui.Close();
  }
  return ok;
}

}  // namespace ws::app
