// Stepping the panes: which instructions a pane shows at its step, and where each shown pane goes
// when the focused one steps, jumps or moves one loop iteration, by how the other follows. Pure
// functions over the trace types (visual/steps.h has the per-warp rules they use).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/trace.h"
#include "visual/shown_step.h"
#include "visual/steps.h"

namespace ws::visual {

// The earlier steps of the focused warp that stay lit as its trail.
inline constexpr int kTrailSteps = 8;

// What the views show of warp `warp` of block `block` at step `step` of `steps` (its WarpSteps
// in `trace`, `step` within them): the step's instruction, the trail (up to kTrailSteps earlier
// ones, newest first) and the history (every step up to and including this one). With
// `whole_block`, every other warp of the block adds its own instruction of the same step number
// (none when it has fewer steps) and its history up to it. Sets `trace`, `current`, `trail` and
// `history`; the caller names the pane and versions it.
ShownStep ShowStep(const sim::Trace& trace, const std::vector<uint32_t>& steps, int step, uint32_t block, uint32_t warp,
                   bool whole_block);

// A step number clamped to a warp's steps: 0..steps-1, and 0 for a warp without steps.
int ClampStep(int step, const std::vector<uint32_t>& steps);

// One shown pane as stepping sees it.
struct PaneCursor {
  const sim::Trace* trace = nullptr;             // null until its simulation arrives
  const std::vector<uint32_t>* steps = nullptr;  // the shown warp's instructions in `trace`
  int step = 0;
};

// The shown panes: A alone (shown 1) or A and B (shown 2), the focused one leading. `follow` is
// the mode in force; a pair starts in DefaultFollow(panes) unless the lecturer or a slide chose.
struct Panes {
  PaneCursor pane[2];
  int shown = 1;
  int focus = 0;
  Follow follow = Follow::Lockstep;
};

// The follow mode the rule gives the shown pair, the focused pane leading (steps.h's
// DefaultFollow); lockstep, the roles differing, while one pane is shown or a simulation has not
// arrived.
FollowChoice DefaultFollow(const Panes& panes);

// Where each pane goes: the new step of each pane that moves; a pane without one stays.
using StepMoves = std::array<std::optional<int>, 2>;

// → / ←: in lockstep every shown pane moves by `delta` steps; otherwise the focused pane moves and
// the other follows by source role (Follow::Role) or stays (Follow::Alone). Clamped to each
// pane's steps.
StepMoves StepBy(const Panes& panes, int delta);
// To step `step` (Home, the scrub bar, --step): every shown pane in lockstep, else the focused
// pane with the other following as in StepBy. A pane whose simulation has not arrived keeps the
// number as asked (it is clamped when the simulation arrives).
StepMoves StepTo(const Panes& panes, int step);
// ↑ / ↓: the focused pane to the next (dir > 0) or previous step at the same source site; in
// lockstep the other pane to the same loop iteration and the same offset within it, by source
// role to the instruction of the same role, alone nowhere.
StepMoves IterationBy(const Panes& panes, int dir);
// After the follow mode or the focus changed: by source role, the other pane goes to the
// instruction with the focused step's role; in lockstep, to the focused step's number; alone,
// nothing moves.
StepMoves FollowFocus(const Panes& panes);

}  // namespace ws::visual
