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

// Bytes a global instruction moved that its lanes asked for, as a fraction of bytes moved.
double UsedFraction(const sim::WarpInstruction& ins);

// Element of `array` that `addr` falls in.
inline uint64_t ElementOf(const sim::ArrayInfo& a, uint64_t addr) {
  return a.elem_bytes ? (addr - a.base) / a.elem_bytes : 0;
}

}  // namespace ws::visual
