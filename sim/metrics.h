// The simulator's counters under Nsight Compute's metric names, with what each one means.
#pragma once
#include <string>
#include <vector>

#include "sim/trace.h"

namespace ws::sim {

struct Metric {
  std::string name;     // the ncu metric name (or a warpscope__ name where ncu has none)
  double value;
  std::string meaning;  // one sentence for a tooltip or --help
  std::string label;    // a few words for a table row ("global ld sectors")
};

// `caches`: whether the launch ran through the cache model (Trace::caches.device set); without it
// the L1/L2/DRAM metrics are left out rather than shown as zeros.
std::vector<Metric> Metrics(const Counters& c, bool caches = true);

}  // namespace ws::sim
