// Runs catalog variants on the GPU, from the same sources the simulator runs, on a worker
// thread the GUI can poll each frame without blocking.
#pragma once
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/family.h"

namespace ws::kernels {

struct VariantRef;

// True when this build has the CUDA runner and a device answers; otherwise `why` says why
// ("no CUDA device: ..."). Any CUDA error counts as "no device".
bool CudaAvailable(std::string* why);

// The median of timed runs (the mean of the middle two for an even count); 0 for none.
double Median(std::vector<double> v);

// One variant timed on the device.
struct Timing {
  std::string variant;        // "transpose/naive"
  int n = 0;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  int runs = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;  // spread: min..max
  double gbps = 0;            // the family's bytes (Work::bytes) / median time
  double gops = 0;            // the family's operations / median time (0 where it computes nothing)
  double pct_of_peak = 0;     // of the family's ceiling (copy bandwidth, or arithmetic peak)
  std::string peak_meaning;   // which ceiling pct_of_peak is of
  double rate = 0;            // the family's own figure: gbps (memory-bound) or gops (compute-bound)
  std::string rate_unit;      // "GB/s" or "Gop/s"
  std::string peak_name;      // the ceiling in a few words for the screen: "FP32 peak 33454 Gop/s"
  double speedup = 0;         // over the family's first variant at the same n (0 if not run)
  Check check;                // output vs the CPU reference
  std::string error;          // non-empty: launch failed / out of memory / timeout, with variant and size
  double peak = 0;            // the ceiling itself, in GB/s or Gop/s (see peak_meaning)
  int launches = 0;           // kernel launches per run (times are summed over them)
  std::vector<double> ms_runs;  // every timed run
};

struct BenchReport {
  std::string device, driver, date;  // device name, driver and runtime versions, ISO date
  double copy_gbps = 0;              // cudaMemcpy device-to-device, measured once
  std::vector<Timing> timings;
  bool recorded = false;             // read from a file rather than measured now
  int sm_count = 0;
  double clock_ghz = 0;              // the maximum SM clock the device reports
  double fp32_lane_gops = 0;         // SMs x 128 FP32 lanes x clock: one instruction per lane
  double l2_bytes = 0;
  int warmup = 0, runs = 0;          // per variant
  bool l2_flushed = false;
  std::string command;               // how the results were made, when known
};

// The worker: Start returns at once; Poll is cheap and never blocks.
class GpuRunner {
 public:
  GpuRunner();
  ~GpuRunner();  // cancels and joins
  struct Status {
    bool running = false;
    double progress = 0;      // 0..1
    std::string message;      // what it is doing, or why it stopped
    BenchReport report;       // results so far
  };
  // Times `variant_ids` at size n (0: each family's timing size) with `runs` timed runs each.
  // `single_launch`: one plain launch per variant, no warm-up or L2 flush (for profilers).
  void Start(std::vector<std::string> variant_ids, int n, int runs, bool single_launch = false);
  void Cancel();
  Status Poll() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A timing's figures from its median time and the family's work (GB/s, Gop/s, % of the family's
// ceiling): `copy_gbps` is the copy bandwidth measured with these timings. Recorded timings are
// derived again as they are read (kernels/recorded.h).
void Derive(Timing& t, const VariantRef& v, const BenchReport& r, double copy_gbps);

}  // namespace ws::kernels
