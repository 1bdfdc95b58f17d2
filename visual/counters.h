// Counters and timings: the simulator's counters for A and B side by side under Nsight Compute's
// names (each explained in a tooltip), and the GPU's measured times as bars.
#pragma once
#include <string>
#include <vector>

#include "sim/trace.h"

namespace ws::visual {

struct TimingRow {
  std::string variant;  // "shortcut/v1"
  double ms = 0, ms_min = 0, ms_max = 0, gbps = 0, pct_of_peak = 0, speedup = 0;
  int n = 0;
  std::string error;
};

// What the timing section shows; filled by the app from the GPU runner or a recorded file.
struct Timings {
  bool running = false;
  double progress = 0;
  std::string status;  // "no CUDA device", "recorded on NVIDIA H200 (2025-01-02)", ...
  std::string peak_meaning;
  std::vector<TimingRow> rows;
};

class CountersView {
 public:
  // Returns true when the user asks for a GPU run.
  bool Draw(const std::string& name_a, const sim::Trace* a, const std::string& name_b, const sim::Trace* b,
            const Timings& timings, bool can_run_gpu, float scale);

 private:
  bool hide_zero_ = true;
};

}  // namespace ws::visual
