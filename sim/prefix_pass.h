// The prefix pass: the selected block's first steps with their final served-from marks, from the
// first part of every block of its wave (LaunchOptions::on_selected_prefix).
//
// The marks of the selected warp's step s depend only on the replay of its wave up to the turn at
// which s issues (sim/hierarchy.h, "What decides the traced block's served-from marks"). The
// replay takes the warps' records earliest clock first, so where every warp of the wave has its
// first records, it is the whole launch's up to the first turn of a warp whose records ran out
// before the warp did. The pass runs the first wave with every warp of its blocks but block 0 and
// the selected one stopped where a lane would go on past `cut` accesses and synchronisations (the
// block stops once none of its warps can go on; its unfinished warps are cut,
// MemoryHierarchy::CutWarp), and the replay stops at that turn.
// A warp's records up to its cut are the whole run's (an instruction is issued only once every
// lane that takes part has reached it), provided each block reads what it would read in the
// whole run. A cut block writes less than the whole one, so the pass gives no picture where:
//  - a block reads or writes a global word another block wrote, or writes one another read, or
//    uses a global atomic (sim/parallel_run.h's GlobalShadow, which several threads check too);
//  - a global array has words written and other words only read: a later part of a cut block
//    might write what another block read (a block's words that it read and then wrote are its
//    own). Blocks 0 and the selected one run whole, so a kernel whose every block writes an
//    array that blocks read is caught even where the cut blocks never reach their writes; a
//    kernel whose blocks differ (one block alone writes, after its cut, an array that the others
//    only read) is not, and is a race on a GPU anyway;
//  - a block reads shared memory it did not write (what the block before it left).
// The arrays' bytes are put back before the launch runs, which then runs exactly as without the
// pass. The pass keeps a copy of the global arrays and the wave's cut streams while it runs.
#pragma once
#include "sim/engine_impl.h"

namespace ws::sim::detail {

// Runs the prefix pass for `main`'s launch of shape s (its body, arrays and options set) and calls
// main.opt.on_selected_prefix if it gives a picture. Starts with a cut of kFirstCut and doubles it
// until the selected warp's step opt.prefix_step is final, while the cut is a small part of what
// block 0's threads did whole.
// Returns whether it gave one.
bool RunPrefixPass(EngineImpl& main, const LaunchShape& s);

inline constexpr uint64_t kFirstCut = 128;

}  // namespace ws::sim::detail
