// The root window's layout, one ImGui frame of it: the toolbar, the fault banners, the panes, the
// side panel's tabs (source above; timings and counters, memory chart, L1 cache, L2 cache) or, where
// it does not fit, the cache asked for in a column of its own, the legend and the bottom bar (the
// timeline, or presenter mode's status line) (see gui_app.h).
#include "app/gui_app.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "visual/text_fit.h"
#include "visual/tooltip.h"

namespace ws::app {

// The pane's first error (errors = true) or first warning.
const sim::Finding* FirstFinding(const Pane& p, bool errors) {
  if (!p.outcome) return nullptr;
  for (const auto& f : p.outcome->trace.findings)
    if (sim::IsError(f.kind) == errors) return &f;
  return nullptr;
}

bool Gui::Tight() const { return !present_ && ImGui::GetIO().DisplaySize.y < kTightUnits * scale_; }

bool Gui::AtSharedSteps() const {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    const sim::WarpInstruction* f = pane_[i].shown_step.Focus();
    if (!f || f->space != sim::Space::Shared) return false;
  }
  return true;
}

// Presenter mode's one line at the bottom: where we are and how B follows, and how to leave
// presenter mode where that still fits on the line (`width`): the picture keeps the height.
std::string Gui::StatusText(float width) {
  const Pane& f = Focused();
  std::string s = visual::StepLabel(f.step, int(f.steps.size())) + " \xc2\xb7 block " + std::to_string(pb_.block) + ", warp " +
                  std::to_string(pb_.warp) + (pb_.whole_block ? " (whole block)" : "");
  if (Compare()) s += " \xc2\xb7 " + visual::FollowSentence(focus_ ? "A" : "B", focus_ ? "B" : "A", follow_, follow_why_);
  return visual::FitText({s + " \xc2\xb7 P leaves presenter mode", s}, width);
}

void Gui::DrawStatusLine() {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", StatusText(ImGui::GetContentRegionAvail().x).c_str());
  ImGui::PopStyleColor();
}

