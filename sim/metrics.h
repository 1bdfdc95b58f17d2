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

// What a metric means, in the one wording Metrics gives it (or, for an Nsight Compute metric the
// simulator counts under another name or not at all, the one written beside this); empty for a
// name it does not know. The seed table and the views quote it.
std::string MetricMeaning(const std::string& name);

}  // namespace ws::sim
