// The desktop program's window: two panes (A and B) that step together, the keyboard, the GPU
// timings and the layout of one frame. A scripted run (gui_script.h) and the frame benchmark
// (gui_bench.h) drive it from outside through the public actions below. One class over several
// files, one job each: gui_app.cpp (its state and actions), gui_window.cpp, gui_fonts.cpp,
// gui_poll.cpp, gui_keys.cpp, gui_toolbar.cpp, gui_pane.cpp, gui_help.cpp, gui_layout.cpp,
// gui_printf.cpp and gui_loop.cpp (the private members below are grouped by the file that defines them).
#pragma once
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "app/gui_export.h"
#include "app/seed_table.h"
#include "app/gui_options.h"
#include "app/gui_render.h"
#include "app/gui_settings.h"
#include "app/gui_worker.h"
#include "app/kernel_file_watch.h"
#include "app/key_table.h"
#include "app/lesson.h"
#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"
#include "visual/banks.h"
#include "visual/counters.h"
#include "visual/fault_banner.h"
#include "visual/shown_step.h"
#include "visual/l1_view.h"
#include "visual/l2_view.h"
#include "visual/legend.h"
#include "visual/memory_chart.h"
#include "visual/memory_grid.h"
#include "visual/source_view.h"
#include "visual/stepping.h"
#include "visual/timeline.h"
#include "visual/warp_lanes.h"

struct GLFWwindow;
struct ImFont;

namespace ws::app {

using Clock = std::chrono::steady_clock;

// One side of the comparison: a variant of the catalog, its simulated launch and its views.
struct Pane {
  std::string name;                // "A" / "B"
  kernels::VariantRef variant;     // points into the catalog, which lives as long as the program
  int n = 0;
  std::string shape;  // block shape ("16x16"); empty: the variant's own
  std::shared_ptr<kernels::SimOutcome> outcome;
  std::shared_ptr<const CompilerView> compiled;  // what nvcc made of it, with the outcome (gui_worker.h)
  uint64_t generation = 0;
  bool loading = false;   // no picture of this simulation yet
  // The first picture is on screen (the selected block's steps and marks are final) while the
  // whole launch still runs: its counters, memory chart and check come with its end.
  bool counting = false;
  // Shown before that still: the block's steps and captions, without where the sectors came from
  // (its wave is still being simulated); the picture is complete once they come.
  bool marks_pending = false;
  // The shown warp's steps whose served-from marks (and L1 and L2 tabs) are the whole launch's:
  // its first FinalSteps(), all but in a prefix picture (Trace::Caches::final_steps), none while
  // marks_pending. MarksToCome: whether step `s` (-1: the shown one) waits for its marks.
  size_t FinalSteps() const;
  bool MarksToCome(int s = -1) const;
  bool counts_cancelled = false;  // the whole launch was stopped (or failed) after its first picture
  std::string error;
  Clock::time_point saved{};    // when a save of its kernel file was noticed (until its picture is on screen)
  std::vector<uint32_t> steps;  // the shown warp's instructions
  int step = 0;
  visual::ShownStep shown_step;  // what the views draw: the step, its trail and history
  visual::MemoryGridView grid;
  visual::WarpLanesView lanes;
  visual::BanksView banks;
  visual::SourceView source;
  visual::FaultBannerView fault;
  visual::L1CacheView l1;   // the side panel's "L1 cache" tab
  visual::L2CacheView l2;   // the side panel's "L2 cache" tab
  // What the memory view, the L1 view and the L2 view point at in the last frame (the one under
  // the mouse): the others light it, so that a served-from mark and its cache slots light up together.
  visual::LitSectors Lit() const {
    for (const visual::LitSectors l : {grid.hovered(), l1.hovered(), l2.hovered()})
      if (l.sectors) return l;
    return {};
  }
  visual::MemoryFlow flow;  // the launch's traffic for the memory chart, set when a simulation arrives
  visual::Rect rect;  // where the pane was drawn last frame
  bool overflowed = false;  // last frame's views ran past the pane's bottom
  // The pane scrolls from the frame after its views first ran past its bottom until its
  // simulation or size changes: its scrollbar, once shown, stays, from step to step too (a
  // scrollbar narrows the pane, the views then fit, the scrollbar went and they ran past again:
  // shortcut v0's pane alternated between two layouts frame by frame at its last step at
  // 1920x1080; and playing, a scrollbar that came back a frame after each step would jolt it).
  bool scrolls = false;
  // In the hall layouts, whether the frame before ran past the bottom too: there the first frame
  // of a step plans the memory view with the room offered and the plan A and B share from the step
  // before, and may run past by a line for that frame only (pairs v2 beside v2_diagonal at the
  // broadcast, presenter mode at 1280x720 under a lesson's caption), which is not a reason to scroll.
  bool overflowed_before = false;
  struct ScrollKey {
    const void* outcome = nullptr;
    float width = 0, height = 0, scale = 0;
    int step = -1;  // in the hall layouts (presenter mode, a short window) the step decides the picture
    bool operator==(const ScrollKey&) const = default;
  } scroll_key;
  int in_sight_step = -1;   // the step whose array a pane that scrolls brings into sight,
  int in_sight_frames = 0;  // for this many frames so far