void Gui::DrawFrame() {
  placed_.clear();
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  // No background: the frame is cleared to the window colour, so the software rasteriser under
  // Xvfb does not blend 1.6 million pixels a frame twice.
  const ImGuiWindowFlags root = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings |
                                ImGuiWindowFlags_NoBackground;
  if (ImGui::Begin("warpscope##root", nullptr, root)) {
    if (!present_) DrawPicker();
    DrawCaption();  // a lesson's slide: the lecturer's words
    // An error the simulator found: what, and where when the finding has a place (a warning
    // is a line atop its pane, DrawPane).
    for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
      Pane& p = pane_[i];
      const sim::Finding* f = FirstFinding(p, true);
      if (f && p.fault.Draw(p.name, p.outcome->trace, *f, scale_)) GoToFault(p, *f);
    }

    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const bool tight = Tight();
    // A short window's legend is what the shown steps draw, every entry of it.
    std::vector<const sim::WarpInstruction*> shown;
    bool earlier = false;
    for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
      const Pane& p = pane_[i];
      shown.insert(shown.end(), p.shown_step.current.begin(), p.shown_step.current.end());
      earlier = earlier || p.shown_step.history.size() > p.shown_step.current.size();
    }
    const visual::LegendUse use = visual::LegendUseOf(shown, earlier);
    const float legend_h = visual::LegendView::Height(avail.x, scale_, tight ? &use : nullptr);
    // Presenter mode: one status line at the bottom; otherwise the timeline bar.
    // (as tall as its wrapped lines: no empty band under it).
    const float bottom_h = present_ ? ImGui::CalcTextSize(StatusText(avail.x).c_str(), nullptr, false, avail.x).y + style.ItemSpacing.y
                                    : visual::TimelineView::Height(Compare(), scale_, tight);
    const float body_h = avail.y - legend_h - bottom_h - style.ItemSpacing.y * 2;
    const float spacing = style.ItemSpacing.x;
    // The source and the timings beside the panes, unless the window is less than 700 px wide at
    // scale 1 (1280 px at scale 2): the panes then take the width, as in presenter mode, but for the
    // L1 or L2 cache the lecturer asked for (its tab, --side, a slide's side, K), which keeps a
    // column of its own beside them: that cache is what the lecture is about at that moment, and a
    // 16:9 window has width to spare where the panes' badge, lanes, cells and banks stack in its height.
    // Either is at least as wide as the cache's sets need at their least legible slots.
    const bool side = !present_ && avail.x >= 700.0f * scale_;
    const bool cache_column = !side && CacheAsked();
    float right_w = 0.0f;
    if (side) right_w = std::clamp(avail.x * 0.28f, 200.0f * scale_, avail.x * 0.4f);
    if ((side || cache_column) && CacheAsked()) right_w = std::max(right_w, CacheColumnWidth(avail.x));
    const float left_w = side || cache_column ? avail.x - right_w - spacing : avail.x;
    // The cache view lights the slot of a served-from mark the pointer is on: the memory view's
    // tooltips keep off the column it is drawn in (visual/tooltip.h).
    const ImVec2 at = ImGui::GetCursorScreenPos();
    visual::KeepTooltipsClearOf((side || cache_column) && CacheAsked() ? visual::Rect{at.x + left_w + spacing, at.y, right_w, body_h}
                                                                       : visual::Rect{});
    if (Compare()) {
      DrawPane(pane_[0], (left_w - spacing) * 0.5f, body_h);
      ImGui::SameLine();
      DrawPane(pane_[1], (left_w - spacing) * 0.5f, body_h);
    } else {
      DrawPane(pane_[0], left_w, body_h);
    }
    Pane& f = Focused();
    if (side) {
      ImGui::SameLine();
      DrawSidePanel(right_w, body_h);
    } else if (cache_column) {
      ImGui::SameLine();
      DrawCacheColumn(right_w, body_h);
    }

    legend_.Draw(scale_, &placed_, tight ? &use : nullptr);
    if (present_) {
      DrawStatusLine();
    } else {
      ImGui::BeginChild("timeline##root", ImVec2(0, bottom_h), true, ImGuiWindowFlags_NoScrollbar);
      pb_.step = f.step;
      pb_.steps = int(f.steps.size());
      pb_.compare = Compare();
      pb_.follow = follow_;
      pb_.follow_why = follow_why_;
      pb_.leader = focus_ ? "B" : "A";
      const auto in = timeline_.Draw(f.outcome ? &f.outcome->trace : nullptr, pb_, scale_, tight);
      if (in.step_changed) SetStepAll(pb_.step);
      if (in.iteration) IterationAll(in.iteration);
      if (in.selection_changed) Reselect();
      if (in.follow_changed) Do(Action::Follow);
      ImGui::EndChild();
    }
  }
  ImGui::End();
  DrawHelp();
}

