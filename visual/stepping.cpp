// Stepping the panes (see stepping.h).
#include "visual/stepping.h"

#include <algorithm>

namespace ws::visual {

ShownStep ShowStep(const sim::Trace& trace, const std::vector<uint32_t>& steps, int step, uint32_t block, uint32_t warp,
                   bool whole_block) {
  ShownStep s;
  s.trace = &trace;
  if (steps.empty() || step < 0 || step >= int(steps.size())) return s;
  const auto& ins = trace.instructions;
  s.current.push_back(&ins[steps[step]]);
  for (int k = step - 1; k >= 0 && k >= step - kTrailSteps; --k) s.trail.push_back(&ins[steps[k]]);
  for (int k = 0; k <= step; ++k) s.history.push_back(&ins[steps[k]]);
  if (whole_block) {
    const uint32_t warps = trace.shape.WarpsPerBlock();
    for (uint32_t w = 0; w < warps; ++w) {
      if (w == warp) continue;
      const auto other = WarpSteps(trace, block, w);
      if (step < int(other.size())) s.current.push_back(&ins[other[step]]);
      for (int k = 0; k <= step && k < int(other.size()); ++k) s.history.push_back(&ins[other[k]]);
    }
  }
  return s;
}

int ClampStep(int step, const std::vector<uint32_t>& steps) {
  return std::clamp(step, 0, std::max(int(steps.size()) - 1, 0));
}

namespace {

const std::vector<uint32_t>& StepsOf(const PaneCursor& p) {
  static const std::vector<uint32_t> none;
  return p.steps ? *p.steps : none;
}

// By source role: where the other pane goes once the focused one is at `focus_step`.
std::optional<int> RoleFollow(const Panes& panes, int focus_step) {
  if (panes.shown < 2 || panes.follow != Follow::Role) return std::nullopt;
  const PaneCursor& f = panes.pane[panes.focus];
  const PaneCursor& o = panes.pane[1 - panes.focus];
  if (!f.trace || !o.trace) return std::nullopt;
  return RoleStep(*f.trace, StepsOf(f), focus_step, *o.trace, StepsOf(o), o.step);
}

// In lockstep: the other pane at the focused one's step number, clamped to its own steps (not
// moved by the same amount: an offset left by following by role, or by one pane stopping at its
// last step while the other went on, would stay, and the panes would drift apart).
std::optional<int> LockstepFollow(const Panes& panes, int focus_step) {
  if (panes.shown < 2 || panes.follow != Follow::Lockstep) return std::nullopt;
  const PaneCursor& o = panes.pane[1 - panes.focus];
  if (!o.trace) return std::nullopt;
  return ClampStep(focus_step, StepsOf(o));
}

// Moves each shown pane that the follow mode moves with the focused one to `to(pane)`, then the
// other pane to the focused one's step number (lockstep) or by source role.
template <class To>
StepMoves MoveShown(const Panes& panes, To to) {
  StepMoves moves;
  for (int i = 0; i < panes.shown; ++i)
    if (panes.follow == Follow::Lockstep || i == panes.focus) moves[size_t(i)] = to(panes.pane[i]);
  const int focus_step = moves[size_t(panes.focus)].value_or(panes.pane[panes.focus].step);
  if (const auto o = RoleFollow(panes, focus_step)) moves[size_t(1 - panes.focus)] = o;
  if (const auto o = LockstepFollow(panes, focus_step)) moves[size_t(1 - panes.focus)] = o;
  return moves;
}

}  // namespace

FollowChoice DefaultFollow(const Panes& panes) {
  if (panes.shown < 2) return {};
  const PaneCursor& f = panes.pane[panes.focus];
  const PaneCursor& o = panes.pane[1 - panes.focus];
  if (!f.trace || !o.trace) return {};
  return DefaultFollow(*f.trace, StepsOf(f), *o.trace, StepsOf(o));
}

StepMoves StepBy(const Panes& panes, int delta) {
  return MoveShown(panes, [&](const PaneCursor& p) { return ClampStep(p.step + delta, StepsOf(p)); });
}

StepMoves StepTo(const Panes& panes, int step) {
  return MoveShown(panes, [&](const PaneCursor& p) { return p.trace ? ClampStep(step, StepsOf(p)) : step; });
}

StepMoves IterationBy(const Panes& panes, int dir) {
  StepMoves moves;
  const PaneCursor& f = panes.pane[panes.focus];
  if (!f.trace || StepsOf(f).empty()) return moves;
  const int f_step = IterationStep(*f.trace, StepsOf(f), f.step, dir);
  moves[size_t(panes.focus)] = f_step;
  if (panes.shown < 2 || panes.follow == Follow::Alone) return moves;
  if (panes.follow == Follow::Role) {
    moves[size_t(1 - panes.focus)] = RoleFollow(panes, f_step);
    return moves;
  }
  const PaneCursor& o = panes.pane[1 - panes.focus];
  if (!o.trace || StepsOf(o).empty()) return moves;
  const uint32_t epoch = f.trace->instructions[StepsOf(f)[size_t(f_step)]].epoch;
  moves[size_t(1 - panes.focus)] =
      StepAtIteration(*o.trace, StepsOf(o), epoch, OffsetInIteration(*f.trace, StepsOf(f), f_step));
  return moves;
}

StepMoves FollowFocus(const Panes& panes) {
  StepMoves moves;
  moves[size_t(1 - panes.focus)] = RoleFollow(panes, panes.pane[panes.focus].step);
  if (const auto o = LockstepFollow(panes, panes.pane[panes.focus].step)) moves[size_t(1 - panes.focus)] = o;
  return moves;
}

}  // namespace ws::visual
