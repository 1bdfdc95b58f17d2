// The cache policy as data: what a load, a store, an atomic and a reduction do at L1 and at L2.
// The hierarchy reads it (sim/hierarchy.cpp) and the sentences that state it are made from it
// (sim/rule_text.cpp); a device profile carries one (sim/device_profile.h).
#pragma once
#include <cstdint>

#include "sim/trace.h"

namespace ws::sim {

// One kind of access (an Op), level by level.
struct AccessPolicy {
  bool l1_lookup = false;       // looked up in the SM's L1 (false: performed at L2, L1 bypassed)
  bool l1_allocate = false;     // a miss in L1 allocates its sector there
  bool l1_hit_by_line = false;  // counts as an L1 hit when its line is present, whatever the sector
  bool writes = false;          // writes its sectors: through L1 to L2, where they become dirty
  bool l2_fill = false;         // a miss in L2 reads the sector from DRAM (a store's does not:
                                // the L2 keeps byte masks)
  bool waits = false;           // the warp waits for the data before its next instruction
};

struct CachePolicy {
  AccessPolicy op[4];           // indexed by Op: ld, st, atom, red
  bool l2_write_back = true;    // dirty L2 sectors reach DRAM when their line is evicted
  const AccessPolicy& Of(Op o) const { return op[int(o)]; }
};

// Hopper's, as measured on an H200 with tools/probes/cache_probe.cu (docs/FIDELITY.md "Caches"):
// loads allocate in L1 and wait; stores allocate their line in L1 (a store to a line present is
// an L1 hit), write through to L2 and do not fill from DRAM; atomics and reductions are performed
// at L2, which fills them from DRAM; the L2 writes back.
inline constexpr CachePolicy kHopperCachePolicy = {
    {
        /*ld*/ {true, true, false, false, true, true},
        /*st*/ {true, true, true, true, false, false},
        /*atom*/ {false, false, false, true, true, true},
        /*red*/ {false, false, false, true, true, false},
    },
    true,
};

}  // namespace ws::sim
