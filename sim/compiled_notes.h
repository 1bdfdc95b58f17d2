// The simulator's memory instructions beside the compiler's, source line by source line: each
// difference becomes a note (merged into a wider access, kept in a register, predicated,
// aggregated, hoisted), and the line's counters can be counted as the compiled code makes them.
// Pure: a trace and a parsed listing in, notes and counters out (the rules: docs/FIDELITY.md,
// "What nvcc made of a line").
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/compiled.h"
#include "sim/trace.h"

namespace ws::sim {

// The classes of difference between the source as simulated and the code nvcc emitted.
enum class CompilerNoteKind : uint8_t {
  Merged,          // narrower accesses merged into one wider instruction (4 x LDS -> LDS.128)
  KeptInRegister,  // a load or store the source makes that the compiled code does not
  Predicated,      // a branch turned into predicated instructions: every lane issues them
  Aggregated,      // an atomic summed within the warp and issued by one lane
  Hoisted,         // an access made once, outside the loop, instead of once per iteration
};
const char* ToString(CompilerNoteKind k);  // "merged", "kept in a register", ...

// One generated note at one source line, about one space and operation (shared loads, ...).
struct CompilerNote {
  uint32_t line = 0;
  CompilerNoteKind kind = CompilerNoteKind::Merged;
  Space space = Space::Global;
  Op op = Op::Load;  // Atomic covers Reduction too
  std::string text;  // "4 shared loads of 4 B merged into LDS.128 (16 B per lane)"
  // Without volatile a store kept in a register is not seen by the other lanes that read the word
  // (a warp-synchronous race at some line): the GPU's result can differ from the simulator's.
  bool result_may_differ = false;
  // As compiled, the line's instructions of this space and op are the simulated ones times
  // `factor`; where `from_lines` is not empty, the line's are instead the most of those lines'
  // (the stores of a predicated branch's two sides, made by one instruction here).
  double factor = 1;
  bool keeps_ideal = false;  // a merge: the same bytes, so the ideal sectors and wavefronts stay
  std::vector<uint32_t> from_lines;
};

struct CompiledComparison {
  std::vector<CompilerNote> notes;  // by line, then as found
  // Per source line the memory instructions nvcc emitted for it, as the GUI and `sass` name them:
  // "LDS.128 ×4, LDS ×16".
  std::map<uint32_t, std::string> emitted;
  bool result_may_differ = false;  // some note says so
  // The notes of one line, joined by "; " ("" when none).
  std::string LineText(uint32_t line) const;
};

// Compares `t`'s memory instructions (its per-line counters, and the shape of each line's
// executions read from its traced warps) with the compiled kernel `k`'s instructions at lines of
// `file` (matched by its ending, as the line table names it). Lines the traced warps did not run
// are compared only where the widths or the presence of an instruction say enough.
CompiledComparison CompareWithCompiled(const Trace& t, const CompiledKernel& k, const std::string& file);

// The counters as the compiled code makes them: each noted line's counters of the note's space
// and op scaled by its factor (requests, sectors, lines, L1/L2 traffic, shared instructions,
// wavefronts: a lane's 4 narrow accesses to its own 16 bytes cost, merged, what one of them cost;
// a merge keeps the ideal figures, the bytes being the same), or taken from `from_lines`.
// Returns the per-line counters; `total` gets their sum.
std::map<uint32_t, Counters> AsCompiled(const Trace& t, const CompiledComparison& c, Counters* total);

// Whether the line table's file name `name` is `file`: the same path, or one ending in "/" + file.
bool IsSameFile(const std::string& name, const std::string& file);

}  // namespace ws::sim
