// A finding's one text: what the CLI prints, what --json carries and what the GUI's banner shows,
// all from FindingText, so that the place is said once and in one wording.
#pragma once
#include <string>

#include "sim/trace.h"

namespace ws::sim {

// Where a finding happened, the parts its scope and fields have: "line 12, block (3,0,0),
// thread (5,1,0), address 0x1040". A launch-wide finding (a refused launch) ran no thread, so it
// has no block or thread; a block-wide one names its block only; the address only where the
// finding has one (Finding::has_address: a shared array's address 0x0 is an address too).
std::string FindingPlace(const Trace& t, const Finding& f);

// "error [out-of-bounds] line 45, block (0,0,0), thread (0,0,0), address 0x7f0000000400: the
// thread accesses y[256], outside its 256 elements; the access was skipped (3 times)". The
// message (Finding::message) says what happened to the place's thread ("the thread ...") and
// never repeats the place.
std::string FindingText(const Trace& t, const Finding& f);

// Whether a finding names a thread to go to (a launch-wide one does not).
inline bool HasPlace(const Finding& f) { return f.scope != FindingScope::Launch; }

}  // namespace ws::sim
