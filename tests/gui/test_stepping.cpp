// The stepping rules (visual/stepping.h) on small traces made by hand: which instructions a pane
// shows at a step, and where each pane goes when the focused one steps, jumps or moves one loop
// iteration, in each follow mode. Every expected step is worked out from the traces below.
#include <gtest/gtest.h>

#include "visual/stepping.h"

namespace ws::visual {
namespace {

sim::WarpInstruction Ins(uint32_t warp, uint32_t site, uint32_t epoch, sim::Op op, sim::Space space, int array) {
  sim::WarpInstruction i;
  i.block = 0, i.warp = warp, i.site = site, i.epoch = epoch, i.op = op, i.space = space, i.array = array;
  i.mask = ~0u;
  return i;
}

sim::Trace WithArrays(uint32_t threads) {
  sim::Trace t;
  t.shape.block = {threads, 1, 1};
  for (const char* name : {"in", "out", "tile"}) {
    sim::ArrayInfo a;
    a.id = int(t.arrays.size());
    a.name = name;
    a.space = std::string(name) == "tile" ? sim::Space::Shared : sim::Space::Global;
    t.arrays.push_back(a);
  }
  return t;
}
constexpr int kIn = 0, kOut = 1, kTile = 2;
using sim::Op;
using sim::Space;

// A tiled kernel, two warps, issue order interleaved:
//   0: w0 load in · 1: w1 load in · 2: w0 store tile · 3: w1 store tile · 4: w0 load tile ·
//   5: w0 store out · 6: w1 load tile.
// Warp 0's steps are instructions {0, 2, 4, 5}; warp 1's {1, 3, 6}.
sim::Trace Tiled() {
  sim::Trace t = WithArrays(64);
  t.instructions = {Ins(0, 0, 0, Op::Load, Space::Global, kIn),   Ins(1, 0, 0, Op::Load, Space::Global, kIn),
                    Ins(0, 1, 0, Op::Store, Space::Shared, kTile), Ins(1, 1, 0, Op::Store, Space::Shared, kTile),
                    Ins(0, 2, 0, Op::Load, Space::Shared, kTile),  Ins(0, 3, 0, Op::Store, Space::Global, kOut),
                    Ins(1, 2, 0, Op::Load, Space::Shared, kTile)};
  return t;
}

// One warp looping `iterations` times over `per_iteration` sites: site s of iteration e is
// instruction e * per_iteration + s, epoch e. The last site stores `out`, the others load `in`.
sim::Trace Loop(int iterations, int per_iteration) {
  sim::Trace t = WithArrays(32);
  for (int e = 0; e < iterations; ++e)
    for (int s = 0; s < per_iteration; ++s)
      t.instructions.push_back(s + 1 == per_iteration ? Ins(0, uint32_t(s), uint32_t(e), Op::Store, Space::Global, kOut)
                                                      : Ins(0, uint32_t(s), uint32_t(e), Op::Load, Space::Global, kIn));
  return t;
}

std::vector<const sim::WarpInstruction*> At(const sim::Trace& t, std::initializer_list<int> indices) {
  std::vector<const sim::WarpInstruction*> out;
  for (int i : indices) out.push_back(&t.instructions[size_t(i)]);
  return out;
}

// Two panes: A and B with their warps' steps, A focused, in lockstep unless a test says otherwise.
struct Two {
  sim::Trace a, b;
  std::vector<uint32_t> a_steps, b_steps;
  Panes panes;
  Two(sim::Trace ta, int a_step, sim::Trace tb, int b_step, Follow follow = Follow::Lockstep)
      : a(std::move(ta)), b(std::move(tb)) {
    a_steps = WarpSteps(a, 0, 0);
    b_steps = WarpSteps(b, 0, 0);
    panes.pane[0] = {&a, &a_steps, a_step};
    panes.pane[1] = {&b, &b_steps, b_step};
    panes.shown = 2;
    panes.follow = follow;
  }
};

TEST(ShowStep, OneWarpShowsItsStepTrailAndHistory) {
  const sim::Trace t = Tiled();
  const auto steps = WarpSteps(t, 0, 0);
  ASSERT_EQ(steps, (std::vector<uint32_t>{0, 2, 4, 5}));
  const ShownStep s = ShowStep(t, steps, 3, 0, 0, false);
  EXPECT_EQ(s.trace, &t);
  EXPECT_EQ(s.current, At(t, {5}));
  EXPECT_EQ(s.trail, At(t, {4, 2, 0}));  // newest first
  EXPECT_EQ(s.history, At(t, {0, 2, 4, 5}));
}

TEST(ShowStep, WholeBlockAddsEveryWarpsSameStepNumber) {
  const sim::Trace t = Tiled();
  const auto steps = WarpSteps(t, 0, 0);
  // Step 1: warp 0's instruction 2 (first: the focused warp) and warp 1's step 1, instruction 3.
  const ShownStep s1 = ShowStep(t, steps, 1, 0, 0, true);
  EXPECT_EQ(s1.current, At(t, {2, 3}));
  EXPECT_EQ(s1.trail, At(t, {0}));  // the focused warp's only
  EXPECT_EQ(s1.history, At(t, {0, 2, 1, 3}));
  // Step 3: warp 1 has only 3 steps, so it adds nothing to the step and its whole history.
  const ShownStep s3 = ShowStep(t, steps, 3, 0, 0, true);
  EXPECT_EQ(s3.current, At(t, {5}));
  EXPECT_EQ(s3.history, At(t, {0, 2, 4, 5, 1, 3, 6}));
}

TEST(ShowStep, TrailKeepsTheEightStepsBefore) {
  const sim::Trace t = Loop(6, 2);  // 12 steps, instruction k is step k
  const auto steps = WarpSteps(t, 0, 0);
  const ShownStep s = ShowStep(t, steps, 11, 0, 0, false);
  EXPECT_EQ(s.trail, At(t, {10, 9, 8, 7, 6, 5, 4, 3}));
  EXPECT_EQ(s.history.size(), 12u);
}

TEST(ShowStep, AWarpWithoutStepsShowsNothing) {
  const sim::Trace t = Tiled();
  const ShownStep s = ShowStep(t, {}, 0, 0, 5, true);
  EXPECT_EQ(s.trace, &t);
  EXPECT_TRUE(s.current.empty());
  EXPECT_TRUE(s.history.empty());
}

TEST(ClampStep, StaysWithinTheWarpsSteps) {
  EXPECT_EQ(ClampStep(7, {1, 2, 3}), 2);
  EXPECT_EQ(ClampStep(-1, {1, 2}), 0);
  EXPECT_EQ(ClampStep(5, {}), 0);
}

TEST(StepBy, InLockstepBothPanesMoveClampedToTheirOwnSteps) {
  // A: 6 steps at step 2; B (tiled, 4 steps) at step 3, its last.
  Two two(Loop(3, 2), 2, Tiled(), 3);
  EXPECT_EQ(StepBy(two.panes, +1), (StepMoves{3, 3}));
  EXPECT_EQ(StepBy(two.panes, -5), (StepMoves{0, 0}));
}

TEST(StepBy, InLockstepTheOtherPaneTakesTheFocusedStepNumberAndNeverDrifts) {
  // A (tiled, 4 steps) focused at its last step 3, B (6 steps) at 3. Two steps on: A stays at 3,
  // B goes to 3 too (moved by the same amount it went to 5, and one step back the panes stood at
  // 2 and 4 from then on).
  Two two(Tiled(), 3, Loop(3, 2), 3);
  EXPECT_EQ(StepBy(two.panes, +2), (StepMoves{3, 3}));
  // An offset left by following by role (A at 1, B at 3) is gone at the next step: A 2, B 2.
  two.panes.pane[0].step = 1;
  EXPECT_EQ(StepBy(two.panes, +1), (StepMoves{2, 2}));
}

TEST(FollowFocus, InLockstepTheOtherPaneGoesToTheFocusedStepNumber) {
  // The focus moved to B (v3-like, at 3) and the rule chose lockstep where by role A stood at 1:
  // A goes to 3 at once, B stays.
  Two two(Loop(3, 2), 1, Tiled(), 3);
  two.panes.focus = 1;
  EXPECT_EQ(FollowFocus(two.panes), (StepMoves{3, std::nullopt}));
  two.panes.follow = Follow::Alone;
  EXPECT_EQ(FollowFocus(two.panes), (StepMoves{std::nullopt, std::nullopt}));
}

TEST(StepBy, ByRoleTheOtherPaneGoesToTheKthInstructionOfTheSameRole) {
  // A (loop of load in, store out) from step 0 to 1: its first store to `out`. B's first (only)
  // store to `out` is its step 3 (instruction 5).
  Two two(Loop(3, 2), 0, Tiled(), 2, Follow::Role);
  EXPECT_EQ(StepBy(two.panes, +1), (StepMoves{1, 3}));
  // A to step 2: its second load of `in`; B has one, its step 0, so it goes to that last one.
  two.panes.pane[0].step = 1;
  EXPECT_EQ(StepBy(two.panes, +1), (StepMoves{2, 0}));
}

TEST(StepBy, AloneOnlyTheFocusedPaneMoves) {
  Two two(Loop(3, 2), 0, Tiled(), 2, Follow::Alone);
  EXPECT_EQ(StepBy(two.panes, +1), (StepMoves{1, std::nullopt}));
  two.panes.focus = 1;  // B leads: A stays
  EXPECT_EQ(StepBy(two.panes, +1), (StepMoves{std::nullopt, 3}));
}

TEST(StepBy, OnePaneShownMovesAlone) {
  Two two(Loop(3, 2), 0, Tiled(), 2);
  two.panes.shown = 1;
  EXPECT_EQ(StepBy(two.panes, +2), (StepMoves{2, std::nullopt}));
}

TEST(StepTo, APaneNotSimulatedYetKeepsTheNumberAsAsked) {
  Two two(Loop(3, 2), 0, Tiled(), 0);
  two.panes.pane[1].trace = nullptr;
  // A has 6 steps: 200 is clamped to 5; B is clamped when its simulation arrives.
  EXPECT_EQ(StepTo(two.panes, 200), (StepMoves{5, 200}));
}

TEST(StepTo, ByRoleFollowsTheClampedStep) {
  // A to 200, clamped to 5 (the third store to `out`); B's last store to `out` is step 3.
  Two two(Loop(3, 2), 0, Tiled(), 0, Follow::Role);
  EXPECT_EQ(StepTo(two.panes, 200), (StepMoves{5, 3}));
}

TEST(IterationBy, InLockstepTheOtherPaneGoesToTheSameIterationAndOffset) {
  // A: 2 instructions per iteration, at step 1 (iteration 0, site 1). Up: step 3, the same site
  // in iteration 1, 1 step into it. B: 3 per iteration; iteration 1 is steps 3..5, so 3 + 1 = 4.
  Two two(Loop(3, 2), 1, Loop(3, 3), 0);
  EXPECT_EQ(IterationBy(two.panes, +1), (StepMoves{3, 4}));
  // Down from there: back to step 1; B to iteration 0's step 0 + 1.
  two.panes.pane[0].step = 3;
  EXPECT_EQ(IterationBy(two.panes, -1), (StepMoves{1, 1}));
}

TEST(IterationBy, TheOffsetIsClampedToTheOtherPanesIteration) {
  // B leads, at step 5 (iteration 1, site 2, 2 steps in). Up: step 8 (iteration 2, 2 steps in).
  // A's iteration 2 is steps 4..5: 4 + 2 clamped to 5.
  Two two(Loop(3, 2), 0, Loop(3, 3), 5);
  two.panes.focus = 1;
  EXPECT_EQ(IterationBy(two.panes, +1), (StepMoves{5, 8}));
}

TEST(IterationBy, AtTheLastIterationTheFocusedPaneStays) {
  Two two(Loop(3, 2), 5, Loop(3, 3), 0);
  // A's step 5 is site 1 of the last iteration: no later one, it stays; B goes to iteration 2,
  // offset 1: 6 + 1 = 7.
  EXPECT_EQ(IterationBy(two.panes, +1), (StepMoves{5, 7}));
}

TEST(IterationBy, ByRoleAndAlone) {
  // A from step 1 (store out) to step 3 (its second store to `out`); by role B goes to its last
  // store to `out`, step 3; alone it stays.
  Two role(Loop(3, 2), 1, Tiled(), 0, Follow::Role);
  EXPECT_EQ(IterationBy(role.panes, +1), (StepMoves{3, 3}));
  Two alone(Loop(3, 2), 1, Tiled(), 0, Follow::Alone);
  EXPECT_EQ(IterationBy(alone.panes, +1), (StepMoves{3, std::nullopt}));
}

TEST(IterationBy, NothingMovesWhileTheFocusedPaneHasNoSteps) {
  Two two(Loop(3, 2), 0, Tiled(), 0);
  two.panes.pane[0].trace = nullptr;
  EXPECT_EQ(IterationBy(two.panes, +1), (StepMoves{}));
}

TEST(FollowFocus, ByRoleTheOtherPaneGoesToTheRolesInstruction) {
  // A at step 2, its second load of `in`: B's last load of `in` is step 0. (In lockstep B goes to
  // A's step 2: FollowFocus.InLockstepTheOtherPaneGoesToTheFocusedStepNumber.)
  Two role(Loop(3, 2), 2, Tiled(), 3, Follow::Role);
  EXPECT_EQ(FollowFocus(role.panes), (StepMoves{std::nullopt, 0}));
  Two lockstep(Loop(3, 2), 2, Tiled(), 3);
  EXPECT_EQ(FollowFocus(lockstep.panes), (StepMoves{std::nullopt, 2}));
}

// The loop (load in, store out) beside the tiled kernel (load in, store tile, load tile, store
// out): each of the loop's roles is in the tiled warp, so the tiled pane can follow it by role;
// the tiled warp's tile roles are not in the loop, so led by the tiled pane the panes go in
// lockstep.
TEST(RolesMatch, EveryRoleOfTheLeadingWarpIsInTheOther) {
  Two two(Loop(3, 2), 0, Tiled(), 0);
  EXPECT_TRUE(RolesMatch(two.a, two.a_steps, two.b, two.b_steps));
  EXPECT_FALSE(RolesMatch(two.b, two.b_steps, two.a, two.a_steps));
  EXPECT_EQ(DefaultFollow(two.panes).mode, Follow::Role);
  EXPECT_EQ(DefaultFollow(two.panes).why, FollowWhy::RolesMatch);
  two.panes.focus = 1;  // B leads
  EXPECT_EQ(DefaultFollow(two.panes).mode, Follow::Lockstep);
  EXPECT_EQ(DefaultFollow(two.panes).why, FollowWhy::RolesDiffer);
}

// The same role is the same operation, space and array name: a store to `in` is not a load of it.
TEST(RolesMatch, AnotherOperationOnTheSameArrayIsAnotherRole) {
  sim::Trace loads = WithArrays(32), stores = WithArrays(32);
  loads.instructions = {Ins(0, 0, 0, Op::Load, Space::Global, kIn)};
  stores.instructions = {Ins(0, 0, 0, Op::Store, Space::Global, kIn), Ins(0, 1, 0, Op::Atomic, Space::Global, kIn)};
  const auto ls = WarpSteps(loads, 0, 0), ss = WarpSteps(stores, 0, 0);
  EXPECT_FALSE(RolesMatch(loads, ls, stores, ss));
  EXPECT_EQ(DefaultFollow(loads, ls, stores, ss).mode, Follow::Lockstep);
  EXPECT_TRUE(RolesMatch(loads, ls, loads, ls));
}

TEST(RolesMatch, AWarpWithoutStepsMatchesNothing) {
  const sim::Trace t = Tiled();
  const auto steps = WarpSteps(t, 0, 0);
  EXPECT_FALSE(RolesMatch(t, {}, t, steps));
  EXPECT_FALSE(RolesMatch(t, steps, t, {}));
}

TEST(DefaultFollow, LockstepWithOnePaneOrBeforeTheOtherSimulationArrives) {
  Two two(Loop(3, 2), 0, Tiled(), 0);
  two.panes.shown = 1;
  EXPECT_EQ(DefaultFollow(two.panes).mode, Follow::Lockstep);
  two.panes.shown = 2;
  two.panes.pane[1].trace = nullptr;
  EXPECT_EQ(DefaultFollow(two.panes).mode, Follow::Lockstep);
}

// shortcut/v0's iteration reads d twice (a row, then a column); v0_transposed's reads d, then t.
// Both warps: load, load, load, load, store. v0's roles are all in v0_transposed, yet by role its
// second read of d (step 1) would stand beside v0_transposed's step 2, the next iteration's read
// of d; the steps are the same but for the array names, so the pair goes in lockstep: step 1
// beside step 1, the column read beside the read of t.
TEST(DefaultFollow, SameStepsButTheArraysNamesGoInLockstep) {
  sim::Trace v0 = WithArrays(32), v0t = WithArrays(32);
  const int kD = kIn, kT = kTile;  // tile: an array of another name (its space does not matter here)
  v0t.arrays[kTile].space = Space::Global;
  for (uint32_t e = 0; e < 2; ++e) {
    v0.instructions.push_back(Ins(0, 0, e, Op::Load, Space::Global, kD));
    v0.instructions.push_back(Ins(0, 1, e, Op::Load, Space::Global, kD));
    v0t.instructions.push_back(Ins(0, 0, e, Op::Load, Space::Global, kD));
    v0t.instructions.push_back(Ins(0, 1, e, Op::Load, Space::Global, kT));
  }
  v0.instructions.push_back(Ins(0, 2, 2, Op::Store, Space::Global, kOut));
  v0t.instructions.push_back(Ins(0, 2, 2, Op::Store, Space::Global, kOut));
  Two two(std::move(v0), 1, std::move(v0t), 1);
  EXPECT_TRUE(RolesMatch(two.a, two.a_steps, two.b, two.b_steps));
  EXPECT_EQ(RoleStep(two.a, two.a_steps, 1, two.b, two.b_steps, 1), 2);  // what by role would do
  EXPECT_TRUE(SameSteps(two.a, two.a_steps, two.b, two.b_steps));
  EXPECT_EQ(DefaultFollow(two.panes).mode, Follow::Lockstep);
  EXPECT_EQ(DefaultFollow(two.panes).why, FollowWhy::SameSteps);
  // One step more, or a store where the other loads, and the steps differ.
  two.b.instructions[two.b_steps[3]].op = Op::Store;
  EXPECT_FALSE(SameSteps(two.a, two.a_steps, two.b, two.b_steps));
  two.b_steps.pop_back();
  EXPECT_FALSE(SameSteps(two.a, two.a_steps, two.b, two.b_steps));
}

TEST(RoleName, SaysOperationSpaceAndArray) {
  const sim::Trace t = Tiled();
  EXPECT_EQ(RoleName(t, t.instructions[2]), "st.shared tile");
  EXPECT_EQ(RoleName(t, t.instructions[5]), "st.global out");
}

TEST(FollowSentence, SaysWhetherTheRuleOrTheLecturerChose) {
  EXPECT_EQ(FollowSentence("B", "A", Follow::Role, FollowWhy::RolesMatch), "B follows A by role");
  EXPECT_EQ(FollowSentence("B", "A", Follow::Lockstep, FollowWhy::RolesDiffer), "B follows A in lockstep: roles differ");
  EXPECT_EQ(FollowSentence("B", "A", Follow::Lockstep, FollowWhy::SameSteps), "B follows A in lockstep: same steps");
  EXPECT_EQ(FollowSentence("A", "B", Follow::Lockstep, FollowWhy::Chosen), "A follows B in lockstep (L)");
  EXPECT_EQ(FollowSentence("B", "A", Follow::Role, FollowWhy::Chosen), "B follows A by source role (L)");
  EXPECT_EQ(FollowSentence("B", "A", Follow::Alone, FollowWhy::Chosen), "B follows A alone (L)");
}

// One label in every mode, from 0 as --step counts: step 2 of a warp's 4 steps (0, 1, 2, 3).
TEST(StepLabel, CountsFromZeroWithTheRange) {
  EXPECT_EQ(StepLabel(2, 4), "step 2 (0\xe2\x80\x93" "3)");
  EXPECT_EQ(StepLabel(0, 9), "step 0 (0\xe2\x80\x93" "8)");
  EXPECT_EQ(StepLabel(0, 1), "step 0 (0\xe2\x80\x93" "0)");
  EXPECT_EQ(StepLabel(0, 0), "no steps");
}

}  // namespace
}  // namespace ws::visual
