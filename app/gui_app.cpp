// The desktop program's window: its state from the command line and the settings, and its
// actions (the keys', the buttons' and a scripted run's), stepping both panes (see gui_app.h).
#include "app/gui_app.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "app/cli.h"
#include "visual/steps.h"

namespace ws::app {
namespace {

// The catalog's variant named `id`, or none.
std::optional<kernels::VariantRef> Lookup(const std::string& id) {
  try {
    return kernels::FindVariant(id);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

kernels::VariantRef FirstVariant() {
  const auto& f = kernels::Catalog().front();  // the catalog registers at least one family
  return {&f, &f.info.variants.front()};
}

}  // namespace

kernels::VariantRef NextInFamily(const kernels::VariantRef& v) {
  const auto& vs = v.family->info.variants;
  const size_t i = size_t(v.variant - vs.data());
  return {v.family, &vs[std::min(i + 1, vs.size() - 1)]};
}

bool Pane::HasShared() const {
  if (!outcome) return false;
  for (const auto& a : outcome->trace.arrays)
    if (a.space == sim::Space::Shared) return true;
  return false;
}

Gui::Gui(GuiOptions opt, GuiSettings settings, std::string settings_message)
    : opt_(std::move(opt)), settings_(std::move(settings)), message_(std::move(settings_message)),
      worker_([this] { WakeOnResult(); }) {
  start_ = Clock::now();
  base_scale_ = std::clamp(opt_.scale > 0 ? opt_.scale : settings_.scale, kMinScale, kMaxScale);
  present_ = opt_.present;
  side_ = opt_.side;
  chart_shown_ = opt_.side == "chart" || opt_.side == "l1" || opt_.side == "l2";  // the source view's height is right from the first frame
  UpdateScale();
  std::vector<std::string> ncu_problems;
  ncu_ = LoadRecordedNcuFiles(&ncu_problems);
  for (const auto& why : ncu_problems) std::cerr << "warpscope: skipped " << why << "\n";
  pane_[0].name = "A";
  pane_[1].name = "B";
  std::string a = !opt_.variant.empty() ? opt_.variant : !settings_.variant.empty() ? settings_.variant : kDefaultVariant;
  std::string b = !opt_.compare.empty() ? opt_.compare : !settings_.compare.empty() ? settings_.compare : kDefaultCompare;
  compare_on_ = opt_.no_compare ? false : !opt_.compare.empty() ? true : opt_.variant.empty() ? settings_.compare_on : false;
  auto ref_a = Lookup(a);
  if (!ref_a) {
    ref_a = FirstVariant();
    if (!opt_.variant.empty()) message_ = "unknown variant '" + a + "'; showing " + ref_a->Id();
  }
  auto ref_b = Lookup(b);
  // Kernel files compare with anything (two files A/B); catalog variants within their family.
  const bool across = ref_b && (ref_a->family->from_file || ref_b->family->from_file);
  if (!ref_b || (ref_b->family != ref_a->family && !across)) {
    if (!opt_.compare.empty())
      message_ = "variant B '" + b + "' is not in " + ref_a->family->info.name + "; comparing with the next variant";
    ref_b = NextInFamily(*ref_a);
  }
  pane_[0].variant = *ref_a;
  pane_[1].variant = *ref_b;
  n_ = opt_.n;
  pb_.block = uint32_t(std::max(opt_.block, 0));
  pb_.warp = uint32_t(std::max(opt_.warp, 0));
  pb_.whole_block = opt_.whole_block;
  focus_ = opt_.focus == "B" && compare_on_ ? 1 : 0;
  cuda_ = kernels::CudaAvailable(&cuda_why_);
}

size_t Pane::FinalSteps() const {
  if (marks_pending || !outcome) return 0;
  const size_t k = outcome->trace.caches.final_steps;
  size_t n = 0;
  while (n < steps.size() && steps[n] < k) ++n;
  return n;
}

bool Pane::MarksToCome(int s) const {
  if (marks_pending) return true;
  if (!outcome || steps.empty()) return false;
  s = std::clamp(s < 0 ? step : s, 0, int(steps.size()) - 1);
  return steps[size_t(s)] >= outcome->trace.caches.final_steps;
}

bool Gui::Loaded() const {
  if (pane_[0].loading || !pane_[0].outcome || pane_[0].MarksToCome()) return false;
  if (Compare() && (pane_[1].loading || !pane_[1].outcome || pane_[1].MarksToCome())) return false;
  return true;
}

bool Gui::Counted() const {
  if (!Loaded() || pane_[0].counting) return false;
  return !Compare() || !pane_[1].counting;
}

void Gui::PlayPause() { pb_.playing = !pb_.playing; }

void Gui::SwitchFocus() {
  if (Compare()) focus_ = 1 - focus_;
}

void Gui::TogglePresent() {
  present_ = !present_;
  UpdateScale();
}

void Gui::NextFollow() {
  follow_ = visual::Follow((int(follow_) + 1) % 3);
  follow_why_ = visual::FollowWhy::Chosen;
  FollowFocused();
}

void Gui::NextCacheView() {
  side_ = side_ == "l1" ? "l2" : side_ == "l2" ? "counters" : "l1";
  side_tab_set_ = false;
  chart_shown_ = side_ != "counters";
}

void Gui::Scale(int dir) {
  base_scale_ = std::clamp(base_scale_ + 0.25f * float(dir), kMinScale, kMaxScale);
  UpdateScale();
}

void Gui::ShowVariant(int index, const kernels::VariantRef& v, bool teaching_size) {
  Pane& p = pane_[index];
  p.variant = v;
  p.shape.clear();  // a lesson slide's block shape was for its own variant
  p.step = 0;
  if (teaching_size) n_ = 0;
  follow_why_ = visual::FollowWhy::RolesDiffer;  // a new pair: the rule decides how B follows
  follow_key_ = {};
  Request(p);
}

void Gui::Close() { glfwSetWindowShouldClose(window_, 1); }

// ---- stepping ----

void Gui::ShowStep(Pane& p) {
  static uint64_t version = 1;
  p.shown_step = {};
  p.shown_step.pane = p.name;
  p.shown_step.version = ++version;
  if (!p.outcome) return;
  const sim::Trace& t = p.outcome->trace;
  p.steps = visual::WarpSteps(t, pb_.block, pb_.warp);
  p.step = visual::ClampStep(p.step, p.steps);
  p.shown_step = visual::ShowStep(t, p.steps, p.step, pb_.block, pb_.warp, pb_.whole_block);
  p.shown_step.pane = p.name;
  p.shown_step.version = version;
}

visual::Panes Gui::Cursors() const {
  visual::Panes c;
  for (int i = 0; i < 2; ++i)
    c.pane[i] = {pane_[i].outcome ? &pane_[i].outcome->trace : nullptr, &pane_[i].steps, pane_[i].step};
  c.shown = Compare() ? 2 : 1;
  c.focus = focus_;
  c.follow = follow_;
  return c;
}

void Gui::Apply(const visual::StepMoves& moves) {
  for (int i = 0; i < 2; ++i)
    if (moves[size_t(i)]) {
      pane_[i].step = *moves[size_t(i)];
      ShowStep(pane_[i]);
    }
}

void Gui::StepAll(int delta) { Apply(visual::StepBy(Cursors(), delta)); }
void Gui::SetStepAll(int step) { Apply(visual::StepTo(Cursors(), step)); }
void Gui::IterationAll(int dir) { Apply(visual::IterationBy(Cursors(), dir)); }
void Gui::FollowFocused() { Apply(visual::FollowFocus(Cursors())); }

void Gui::DecideFollow() {
  if (follow_why_ == visual::FollowWhy::Chosen || !Compare() || !Loaded()) return;
  const FollowKey key{pane_[0].outcome.get(), pane_[1].outcome.get(), pb_.block, pb_.warp, focus_};
  if (key == follow_key_) return;
  follow_key_ = key;
  const visual::FollowChoice c = visual::DefaultFollow(Cursors());
  follow_why_ = c.why;
  if (c.mode == follow_) return;
  follow_ = c.mode;
  FollowFocused();  // by role: the other pane to the instruction of the focused step's role
}

// A new block or warp: a pane whose trace records another block simulates again.
void Gui::Reselect() {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    Pane& p = pane_[i];
    if (p.outcome && !p.outcome->trace.instructions.empty() && p.outcome->trace.instructions.front().block != pb_.block)
      Request(p);
    else
      ShowStep(p);
  }
}

void Gui::GoToFault(Pane& p, const sim::Finding& f) {
  const auto& t = p.outcome->trace;
  const auto& sh = t.shape;
  pb_.block = uint32_t(sh.BlockId(f.block));
  pb_.warp = sh.ThreadId(f.thread) / sim::kWarpSize;
  Reselect();
  // Same block: jump to the faulting line now.
  for (int s = 0; s < int(p.steps.size()); ++s)
    if (int(t.instructions[p.steps[s]].site) == f.site) {
      p.step = s;
      ShowStep(p);
      break;
    }
}

}  // namespace ws::app
