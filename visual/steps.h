// Stepping through a trace: which instructions one warp (or a whole block) issued, and where the
// same source line runs next (one loop iteration on). Pure functions over the trace types.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace.h"

namespace ws::visual {

// Indices into trace.instructions issued by (block, warp), in issue order.
std::vector<uint32_t> WarpSteps(const sim::Trace& trace, uint32_t block, uint32_t warp);

// From step `step` of `steps`, the next (dir > 0) or previous (dir < 0) step at the same source
// site, or `step` itself when there is none.
int IterationStep(const sim::Trace& trace, const std::vector<uint32_t>& steps, int step, int dir);

// The step of `steps` with loop iteration `epoch` that is `offset` steps into that iteration
// (clamped to the iteration), or the nearest step when no step has that iteration.
int StepAtIteration(const sim::Trace& trace, const std::vector<uint32_t>& steps, uint32_t epoch, int offset);

// How many steps into its own iteration `step` is.
int OffsetInIteration(const sim::Trace& trace, const std::vector<uint32_t>& steps, int step);

// How pane B moves when the focused pane steps: to the same step index (lockstep), to the
// instruction with the same source role (comparing unlike kernels), or not at all.
enum class Follow { Lockstep, Role, Alone };
const char* ToString(Follow f);  // "in lockstep", "by source role", "alone"

// An instruction's source role: what it does (op and space) and to which array (by name, so that
// `in` of one variant matches `in` of another).
bool SameRole(const sim::Trace& a, const sim::WarpInstruction& x, const sim::Trace& b, const sim::WarpInstruction& y);

// An instruction's role in words, as --layout-out records it: "ld.shared xx", "atom.global ans".
std::string RoleName(const sim::Trace& t, const sim::WarpInstruction& ins);

// Whether the other pane can follow `a` by source role: every step of a's warp has an
// instruction of the same role somewhere in b's warp (pairs/v1 beside v3: v1's loads of a and b
// and its atomic on ans are all in v3, which adds a tile in shared memory). Where a role of `a`
// is missing from `b`, following by role would leave b where it stands at that step, and
// lockstep pairs better. False when either warp has no steps.
bool RolesMatch(const sim::Trace& a, const std::vector<uint32_t>& a_steps, const sim::Trace& b,
                const std::vector<uint32_t>& b_steps);
// Whether the two warps issue the same steps but for the arrays' names: as many, each pair of the
// same operation and space. shortcut/v0 reads d twice an iteration where v0_transposed reads d
// and t: lockstep pairs each read with its counterpart, where by role v0's second read of d would
// stand beside the next iteration's first.
bool SameSteps(const sim::Trace& a, const std::vector<uint32_t>& a_steps, const sim::Trace& b,
               const std::vector<uint32_t>& b_steps);

// How a pair came to follow as it does: chosen (with L, or by a lesson's slide), or by the rule.
enum class FollowWhy { Chosen, RolesMatch, SameSteps, RolesDiffer };
struct FollowChoice {
  Follow mode = Follow::Lockstep;
  FollowWhy why = FollowWhy::RolesDiffer;
};
// The rule a pair starts by (the focused pane `a` leading): in lockstep where the warps have the
// same steps (SameSteps), else by source role where the roles match (RolesMatch), else in
// lockstep.
FollowChoice DefaultFollow(const sim::Trace& a, const std::vector<uint32_t>& a_steps, const sim::Trace& b,
                           const std::vector<uint32_t>& b_steps);
// How the other pane follows, in words for the status line and the timeline's button: by the
// rule "by role", "in lockstep: same steps" or "in lockstep: roles differ"; as chosen, the mode
// and its key, "by source role (L)". FollowSentence puts "B follows A " before them.
std::string FollowWords(Follow f, FollowWhy why);
std::string FollowSentence(const std::string& follower, const std::string& leader, Follow f, FollowWhy why);

// A step as every view and mode says it, counted from 0 as --step and a lesson's "step" count:
// "step 2 (0-3)" for step 2 of a warp's 4 steps (an en dash between), "no steps" for none.
std::string StepLabel(int step, int steps);

// Follow by source role: if step `a_step` of `a_steps` is the k-th instruction with its role
// there, the step of `b_steps` that is the k-th with that role in `b` (the last one when `b` has
// fewer); `b_current` when `b` has no instruction with that role.
int RoleStep(const sim::Trace& a, const std::vector<uint32_t>& a_steps, int a_step, const sim::Trace& b,
             const std::vector<uint32_t>& b_steps, int b_current);

// Element of `array` that `addr` falls in.
inline uint64_t ElementOf(const sim::ArrayInfo& a, uint64_t addr) {
  return a.elem_bytes ? (addr - a.base) / a.elem_bytes : 0;
}

}  // namespace ws::visual