  std::string Id() const { return variant.Id(); }
  bool HasShared() const;
};

// The pane's first error (errors = true) or first warning (sim::IsError); null when none.
const sim::Finding* FirstFinding(const Pane& p, bool errors);

// The variant after `v` in its family (or `v` itself when it is the last).
kernels::VariantRef NextInFamily(const kernels::VariantRef& v);

class Gui : private KeyTarget {
 public:
  Gui(GuiOptions opt, GuiSettings settings, std::string settings_message);
  int Run();

  // ---- for the scripted run and the benchmark ----
  bool Loaded() const;  // every shown pane has its complete picture (its whole launch may still run)
  bool Counted() const;  // every shown pane has its whole launch too
  void Do(Action a) { Press(a, *this); }  // what the key table says the action does
  void SetStepAll(int step);
  void IterationAll(int dir);
  // Shows `v` in pane `index` from its first step; `teaching_size` also resets n to the family's.
  void ShowVariant(int index, const kernels::VariantRef& v, bool teaching_size);
  const Pane& pane(int index) const { return pane_[index]; }
  const std::vector<visual::Placed>& placed() const { return placed_; }
  bool compare() const { return compare_on_; }
  visual::Follow follow() const { return follow_; }
  visual::FollowWhy follow_why() const { return follow_why_; }
  int focus() const { return focus_; }
  void Say(const std::string& message) { message_ = message; }  // the line under the toolbar
  SlideExport& slide_export() { return export_; }
  float scale() const { return scale_; }
  // True while "run on GPU" is timing the family (a scripted run waits for it before its screenshot).
  bool TimingOnGpu() const { return timings_.running; }
  // Kernel-file saves whose new picture is on screen (a scripted run waits for one).
  int reloads() const { return reloads_; }
  void Close();
  // A lesson (lesson.h): shown from its first slide when the window opens.
  void SetLesson(Lesson lesson);
  void GoToSlide(int index);
  const Lesson* lesson() const { return lesson_ ? &*lesson_ : nullptr; }
  int slide() const { return slide_; }
  bool SlidePending() const { return slide_pending_; }  // its panes still loading