// Above the side tabs, while a pane's first picture is shown and its whole launch still runs:
// how far it has got, and a button to stop it (the picture stays). The figure moves by whole
// percents, so that a frame is often the same as the one before (a scripted screenshot waits
// for two alike).
void Gui::DrawWholeLaunch() {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    Pane& p = pane_[i];
    if (p.counts_cancelled) {
      ImGui::TextDisabled("%s: whole launch stopped: no counters, chart or check", p.name.c_str());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The picture is complete for the block shown: its steps and where each sector came from are\n"
                          "those of the whole launch. Pick the variant or n again to run the whole launch.");
      continue;
    }
    if (!p.counting) continue;
    const SimProgress pr = worker_.Progress(i);
    const int pct = pr.blocks_total ? int(100 * pr.blocks_done / pr.blocks_total) : 0;
    char label[96];
    // The bar's label stays short (it is centred and clipped in a narrow panel); the marks to come
    // get a line of their own.
    if (p.FinalSteps() == 0 && p.MarksToCome())
      ImGui::TextWrapped("%s: where each sector came from is drawn after the block's wave", p.name.c_str());
    else if (p.FinalSteps() < p.steps.size())  // a prefix picture (sim/prefix_pass.h)
      ImGui::TextWrapped("%s: where each sector came from is drawn for steps 0-%zu so far; %s after the block's wave",
                         p.name.c_str(), p.FinalSteps() - 1, p.MarksToCome() ? "this step's comes" : "the later steps' come");
    std::snprintf(label, sizeof label, "%s: %d%% of %llu blocks", p.name.c_str(), pct,
                  static_cast<unsigned long long>(pr.blocks_total));
    ImGui::ProgressBar(float(pct) / 100.0f, ImVec2(std::max(ImGui::GetContentRegionAvail().x - 70 * scale_, 60 * scale_), 0), label);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s's whole launch is still being simulated. The block's steps and captions are final; where\n"
                        "each sector came from is decided by its wave, the waves before it and the L2 they filled, and\n"
                        "%s. The counters, the memory chart and the check against the CPU reference need every block,\n"
                        "and come when the launch ends.", p.name.c_str(),
                        p.MarksToCome() ? "is drawn once that wave has been simulated" : "is drawn");
    ImGui::SameLine();
    ImGui::PushID(i);
    if (ImGui::Button("stop##whole")) worker_.Cancel(i);
    ImGui::PopID();
  }
}

// The least width of the cache column (or of a side panel showing the L1 or L2 tab): one set of the
// asked-for cache at its least legible slots (16 px, a text line where that is taller) inside the
// column's padding and border, a quarter of the window's width where that is more (the slots grow
// with it, to two text lines), and at most half of it.
float Gui::CacheColumnWidth(float avail_w) const {
  const sim::Trace::Caches* c = nullptr;
  for (const Pane& p : pane_)
    if (!c && p.outcome && !p.outcome->trace.caches.device.empty()) c = &p.outcome->trace.caches;
  // Before a simulation arrives: set numbers of four digits in L1 (4 ways) and five in L2.
  const uint32_t l1_last = c && c->l1_sets ? c->l1_sets - 1 : 1023, l1_ways = c && c->l1_ways ? c->l1_ways : 4;
  const uint32_t l2_last = c && c->l2_sets ? c->l2_sets - 1 : 25599;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float need = (side_ == "l2" ? visual::L2CacheView::LeastWidth(l2_last, scale_)
                                    : visual::L1CacheView::LeastWidth(l1_last, l1_ways, scale_)) +
                     2 * st.WindowPadding.x + 2 * st.ChildBorderSize;
  return std::min(std::max(need, 0.25f * avail_w), 0.5f * avail_w);
}

// The L1 or the L2 tab's content, A above B: each half the height, but where one needs less than
// half to show every set of its step at the least slot height (WantedHeight, as the last frame
// found them), it gets that and the other the rest: shortcut v1's 2 sets beside v0's 16.
void Gui::DrawCaches(bool l2) {
  const int shown = Compare() ? 2 : 1;
  const float avail = ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y * float(shown - 1);
  float share[2] = {avail / float(shown), avail / float(shown)};
  if (shown == 2) {
    float want[2];
    for (int i = 0; i < 2; ++i) want[i] = l2 ? pane_[i].l2.WantedHeight(scale_) : pane_[i].l1.WantedHeight(scale_);
    for (int i = 0; i < 2; ++i)
      if (want[i] < avail / 2 && want[1 - i] > avail / 2) share[i] = std::max(want[i], avail - want[1 - i]), share[1 - i] = avail - share[i];
  }
  for (int i = 0; i < shown; ++i) {
    Pane& p = pane_[i];
    const float each = share[i];
    if (p.MarksToCome())  // (at this step: a prefix picture has the first steps' caches)
      ImGui::TextWrapped("%s: the %s comes with the block's wave, still being simulated.", p.name.c_str(), l2 ? "L2" : "L1");
    else if (p.outcome && l2)
      p.l2.Draw(p.shown_step, each, scale_, &placed_, p.Lit());
    else if (p.outcome)
      p.l1.Draw(p.shown_step, each, scale_, &placed_, p.Lit());
  }
}

