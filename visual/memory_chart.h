// Memory chart: a launch's traffic as Nsight Compute's memory workload chart draws it, warps ->
// L1 -> L2 -> DRAM with request, sector and byte counts, A beside B. Each figure says where it
// comes from: the simulator, and Nsight Compute's recording beside it wherever one exists.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "visual/shown_step.h"

namespace ws::visual {

// The cache levels' figures from one source.
struct CacheFigures {
  std::optional<double> l1_hit_pct, l2_read_sectors, dram_read_bytes, dram_write_bytes;
  bool Any() const { return l1_hit_pct || l2_read_sectors || dram_read_bytes || dram_write_bytes; }
};

// One launch's flow through the memory hierarchy.
struct MemoryFlow {
  std::string variant;  // "shortcut/v0"
  // From the simulator's counters (sim::Metrics), always present.
  double ld_requests = 0, st_requests = 0, atomic_requests = 0;  // atomics: ATOM + RED
  double ld_sectors = 0, st_sectors = 0, atomic_sectors = 0;
  // The cache levels, from each source that has them, side by side on the chart.
  CacheFigures simulated;  // the simulator's cache model, when the launch ran through it
  CacheFigures recorded;   // Nsight Compute's, where a recording of this variant at this n exists
  std::string recorded_on;  // "NVIDIA H200 at n=64" (with `recorded`)
};

// The flow of a simulated launch: requests and sectors, and the cache levels where sim::Metrics
// has them. `caches` false (a launch simulated without the cache model): `simulated` stays empty.
MemoryFlow FlowFromCounters(const std::string& variant, const sim::Counters& c, bool caches = true);

// The recorded figures, beside the simulator's: Nsight Compute's metrics of one recorded launch of
// the flow's variant (by ncu metric name, as kernels::RecordedNcu keeps them) on `device` at `n`:
// the run kernels::FindRecordedRun picks, the one fallback to recorded figures.
void AddRecorded(MemoryFlow& f, const std::map<std::string, double>& ncu_metrics, const std::string& device, int n);

// The texts of the chart, top to bottom: box, arrow, box, arrow, box, arrow, box.
struct MemoryChartText {
  std::vector<std::string> boxes;   // 4: warps, L1, L2, DRAM
  std::vector<std::string> arrows;  // 3: warps->L1, L1->L2, L2->DRAM
  std::optional<float> l1_hit;      // 0..1 for the bar in the L1 box
};
MemoryChartText ChartText(const MemoryFlow& f);

// "22.0 KB", "1.05 MB", "512 B": bytes as a lecturer reads them (powers of 1000, as ncu prints).
std::string Bytes(double b);

class MemoryChartView {
 public:
  // Draws A's chart (and B's beside it) across the current window's width; records each box as
  // kind "chart", name "A:L1" etc. in `placed`.
  void Draw(const MemoryFlow* a, const MemoryFlow* b, float scale, std::vector<Placed>* placed);
};

}  // namespace ws::visual
