// The sentences that state the memory rules (see rule_text.h).
#include "sim/rule_text.h"

#include <vector>

#include "sim/rules.h"

namespace ws::sim {
namespace {

std::string Plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "1-, 2-, 4- and 8-byte"
std::string Widths(const std::vector<uint32_t>& w) {
  std::string s;
  for (size_t i = 0; i < w.size(); ++i) {
    s += std::to_string(w[i]) + "-";
    if (i + 2 < w.size()) s += ", ";
    else if (i + 2 == w.size()) s += " and ";
  }
  return s + "byte";
}

}  // namespace

std::string IdealDefinition() {
  return "the least the bytes asked for could cost: the distinct bytes the active lanes ask for, rounded up to " +
         BytesName(kSectorBytes) + " sectors (global memory), or their distinct " + BytesName(kBankWordBytes) +
         " words, " + std::to_string(kBanks) + " to a wavefront in each phase (shared memory)";
}

std::string BytesName(uint32_t bytes) { return std::to_string(bytes) + "-byte"; }

std::string StoreAllocationRule(const CachePolicy& policy, bool brief) {
  const AccessPolicy& st = policy.Of(Op::Store);
  std::string s = st.l1_allocate ? "stores allocate their line in L1" : "stores do not allocate in L1";
  if (st.l1_allocate && st.l1_hit_by_line && !brief) s += " (a store to a line there is an L1 hit)";
  if (!st.l1_lookup) return s + "; they are performed at L2";
  return s + (st.l1_allocate ? " and are" : "; they are") + " written through to L2";
}

std::string AtomicRule(const CachePolicy& policy) {
  return policy.Of(Op::Atomic).l1_lookup ? "atomics are looked up in L1 and written through to L2"
                                         : "atomics are performed at L2";
}

std::string ServedSentence(Op op, ServedFrom from) {
  if (op == Op::Store) return "was stored: " + StoreAllocationRule();
  if (op != Op::Load) return from == ServedFrom::Dram ? "was updated at L2, fetched from DRAM" : "was updated at L2";
  return from == ServedFrom::L1 ? "was an L1 hit" : from == ServedFrom::L2 ? "came from L2" : "came from DRAM";
}

std::string ServedSummary(Op op, const uint64_t (&count)[4], const char* one, const char* many) {
  const uint64_t l1 = count[int(ServedFrom::L1)], l2 = count[int(ServedFrom::L2)],
                 dram = count[int(ServedFrom::Dram)];
  const uint64_t n = l1 + l2 + dram;
  if (n == 0) return "";
  if (op == Op::Store) return Plural(n, one, many) + ": " + StoreAllocationRule(kHopperCachePolicy, true);
  std::string parts;
  auto part = [&](uint64_t k, const std::string& what) {
    if (k) parts += (parts.empty() ? "" : ", ") + std::to_string(k) + " " + what;
  };
  part(l1, l1 == 1 ? "L1 hit" : "L1 hits");
  part(l2, l2 == 1 ? "L2 hit" : "L2 hits");
  part(dram, "from DRAM");
  return Plural(n, one, many) + (op == Op::Load ? ": " : " updated at L2: ") + parts;
}

std::string BankPhaseRule() {
  // The widths a shared access can have, grouped by the lanes a phase serves.
  std::vector<uint32_t> whole, split;
  for (uint32_t w : {1u, 2u, 4u, 8u, 16u}) (BankPhaseLanes(w) == kWarpSize ? whole : split).push_back(w);
  std::string s;
  if (!whole.empty()) s = Widths(whole) + " accesses are served in one phase of all " + std::to_string(kWarpSize) + " lanes";
  for (uint32_t w : split) {
    s += (s.empty() ? "" : "; ") + BankPhaseDetail(w, Op::Store) + "; " + BankPhaseDetail(w, Op::Load);
  }
  return s;
}

std::string BankPhaseDetail(uint32_t width, Op op) {
  const int lanes = BankPhaseLanes(width);
  if (lanes >= kWarpSize) return "";
  // A wide load (LDS.128) is served per half-warp (BankConflicts in rules.h).
  if (op == Op::Load)
    return std::to_string(width) + "-byte reads per half-warp: its two quarter-warps share a wavefront only on "
           "different banks";
  return std::to_string(width) + "-byte writes in " + std::to_string(kWarpSize / lanes) + " phases of " +
         std::to_string(lanes) + " lanes";
}

}  // namespace ws::sim
