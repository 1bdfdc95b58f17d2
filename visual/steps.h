// Stepping through a trace: which instructions one warp (or a whole block) issued, and where the
// same source line runs next (one loop iteration on). Pure functions over the trace types.
#pragma once
#include <cstdint>
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
