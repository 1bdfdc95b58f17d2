// The GPU side of the runner as the host compiler sees it: one open device, its ceilings, and
// timing one catalog variant. Implemented in cuda_families.cu (built only with nvcc).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernels/catalog.h"

namespace ws::kernels {

struct TimingOptions {
  int warmup = 2;
  int runs = 10;
  bool flush_l2 = true;   // write a buffer of twice the L2 before every run
  bool restore = true;    // restore the written arrays before each run; off: one plain launch
                          // (no warm-up, no flush), for ncu and compute-sanitizer
  double timeout_s = 20;  // one launch longer than this is abandoned as a timeout
};

struct DeviceFacts {
  std::string name, driver;   // "NVIDIA H100 80GB HBM3", "driver 13.0, runtime 13.0"
  int sm_count = 0;
  double clock_ghz = 0;       // the SM clock the device reports as its maximum
  double l2_bytes = 0;
  double memory_bytes = 0;
  int cc_major = 0, cc_minor = 0;
};

// What one variant's launches measured. Times are summed over the Run's launches.
struct VariantTiming {
  std::vector<double> ms;     // per timed run, each the sum over the Run's launches
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};  // of the first launch
  int launches = 0;
  Check check;
  std::string error;          // non-empty: nothing else is meaningful
};

class CudaSession {
 public:
  // Opens device 0; on failure returns null with `why` ("no CUDA device: ...").
  static std::unique_ptr<CudaSession> Open(std::string* why);
  virtual ~CudaSession() = default;
  virtual const DeviceFacts& facts() const = 0;
  // cudaMemcpy device to device, bytes read + written per second; measured on first call.
  virtual double CopyGbps() = 0;
  // Never throws for CUDA failures: they come back in VariantTiming::error.
  virtual VariantTiming Time(const VariantRef& v, const RunRequest& r, const TimingOptions& o) = 0;
  // True once a launch timed out: the device is still busy and nothing more can run.
  virtual bool Wedged() const = 0;
};

}  // namespace ws::kernels
