// The instruction caption (see caption.h): one rule for the CLI and the views.
#include "sim/caption.h"

#include <algorithm>
#include <cstdio>

#include "sim/cache.h"
#include "sim/rule_text.h"
#include "sim/rules.h"

namespace ws::sim {
namespace {

const char* const kSep = " \xc2\xb7 ";  // " · "

std::string Plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string Percent(double num, double den) {
  char b[32];
  const double p = den > 0 ? 100.0 * num / den : 100.0;
  // Whole percents where exact (25%), else one decimal (12.5%, 3.1%).
  std::snprintf(b, sizeof b, p == double(int64_t(p)) ? "%.0f%%" : "%.1f%%", p);
  return b;
}

// What the instructions of one step add up to.
struct Sum {
  int warps = 0;
  uint64_t lanes = 0, lane_slots = 0;
  uint64_t lines = 0, sectors = 0, ideal_sectors = 0, distinct_bytes = 0;
  uint64_t wavefronts = 0, ideal_wavefronts = 0;
  int degree = 0;
  int most_on_one_address = 0;
  bool all_broadcast = true, any_broadcast = false;  // some lanes of a warp share an address
  bool all_aggregated = true;  // atomics nvcc sums within the warp (CompilerAggregates)
  // Over the step's requests together: what a whole block's step asks of memory, each address,
  // sector and line once (one warp: the same as its request's).
  uint64_t distinct_addresses = 0, distinct_sectors = 0, distinct_lines = 0;
  // Global: the requests' sectors by where the cache model served them (ServedSectors); all
  // zero when the caches were not modelled.
  uint64_t served[4] = {};  // by ServedFrom: None, L1, L2, Dram
};

uint64_t CountDistinct(std::vector<uint64_t>& v) {
  std::sort(v.begin(), v.end());
  return uint64_t(std::unique(v.begin(), v.end()) - v.begin());
}

Sum Add(const std::vector<const WarpInstruction*>& step) {
  Sum s;
  std::vector<uint64_t> addresses, sectors, lines;
  for (const WarpInstruction* ins : step) {
    const int lanes = ins->ActiveLanes();
    ++s.warps;
    s.lanes += lanes;
    s.lane_slots += kWarpSize;
    s.lines += ins->lines;
    s.sectors += ins->sectors;
    s.ideal_sectors += ins->ideal_sectors;
    s.distinct_bytes += DistinctBytes(*ins);
    s.wavefronts += ins->wavefronts;
    s.ideal_wavefronts += ins->ideal_wavefronts;
    s.degree = std::max<int>(s.degree, ins->conflict_degree);
    s.most_on_one_address = std::max<int>(s.most_on_one_address, ins->same_address_lanes);
    s.all_aggregated &= CompilerAggregates(*ins);
    const bool broadcast = DistinctAddresses(*ins) < lanes;
    s.any_broadcast |= broadcast;
    s.all_broadcast &= broadcast;
    for (uint32_t m = ins->mask; m; m &= m - 1) addresses.push_back(ins->addr[__builtin_ctz(m)]);
    ServedSector served[kWarpSize];
    const int n = ServedSectors(*ins, served);
    for (int i = 0; i < n; ++i) {
      ++s.served[int(served[i].from)];
      sectors.push_back(served[i].sector);
      lines.push_back(served[i].sector / SectorCache::kSectorsPerLine);
    }
  }
  s.distinct_addresses = CountDistinct(addresses);
  s.distinct_sectors = CountDistinct(sectors);
  s.distinct_lines = CountDistinct(lines);
  return s;
}

CaptionParts Describe(const WarpInstruction& focus, const Sum& s) {
  std::vector<std::string> head, details;
  const bool atomic = focus.op == Op::Atomic || focus.op == Op::Reduction;
  const bool block = s.warps > 1;
  if (block) head.push_back(std::to_string(s.warps) + " warps");
  if (s.lanes < s.lane_slots)
    head.push_back(std::to_string(s.lanes) + " of " + std::to_string(s.lane_slots) + " lanes active");
  if (atomic) {
    // Same-address updates serialise (one sector per lane), unless nvcc adds an integer
    // warp's updates to one address into one (see CompilerAggregates).
    const int most = s.most_on_one_address;
    if (most > 1 && s.all_aggregated)
      head.push_back((block ? std::to_string(s.lanes) : std::to_string(most)) +
                     " atomic updates to one address: aggregated by the compiler into " + (block ? "1 per warp" : "1"));
    else if (most > 1 && !block && uint64_t(most) == s.lanes)
      head.push_back(std::to_string(most) + " atomic updates to one address: serialised");
    else if (most > 1)
      head.push_back(Plural(s.lanes, "atomic update", "atomic updates") + ", up to " + std::to_string(most) +
                     " to one address: serialised");
    else
      head.push_back(Plural(s.lanes, "atomic update", "atomic updates") +
                     (s.lanes == 1 ? ": nothing to serialise" : ", each to its own address"));
  }
  if (atomic && focus.space == Space::Shared && focus.add == AtomicAdd::Float && s.most_on_one_address > 1)
    details.push_back("a float atomicAdd on shared memory is a compare-and-swap loop: " +
                      std::to_string(s.most_on_one_address) + " rounds of a load and a CAS");
  // One warp: its request's distinct lines and sectors. Where the sectors asked for are more than
  // the distinct ones (a whole block's requests; one warp's serialised atomics, a sector per lane
  // as ncu counts them): the sector requests apart from the distinct sectors and lines they all
  // fall in (what the picture outlines).
  const char* sector_one = block ? "sector request" : "sector";
  const char* sector_many = block ? "sector requests" : "sectors";
  if (focus.space == Space::Global) {
    auto& cost = atomic ? details : head;
    const std::string ideal = " (ideal " + std::to_string(s.ideal_sectors) + ")";
    if (block || s.sectors != s.distinct_sectors) {
      cost.push_back(Plural(s.sectors, "sector request", "sector requests") + ideal + " to " +
                     Plural(s.distinct_sectors, "distinct sector", "distinct sectors") + " in " +
                     Plural(s.distinct_lines, "distinct line", "distinct lines"));
    } else {
      cost.push_back(Plural(s.lines, "line", "lines"));
      cost.push_back(Plural(s.sectors, "sector", "sectors") + ideal);
    }
    if (std::string served = ServedSummary(focus.op, s.served, sector_one, sector_many); !served.empty())
      details.push_back(std::move(served));
    if (!atomic && s.any_broadcast)
      details.push_back(std::string(focus.op == Op::Load ? "broadcast: " : "") + std::to_string(s.lanes) + " lanes " +
                        (focus.op == Op::Load ? "read " : "write ") +
                        Plural(s.distinct_addresses, "distinct address", "distinct addresses"));
    if (!atomic && s.sectors > 0)
      details.push_back(Percent(double(s.distinct_bytes), 32.0 * double(s.sectors)) + " of bytes moved are used");
  } else {
    std::string cost = Plural(s.wavefronts, "wavefront", "wavefronts");
    if (s.wavefronts != s.ideal_wavefronts) cost += " (ideal " + std::to_string(s.ideal_wavefronts) + ")";
    if (s.degree > 1) {
      head.push_back((block ? "up to " : "") + std::to_string(s.degree) + "-way bank conflict");
      details.push_back(cost);
    } else {
      head.push_back((s.all_broadcast && !atomic ? "broadcast: " : "no bank conflict: ") + cost);
    }
    if (std::string phases = BankPhaseDetail(focus.width, focus.op); !phases.empty()) details.push_back(phases);
    if (s.degree > 1 && s.any_broadcast && !atomic)
      details.push_back("broadcast: " + std::to_string(s.lanes) + " lanes read " +
                        Plural(s.distinct_addresses, "distinct address", "distinct addresses"));
  }
  CaptionParts c;
  for (const auto& p : head) c.headline += (c.headline.empty() ? "" : kSep) + p;
  c.details = std::move(details);
  return c;
}

}  // namespace

std::string CaptionParts::Text() const {
  std::string out = headline;
  for (const auto& d : details) out += (out.empty() ? "" : kSep) + d;
  return out;
}

CaptionParts CaptionOf(const WarpInstruction& ins) { return Describe(ins, Add({&ins})); }

CaptionParts CaptionOf(const std::vector<const WarpInstruction*>& step) {
  if (step.empty()) return {};
  const WarpInstruction& focus = *step.front();
  std::vector<const WarpInstruction*> same;
  for (const WarpInstruction* ins : step)
    if (ins->site == focus.site && ins->space == focus.space && ins->op == focus.op) same.push_back(ins);
  return Describe(focus, Add(same));
}

std::string Caption(const WarpInstruction& ins) { return CaptionOf(ins).Text(); }

std::string Caption(const std::vector<const WarpInstruction*>& step) { return CaptionOf(step).Text(); }

}  // namespace ws::sim
