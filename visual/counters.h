// Counters and timings: the simulator's counters for A and B side by side under Nsight Compute's
// names (each explained in a tooltip), and the GPU's measured times as bars, each in its family's
// own unit (GB/s or Gop/s) with the ceiling its percentage is of named on the bar.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sim/compiled.h"
#include "sim/trace.h"

namespace ws::visual {

struct TimingRow {
  std::string variant;  // "shortcut/v1"
  double ms = 0, ms_min = 0, ms_max = 0;
  double rate = 0;            // in the family's own unit
  std::string rate_unit;      // "GB/s" (memory-bound families) or "Gop/s" (compute-bound)
  double pct_of_peak = 0;     // of peak_name
  std::string peak_name;      // the ceiling, on screen: "FP32 peak 33454 Gop/s", "copy 4243 GB/s"
  std::string peak_meaning;   // the ceiling explained, for the tooltip
  double speedup = 0;
  int n = 0;
  std::string error;
};

// What the timing section shows; filled by the app from the GPU runner or a recorded file.
struct Timings {
  bool running = false;
  double progress = 0;
  std::string status;         // one line: "No GPU — results recorded on NVIDIA H200, 2026-11-22"
  std::string status_detail;  // its tooltip: the driver's reason, the recorded file's command
  std::vector<TimingRow> rows;
};

// A variant as a column, a bar or a chart names it: "v1" for the catalog's "shortcut/v1", the
// kernel "scale" for a kernel file's "path/to/mine.cu:scale".
std::string ShortName(const std::string& id);

// The names A's and B's columns go by (b empty: A alone): their ShortNames; where those are the
// same, the family or the file's name joins them ("shortcut/v1" beside "pairs/v1", "mine.cu:scale"
// beside "yours.cu:scale"); where those clash too (the same file in two folders), the whole ids.
std::pair<std::string, std::string> ColumnNames(const std::string& a, const std::string& b);

// A time and a ratio as the timings and a lesson's captions write them: "0.147 ms", "5.2×", "31.7×".
std::string Ms(double ms);
std::string Times(double x);

// The A-vs-B line as a lecturer says it: "v1 is 5.2× faster than v0" (names without family).
// Within 2% of each other: "v2 and v2_diagonal take the same time (14.7 ms)".
std::string SpeedComparison(const std::string& name_a, double ms_a, const std::string& name_b, double ms_b);

// One timing bar's text: "v1  27.3 ms  5033 Gop/s  15%  5.2×".
std::string TimingBarText(const TimingRow& r);

// What the bars' figures are, said once above them:
// "time · Gop/s · % of FP32 peak 33454 Gop/s · speed-up over v0". Empty without rows.
std::string TimingsLegend(const std::vector<TimingRow>& rows);

// What nvcc made of one side's kernel, for the counters panel (app/compiled_lines.h): ptxas'
// resource usage and the launch counted as the compiled code runs it. Null members: unknown.
struct CompiledCounters {
  const sim::ResourceUsage* usage = nullptr;
  const sim::Counters* as_compiled = nullptr;
  std::string status;  // why there is none, where there is none
};

// ptxas' figures in one line: "18 registers per thread, stack 0 B, spills 0 B stored / 0 B
// loaded, static shared 512 B".
std::string UsageLine(const sim::ResourceUsage& u);

class CountersView {
 public:
  // Returns true when the user asks for a GPU run. `ca`, `cb`: A's and B's compiled figures (null:
  // none): their usage under the counters, and, with "as compiled" ticked, a column per side.
  bool Draw(const std::string& name_a, const sim::Trace* a, const std::string& name_b, const sim::Trace* b,
            const Timings& timings, bool can_run_gpu, float scale, const CompiledCounters* ca = nullptr,
            const CompiledCounters* cb = nullptr);
  // The "as compiled" columns on / off (the checkbox, the C key).
  void ToggleAsCompiled() { as_compiled_ = !as_compiled_; }

 private:
  bool hide_zero_ = true;
  bool as_compiled_ = false;
};

}  // namespace ws::visual