// Where the side panel is not drawn (presenter mode, a window under 700 px per unit of the scale):
// the cache asked for in a column of its own, under its name as the tab would say it.
void Gui::DrawCacheColumn(float width, float height) {
  ImGui::BeginChild("cache##root", ImVec2(width, height), true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const bool l2 = side_ == "l2";
  const std::string name = l2 ? "L2 cache" : "L1 cache";
  ImGui::TextUnformatted(visual::FitText({name + " \xc2\xb7 K: " + (l2 ? "neither" : "the L2 cache"), name},
                                         ImGui::GetContentRegionAvail().x).c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The %s tab of the side panel, which this window has no room for at this scale%s.\n"
                      "K shows %s.", name.c_str(), present_ ? " or in presenter mode" : "",
                      l2 ? "neither cache (the panes take the width)" : "the L2 cache in its place");
  ImGui::Separator();
  DrawCaches(l2);
  ImGui::EndChild();
}

// The pane's kernel source as the views show it: a kernel file whose build failed as saved, else
// the text the counters come from.
const std::string& Gui::SourceText(const Pane& p) const {
  const std::string& path = p.variant.variant->source;
  const auto problem = file_problems_.find(path);
  return problem != file_problems_.end() ? problem->second.text : kernels::KernelSource(path);
}

// Beside the panes: the focused pane's source above four tabs, the timings with the counters,
// the memory chart, the L1 of the shown block's SM and the L2 sets the step looked up.
void Gui::DrawSidePanel(float right_w, float body_h) {
  Pane& f = Focused();
  ImGui::BeginChild("side##root", ImVec2(right_w, body_h), false);
  // The memory chart (four levels and three arrows) and the L1 view are tall: the source view
  // gives them room.
  const float source_h = body_h * (chart_shown_ ? 0.3f : 0.5f);
  const std::string& path = f.variant.variant->source;
  const auto problem = file_problems_.find(path);
  // What nvcc made of the shown variant, beside its lines (none while it loads).
  visual::CompiledBeside beside;
  if (f.compiled) {
    beside.status = f.compiled->status;
    beside.file = path;
    if (f.compiled->available) {
      beside.comparison = &f.compiled->comparison;
      beside.kernel = &f.compiled->kernel;
    }
  }
  std::vector<visual::SourceMark> marks;
  if (problem != file_problems_.end())
    for (const auto& d : problem->second.diagnostics) marks.push_back({d.line, d.severity + ": " + d.message});
  f.source.Draw(f.shown_step, path, SourceText(f), source_h, scale_, mono_, problem != file_problems_.end() ? &marks : nullptr,
                f.compiled ? &beside : nullptr);
  ImGui::BeginChild("counters##side", ImVec2(0, 0), true);
  DrawWholeLaunch();
  // Four tabs: the timings with the counters, the memory chart, the L1 of the shown block's SM
  // and the L2 sets of the step (--side picks the first shown); a fourth, printf, while a kernel file printed. The tabs' full names where they fit (a tab
  // bar's content is as wide as its tabs' names).
  const ImGuiStyle& st = ImGui::GetStyle();
  const bool printed = AnyPrinted();
  const float tabs_w = ImGui::CalcTextSize("timings & counters").x + ImGui::CalcTextSize("memory chart").x +
                       ImGui::CalcTextSize("L1 cache").x + ImGui::CalcTextSize("L2 cache").x +
                       (printed ? ImGui::CalcTextSize("printf").x : 0.0f) + (printed ? 10 : 8) * st.FramePadding.x +
                       (printed ? 4 : 3) * st.ItemInnerSpacing.x;
  // Decided from the panel's width, which stays the same from frame to frame (the tab bar
  // lays out with the widths of the frame before), less the room a scrollbar may take.
  const bool long_tabs = tabs_w <= right_w - 2 * st.WindowPadding.x - 2 * st.WindowBorderSize - st.ScrollbarSize;
  if (ImGui::BeginTabBar("side##tabs")) {
    const ImGuiTabItemFlags pick_counters = side_tab_set_ || side_ != "counters" ? 0 : ImGuiTabItemFlags_SetSelected;
    const ImGuiTabItemFlags pick_chart = side_tab_set_ || side_ != "chart" ? 0 : ImGuiTabItemFlags_SetSelected;
    const ImGuiTabItemFlags pick_l1 = side_tab_set_ || side_ != "l1" ? 0 : ImGuiTabItemFlags_SetSelected;
    const ImGuiTabItemFlags pick_l2 = side_tab_set_ || side_ != "l2" ? 0 : ImGuiTabItemFlags_SetSelected;
    // The tab shown is the one asked for from the frame after it was handed to the tab bar (which
    // selects it a frame late); from then on a click on a tab is what the lecturer asked for.
    const bool settled = side_tab_set_;
    if (ImGui::BeginTabItem(long_tabs ? "timings & counters###timings" : "timings###timings", nullptr, pick_counters)) {
      if (settled) side_ = "counters";
      // ptxas' figures and the counts as compiled, per side (none while a side loads).
      visual::CompiledCounters cc[2];
      for (int i = 0; i < 2; ++i)
        if (const auto& c = pane_[i].compiled) {
          cc[i].status = c->status;
          if (c->available) cc[i].usage = &c->kernel.usage, cc[i].as_compiled = &c->as_compiled;
        }
      // A side whose whole launch has not run has no counters to show (its first picture's
      // trace holds the selected block alone).
      const auto counted = [](const Pane& p) { return p.outcome && !p.counting && !p.counts_cancelled ? &p.outcome->trace : nullptr; };
      const bool run = counters_.Draw(pane_[0].Id(), counted(pane_[0]),
                                      Compare() ? pane_[1].Id() : "",
                                      Compare() ? counted(pane_[1]) : nullptr,
                                      timings_, cuda_, scale_, pane_[0].compiled ? &cc[0] : nullptr,
                                      Compare() && pane_[1].compiled ? &cc[1] : nullptr);
      if (run) StartGpuTimings();
      ImGui::EndTabItem();
    }
    chart_shown_ = false;
    if (ImGui::BeginTabItem(long_tabs ? "memory chart###chart" : "chart###chart", nullptr, pick_chart)) {
      chart_shown_ = true;
      if (settled) side_ = "chart";
      const Pane& pa = pane_[0];
      const Pane& pb = pane_[1];
      const auto counted = [](const Pane& p) { return p.outcome && !p.counting && !p.counts_cancelled; };
      chart_.Draw(counted(pa) ? &pa.flow : nullptr, Compare() && counted(pb) ? &pb.flow : nullptr, scale_, &placed_);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem(long_tabs ? "L1 cache###l1" : "L1###l1", nullptr, pick_l1)) {
      chart_shown_ = true;
      if (settled) side_ = "l1";
      DrawCaches(false);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem(long_tabs ? "L2 cache###l2" : "L2###l2", nullptr, pick_l2)) {
      chart_shown_ = true;
      if (settled) side_ = "l2";
      DrawCaches(true);
      ImGui::EndTabItem();
    }
    // A kernel file's printf output, while there is some (--side printf picks it at start).
    const ImGuiTabItemFlags pick_printf = side_tab_set_ || side_ != "printf" ? 0 : ImGuiTabItemFlags_SetSelected;
    if (printed && ImGui::BeginTabItem("printf###printf", nullptr, pick_printf)) {
      if (settled) side_ = "printf";
      DrawPrintfTab();
      ImGui::EndTabItem();
    }
    if (printed || side_ != "printf") side_tab_set_ = true;  // --side printf waits for the output
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  ImGui::EndChild();
}

}  // namespace ws::app
