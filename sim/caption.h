// The cost of one warp instruction (or of one step of a whole block) in the words a lecturer
// says. The one source of the caption: the CLI's trace and the GUI's badge both print this.
#pragma once
#include <string>
#include <vector>

#include "sim/trace.h"

namespace ws::sim {

// The headline carries the lesson ("16 lines · 16 sectors (ideal 2)", "32-way bank conflict",
// "broadcast: 1 wavefront", "16 of 32 lanes active · …", "32 atomic updates to one address:
// serialised"); the details say the rest ("32 wavefronts (ideal 1)", "12.5% of bytes moved are
// used", the phase rule where it splits the warp (BankPhaseDetail), and where the cache model
// served the sectors (ServedSummary): "4 sectors: 3 L1 hits, 1 from DRAM"). "Ideal" is
// IdealDefinition (rule_text.h) for every access. Every percentage is of its own whole and
// never exceeds 100%: useful bytes are the distinct bytes the lanes ask for over the bytes the
// sectors move; repeated reads of one address are a broadcast, said separately.
struct CaptionParts {
  std::string headline;
  std::vector<std::string> details;
  std::string Text() const;  // headline and details joined by " · "
};
CaptionParts CaptionOf(const WarpInstruction& ins);
CaptionParts CaptionOf(const std::vector<const WarpInstruction*>& step);

// CaptionOf(...).Text(): the line the CLI's trace prints.
std::string Caption(const WarpInstruction& ins);

// One step of a whole block: `step` holds each warp's instruction (the focused warp first).
// The warps at the focused warp's instruction (same site, space and operation) are counted
// together. Requests and what they reach are told apart: "8 warps · 128 sector requests (ideal
// 16) to 16 distinct sectors in 16 distinct lines" sums each request's sectors, as ncu counts
// them, and counts each sector and line the requests fall in once, as the picture outlines
// them; wavefronts are summed; the largest conflict degree and the most atomic updates on one
// address. One warp: as CaptionOf(ins).
std::string Caption(const std::vector<const WarpInstruction*>& step);

}  // namespace ws::sim