 private:
  // gui_app.cpp: what the keys do (key_table.h)
  void PlayPause() override;
  void Step(int delta) override { StepAll(delta); }
  void GoToStep(int step) override { SetStepAll(step); }
  void Iterate(int dir) override { IterationAll(dir); }
  void SwitchFocus() override;
  void ToggleHelp() override { help_ = !help_; }
  void CloseHelp() override { help_ = false; }
  void TogglePresent() override;
  void NextFollow() override;
  void ToggleFullScreen() override { ToggleFullscreen(); }
  void Scale(int dir) override;
  void RunOnGpu() override { StartGpuTimings(); }
  void ToggleSass() override {
    for (auto& p : pane_) p.source.ToggleSass();
  }
  void ToggleAsCompiled() override { counters_.ToggleAsCompiled(); }
  void NextCacheView() override;
  void NextSlide(int dir) override;  // gui_lesson.cpp
  // gui_app.cpp: stepping both panes (the rules are visual/stepping.h's)
  void StepAll(int delta);
  void ShowStep(Pane& p);  // the views' instructions for p's step (after its step or warp changed)
  void Apply(const visual::StepMoves& moves);
  visual::Panes Cursors() const;
  void FollowFocused();
  void DecideFollow();  // by the rule, once both panes are simulated (each frame; cheap when nothing changed)
  void Reselect();
  void GoToFault(Pane& p, const sim::Finding& f);
  Pane& Focused() { return pane_[focus_]; }
  bool Compare() const { return compare_on_; }
  // gui_window.cpp: the window, OpenGL and ImGui; full screen; watching input
  bool OpenDisplay();
  bool InitWindow();
  void RenderFrame(int fw, int fh);  // the frame's draw data into the back buffer, fw x fh
  void CloseWindow();
  void ToggleFullscreen();
  void WatchInput();
  static void MarkInput(GLFWwindow* w);
  void WakeOnResult();
  // gui_fonts.cpp: fonts and style at the scale drawn at
  void LoadFonts();
  void UpdateScale();
  float HeadlineSize() const;
  // gui_poll.cpp: the simulation worker, kernel files and GPU timings
  void Request(Pane& p);
  void PollWorker();
  void PollFiles();      // kernel files shown: rebuilt on save, reloaded in place
  void PollTimings();
  void StartGpuTimings();  // "run on GPU": times every variant of A's family on the device
  // The memory chart's figures for p's launch: the simulator's, and beside them the recorded
  // Nsight Compute run of the same variant and size where there is one (kernels::FindRecordedRun).
  visual::MemoryFlow FlowOf(const Pane& p) const;
  // gui_keys.cpp: the key table applied to this frame's presses
  void ApplyKeys();
  // gui_toolbar.cpp: the picker, "open file", "more…", help and export
  void DrawPicker();
  void DrawOpenFile();   // the "open file" button and its popup
  // gui_pane.cpp: one pane's title, cost, lanes, note, memory grid and banks
  void DrawPane(Pane& p, float width, float height);
  static bool StepTouchesTile(const Pane& p);  // a shared array of more than 2 rows of cells
  const std::string& SourceText(const Pane& p) const;  // the kernel source its views show
  void DrawExcerpt(const Pane& p);  // presenter mode: the step's source lines under the picture
  // gui_lesson.cpp: the slide's step once its panes are simulated; its caption
  void ApplyPendingSlide();
  void DrawCaption();
  // gui_help.cpp: the keys and the glossary (F1)
  void DrawHelp();
  // gui_layout.cpp: the root window: toolbar, panes, side tabs, legend, bottom bar
  void DrawFrame();
  void DrawSidePanel(float width, float height);
  // The L1 or L2 tab asked for (side_): where the side panel is not drawn, a column of its own
  // beside the panes, as wide as CacheColumnWidth; DrawCaches draws A's above B's in either.
  bool CacheAsked() const { return side_ == "l1" || side_ == "l2"; }
  float CacheColumnWidth(float avail_w) const;
  void DrawCacheColumn(float width, float height);
  void DrawCaches(bool l2);
  void DrawWholeLaunch();  // a pane's whole launch after its first picture: progress and stop
  // gui_printf.cpp: the side panel's printf tab, there while a shown pane's run printed something.
  bool AnyPrinted() const;
  void DrawPrintfTab();
  void DrawStatusLine();
  std::string StatusText(float width);

