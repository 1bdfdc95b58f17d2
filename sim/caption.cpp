// The instruction caption (see caption.h): one rule for the CLI and the views.
#include "sim/caption.h"

#include <algorithm>
#include <cstdio>

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
  int degree = 0, phase_lanes = 32;
  int most_on_one_address = 0;
  bool all_broadcast = true, any_broadcast = false;  // some lanes share an address
  bool all_aggregated = true;  // atomics nvcc sums within the warp (CompilerAggregates)
  uint64_t distinct_addresses = 0;
  // Global: distinct sectors by where the cache model served them (ServedSectors); all zero
  // when the caches were not modelled.
  uint64_t served[4] = {};  // by ServedFrom: None, L1, L2, Dram
};

Sum Add(const std::vector<const WarpInstruction*>& step) {
  Sum s;
  for (const WarpInstruction* ins : step) {
    const int lanes = ins->ActiveLanes();
    const int distinct = DistinctAddresses(*ins);
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
    s.phase_lanes = BankPhaseLanes(ins->width);
    s.most_on_one_address = std::max<int>(s.most_on_one_address, ins->same_address_lanes);
    s.all_aggregated &= CompilerAggregates(*ins);
    s.distinct_addresses += distinct;
    const bool broadcast = distinct < lanes;
    s.any_broadcast |= broadcast;
    s.all_broadcast &= broadcast;
    ServedSector sectors[kWarpSize];
    const int n = ServedSectors(*ins, sectors);
    for (int i = 0; i < n; ++i) ++s.served[int(sectors[i].from)];
  }
  return s;
}

// Where the step's sectors came from, in the caption's words; empty when the caches were not
// modelled. Loads: "4 sectors: 3 L1 hits, 1 from DRAM". Stores do not allocate in L1: every
// sector is written through to L2. Atomics are performed at L2, fetching a sector it lacks
// from DRAM. A whole block's step counts the sectors of every warp's request.
std::string ServedWords(Op op, const Sum& s) {
  const uint64_t l1 = s.served[int(ServedFrom::L1)], l2 = s.served[int(ServedFrom::L2)],
                 dram = s.served[int(ServedFrom::Dram)];
  const uint64_t n = l1 + l2 + dram;
  if (n == 0) return "";
  if (op == Op::Store) return Plural(n, "sector", "sectors") + " written through to L2 (stores do not allocate in L1)";
  std::string parts;
  auto part = [&](uint64_t k, const std::string& what) {
    if (k) parts += (parts.empty() ? "" : ", ") + std::to_string(k) + " " + what;
  };
  part(l1, l1 == 1 ? "L1 hit" : "L1 hits");
  part(l2, l2 == 1 ? "L2 hit" : "L2 hits");
  part(dram, "from DRAM");
  return Plural(n, "sector", "sectors") + (op == Op::Load ? ": " : " updated at L2: ") + parts;
}

CaptionParts Describe(const WarpInstruction& focus, const Sum& s) {
  std::vector<std::string> head, details;
  const bool atomic = focus.op == Op::Atomic || focus.op == Op::Reduction;
  if (s.warps > 1) head.push_back(std::to_string(s.warps) + " warps");
  if (s.lanes < s.lane_slots)
    head.push_back(std::to_string(s.lanes) + " of " + std::to_string(s.lane_slots) + " lanes active");
  if (atomic) {
    // Same-address updates serialise (one sector per lane), unless nvcc adds an integer
    // warp's updates to one address into one (see CompilerAggregates).
    const int most = s.most_on_one_address;
    if (most > 1 && s.all_aggregated)
      head.push_back((s.warps == 1 ? std::to_string(most) : std::to_string(s.lanes)) +
                     " atomic updates to one address: aggregated by the compiler into " +
                     (s.warps == 1 ? "1" : "1 per warp"));
    else if (most > 1 && s.warps == 1 && uint64_t(most) == s.lanes)
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
  if (focus.space == Space::Global) {
    auto& cost = atomic ? details : head;
    cost.push_back(Plural(s.lines, "line", "lines"));
    cost.push_back(Plural(s.sectors, "sector", "sectors") + " (ideal " + std::to_string(s.ideal_sectors) + ")");
    if (std::string served = ServedWords(focus.op, s); !served.empty()) details.push_back(std::move(served));
    if (!atomic && s.any_broadcast)
      details.push_back(std::string(focus.op == Op::Load ? "broadcast: " : "") + std::to_string(s.lanes) + " lanes " +
                        (focus.op == Op::Load ? "read " : "write ") +
                        Plural(s.distinct_addresses, "address", "addresses"));
    if (!atomic && s.sectors > 0)
      details.push_back(Percent(double(s.distinct_bytes), 32.0 * double(s.sectors)) + " of bytes moved are used");
  } else {
    std::string cost = Plural(s.wavefronts, "wavefront", "wavefronts");
    if (s.wavefronts != s.ideal_wavefronts) cost += " (ideal " + std::to_string(s.ideal_wavefronts) + ")";
    if (s.degree > 1) {
      head.push_back((s.warps > 1 ? "up to " : "") + std::to_string(s.degree) + "-way bank conflict");
      details.push_back(cost);
    } else {
      head.push_back((s.all_broadcast && !atomic ? "broadcast: " : "no bank conflict: ") + cost);
    }
    if (s.phase_lanes < kWarpSize && focus.op == Op::Load)
      details.push_back(std::to_string(focus.width) +
                        "-byte reads per half-warp: its two quarter-warps share a wavefront only on different banks");
    else if (s.phase_lanes < kWarpSize)
      details.push_back(std::to_string(focus.width) + "-byte accesses in phases of " + std::to_string(s.phase_lanes) +
                        " lanes");
    if (s.degree > 1 && s.any_broadcast && !atomic)
      details.push_back("broadcast: " + std::to_string(s.lanes) + " lanes read " +
                        Plural(s.distinct_addresses, "address", "addresses"));
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

std::string FindingPlace(const Trace& t, const Finding& f) {
  auto dim = [](const Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
  };
  std::vector<std::string> parts;
  if (f.site >= 0 && size_t(f.site) < t.sites.size()) parts.push_back("line " + std::to_string(t.sites[f.site].line));
  if (f.kind != FindingKind::LaunchLimit) {
    parts.push_back("block " + dim(f.block));
    parts.push_back("thread " + dim(f.thread));
  }
  if (f.array >= 0 && size_t(f.array) < t.arrays.size()) parts.push_back("array " + t.arrays[f.array].name);
  if (f.address) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(f.address));
    parts.push_back("address " + std::string(hex));
  }
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

}  // namespace ws::sim
