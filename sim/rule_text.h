// The sentences that state a memory rule, each written here once and, where the rule is a
// function, generated from it: captions, tooltips, the legend, the glossary and the metrics'
// meanings quote these, and tests/test_rule_text.cpp holds each against the rule it states.
#pragma once
#include <cstdint>
#include <string>

#include "sim/cache_policy.h"
#include "sim/geometry.h"
#include "sim/trace.h"

namespace ws::sim {

// ---- global memory ----

// What "ideal" means, for every access (Coalesce's ideal_sectors, BankConflicts'
// ideal_wavefronts): "the least the bytes asked for could cost: ...".
std::string IdealDefinition();

// A size of sim/geometry.h as the prose writes it: BytesName(kSectorBytes) is "32-byte".
std::string BytesName(uint32_t bytes);

// The allocation rule of a cache policy (sim/cache_policy.h; the hierarchy applies the device's):
// on Hopper "stores allocate their line in L1 (a store to a line there is an L1 hit) and are
// written through to L2". And where atomics go: "atomics are performed at L2". `brief` leaves the
// parenthesis out ("stores allocate their line in L1 and are written through to L2"): the badge's
// line under a store, whose sectors it does not count as hits.
std::string StoreAllocationRule(const CachePolicy& policy = kHopperCachePolicy, bool brief = false);
std::string AtomicRule(const CachePolicy& policy = kHopperCachePolicy);

// Where one sector of an instruction was served from, said of the sector: "was an L1 hit",
// "came from L2", "came from DRAM", for a store "was stored: <StoreAllocationRule>", for an
// atomic "was updated at L2" (", fetched from DRAM" where L2 lacked it).
std::string ServedSentence(Op op, ServedFrom from);

// The sectors of a request (or of a step's requests), by where they were served (`count`
// indexed by ServedFrom), as the caption says them: "4 sectors: 3 L1 hits, 1 from DRAM";
// "4 sectors: <StoreAllocationRule, brief>"; "1 sector updated at L2: 1 from DRAM". `sectors` is the
// noun ("sectors", or "sector requests" for a whole block). Empty when nothing was served
// (the caches were not modelled).
std::string ServedSummary(Op op, const uint64_t (&count)[4], const char* one = "sector",
                          const char* many = "sectors");

// ---- shared memory ----

// The phase rule (BankPhaseLanes), over every width an access can have: "1-, 2-, 4- and 8-byte
// accesses are served in one phase of 32 lanes; 16-byte accesses in 4 phases of 8 lanes ...".
std::string BankPhaseRule();

// What the phase rule says of one access, for its caption; empty where the access is one phase
// of the whole warp.
std::string BankPhaseDetail(uint32_t width, Op op);

}  // namespace ws::sim
