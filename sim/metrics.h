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

std::vector<Metric> Metrics(const Counters& c);

}  // namespace ws::sim