  GuiOptions opt_;
  GuiSettings settings_;
  std::string message_;  // one line under the picker: clamps, ignored settings, errors
  GLFWwindow* window_ = nullptr;
  // Draws the frames; ImGui's own OpenGL backend instead when WARPSCOPE_RENDERER=imgui is set or
  // the renderer's shaders do not build (see gui_render.h).
  GuiRenderer renderer_;
  bool runs_renderer_ = false;
  float base_scale_ = 1.0f;  // the scale the user chose (saved)
  float scale_ = 1.0f;       // the scale drawn at: the window's height's times the user's (see UpdateScale)
  static constexpr int kReferenceHeight = 720;  // window lines drawn at scale 1
  static constexpr float kPresentZoom = 1.4f;
  bool present_ = false;     // presenter mode: the panes alone, large
  // The normal layout in a short window (a 720-line projector at scale 2: fewer than
  // kTightUnits lines at scale 1): the picture gets the room, as in presenter mode, the legend
  // and the bottom bar one row each (see gui_layout.cpp).
  static constexpr float kTightUnits = 500.0f;
  bool Tight() const;
  // Every shown pane's step reads or writes shared memory: the normal layout too then plans as
  // the hall does (the tile and the banks are the lesson; the other arrays are their names).
  bool AtSharedSteps() const;
  // How the other pane follows: chosen by the rule (visual::DefaultFollow) for each shown pair
  // unless the lecturer pressed L or the slide named a mode; decided again when the pair, the
  // block, the warp or the focus change (the key of the last decision).
  visual::Follow follow_ = visual::Follow::Lockstep;
  visual::FollowWhy follow_why_ = visual::FollowWhy::RolesDiffer;  // Chosen: by L or a slide
  struct FollowKey {
    const void* a = nullptr;
    const void* b = nullptr;
    uint32_t block = 0, warp = 0;
    int focus = -1;
    bool operator==(const FollowKey&) const = default;
  } follow_key_;
  visual::LegendView legend_;
  bool fonts_dirty_ = true;
  ImFont* mono_ = nullptr;
  ImFont* big_ = nullptr;
  ImFont* badge_ = nullptr;  // the cost badge
  Pane pane_[2];
  int focus_ = 0;
  bool compare_on_ = true;
  int n_ = 0;          // the size both panes simulate (0: family's teaching size)
  int n_edit_ = 0;
  int timing_n_ = 0;
  visual::Playback pb_;
  double play_accum_ = 0;
  // The worker wakes the event loop when a result is ready (glfwPostEmptyEvent), only while
  // GLFW is up: the flag and its lock outlive the worker's threads (declared before it).
  std::mutex wake_mutex_;
  bool wake_ok_ = false;
  SimWorker worker_;
  visual::TimelineView timeline_;
  visual::CountersView counters_;
  visual::MemoryChartView chart_;
  // The side panel's tab the lecturer asked for last (--side, a slide's side, K, a click on a tab),
  // kept while the panel is not drawn: the L1 and L2 tabs then draw in a column (CacheAsked).
  std::string side_ = "counters";
  bool side_tab_set_ = false;  // side_ has been handed to the tab bar (on the first frame it is drawn after a change)
  bool chart_shown_ = false;   // a tall tab (memory chart, L1 cache) was drawn last frame
  std::vector<RecordedNcu> ncu_;  // assets/recorded/ncu, read once
  visual::Timings timings_;
  std::unique_ptr<kernels::GpuRunner> gpu_;
  bool cuda_ = false;
  std::string cuda_why_;
  std::string timings_family_;
  bool help_ = false;
  bool fullscreen_ = false;
  int windowed_[4] = {100, 100, 1600, 1000};
  std::vector<visual::Placed> placed_;
  visual::MemoryPlanShare grid_plan_;  // A and B lay out same-name arrays alike
  SlideExport export_;
  Clock::time_point start_;
  // The last input (pointer, keys, window changes): the window draws at full rate for a moment
  // after it and otherwise waits for events (see Run).
  Clock::time_point last_input_;
  // Kernel files opened at run time: rebuilt on every save; the errors of a failed build are
  // shown in the source view over the file's text while the last good build stays on screen.
  struct FileProblem {
    std::vector<kernels::Diagnostic> diagnostics;
    std::string text;
  };
  KernelFileWatch files_;
  std::map<std::string, FileProblem> file_problems_;  // by file key
  std::map<std::string, int> opening_;                // file key -> pane asked for with "open file"
  char open_path_[1024] = {};
  int reloads_ = 0;
  std::optional<Lesson> lesson_;
  int slide_ = -1;
  bool slide_pending_ = false;  // the slide's step is set once its panes are simulated
};

}  // namespace ws::app
