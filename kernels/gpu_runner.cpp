// The GPU runner's worker thread, the derived figures (GB/s, Gop/s, % of a ceiling, speed-up)
// (recorded results are read and written by kernels/recorded.cpp). The CUDA work itself is in
// cuda_families.cu, behind CudaSession.
#include "kernels/gpu_runner.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <functional>
#include <mutex>
#include <thread>

#include "kernels/catalog.h"
#include "kernels/cuda_session.h"

namespace ws::kernels {

#ifndef WARPSCOPE_HAVE_CUDA
bool CudaAvailable(std::string* why) {
  if (why) *why = "no CUDA device: this build has no CUDA runner";
  return false;
}
std::unique_ptr<CudaSession> CudaSession::Open(std::string* why) {
  CudaAvailable(why);
  return nullptr;
}
#endif

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

namespace {

std::string Today() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%d", &tm);
  return b;
}

std::string Figure(double v, const char* unit) {
  char b[48];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f %s" : "%.3g %s", v, unit);
  return b;
}

}  // namespace

// `copy_gbps`: the copy bandwidth measured with these timings (recorded files keep one per
// family's run; a fresh run measures one for all).
// A family that says it is arithmetic-bound (FamilyInfo::arithmetic_bound: shortcut, one add and
// one min per step; pairs, one subtraction and one addition per pair, the |.| being an operand
// modifier) is measured against the FP32 lane rate, counting each operation of Work::ops as one
// instruction per lane. Every other family moves data: % of the device-to-device copy bandwidth.
void Derive(Timing& t, const VariantRef& v, const BenchReport& r, double copy_gbps) {
  const Work w = WorkOf(*v.variant, t.n);
  const double s = t.ms_median * 1e-3;
  if (s <= 0) return;
  t.gbps = w.bytes / s / 1e9;
  t.gops = w.ops / s / 1e9;
  t.pct_of_peak = 0;
  if (v.family->info.arithmetic_bound && w.ops > 0) {
    t.peak = r.fp32_lane_gops;
    t.peak_meaning = "FP32 lane peak (" + std::to_string(r.sm_count) + " SMs x 128 lanes x clock), " + w.ops_meaning;
    t.rate = t.gops;
    t.rate_unit = "Gop/s";
    t.peak_name = "FP32 peak " + Figure(t.peak, "Gop/s");
    if (t.peak > 0) t.pct_of_peak = 100.0 * t.gops / t.peak;
  } else {
    t.peak = copy_gbps;
    t.peak_meaning = "device-to-device cudaMemcpy bandwidth";
    t.rate = t.gbps;
    t.rate_unit = "GB/s";
    t.peak_name = "copy " + Figure(t.peak, "GB/s");
    if (t.peak > 0) t.pct_of_peak = 100.0 * t.gbps / t.peak;
  }
}

namespace {

// Speed-up of every timing over its family's first variant at the same n, where that ran.
void SpeedUps(BenchReport& r) {
  for (auto& t : r.timings) {
    t.speedup = 0;
    if (!t.error.empty() || t.ms_median <= 0) continue;
    const auto slash = t.variant.find('/');
    const std::string fam = t.variant.substr(0, slash);
    for (const auto& f : Catalog()) {
      if (f.info.name != fam || f.info.variants.empty()) continue;
      const std::string first = fam + "/" + f.info.variants.front().name;
      for (const auto& b : r.timings)
        if (b.variant == first && b.n == t.n && b.error.empty() && b.ms_median > 0)
          t.speedup = b.ms_median / t.ms_median;
    }
  }
}

}  // namespace

// ---- the worker --------------------------------------------------------------------------

struct GpuRunner::Impl {
  mutable std::mutex mutex;
  Status status;               // guarded by mutex
  std::atomic<bool> cancel{false};
  std::thread worker;

  void Set(const std::function<void(Status&)>& f) {
    std::lock_guard<std::mutex> lock(mutex);
    f(status);
  }

  void Main(std::vector<std::string> ids, int n, int runs, bool single_launch) {
    BenchReport report;
    std::string why;
    Set([](Status& s) { s.message = "opening the CUDA device"; });
    auto session = CudaSession::Open(&why);
    if (!session) {
      Set([&](Status& s) { s.running = false; s.progress = 1; s.message = why; });
      return;
    }
    const auto& d = session->facts();
    report.device = d.name;
    report.driver = d.driver;
    report.date = Today();
    report.sm_count = d.sm_count;
    report.clock_ghz = d.clock_ghz;
    report.fp32_lane_gops = d.sm_count * 128.0 * d.clock_ghz;
    report.l2_bytes = d.l2_bytes;
    TimingOptions opt;
    opt.runs = std::max(1, runs);
    opt.restore = !single_launch;
    opt.flush_l2 = !single_launch;
    opt.warmup = single_launch ? 0 : 2;
    report.warmup = opt.warmup;
    report.runs = single_launch ? 1 : opt.runs;
    report.l2_flushed = opt.flush_l2;
    if (!single_launch) {
      Set([&](Status& s) { s.message = "measuring device-to-device copy bandwidth"; s.report = report; });
      report.copy_gbps = session->CopyGbps();
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      if (cancel) {
        Set([&](Status& s) { s.running = false; s.message = "cancelled"; s.report = report; });
        return;
      }
      Timing t;
      t.variant = ids[i];
      try {
        const VariantRef v = FindVariant(ids[i]);
        t.n = n > 0 ? n : v.TimingN();
        Set([&](Status& s) {
          s.progress = double(i) / ids.size();
          s.message = "timing " + ids[i] + " at n=" + std::to_string(t.n) + " (" + std::to_string(i + 1) +
                      " of " + std::to_string(ids.size()) + ")";
        });
        RunRequest req;
        req.n = t.n;
        req.seed = 1;  // as `warpscope stats`, so counts of data-dependent kernels compare
        VariantTiming vt = session->Time(v, req, opt);
        t.error = vt.error;
        t.check = vt.check;
        t.launches = vt.launches;
        std::copy(vt.grid, vt.grid + 3, t.grid);
        std::copy(vt.block, vt.block + 3, t.block);
        t.ms_runs = vt.ms;
        t.runs = int(vt.ms.size());
        if (!vt.ms.empty()) {
          t.ms_median = Median(vt.ms);
          t.ms_min = *std::min_element(vt.ms.begin(), vt.ms.end());
          t.ms_max = *std::max_element(vt.ms.begin(), vt.ms.end());
        }
        if (t.error.empty() && !t.check.passed)
          t.error = ids[i] + " at n=" + std::to_string(t.n) + ": wrong result: " + t.check.detail;
        Derive(t, v, report, report.copy_gbps);
      } catch (const std::exception& e) {
        t.error = e.what();
      }
      report.timings.push_back(std::move(t));
      SpeedUps(report);
      Set([&](Status& s) { s.report = report; });
    }
    Set([&](Status& s) {
      s.running = false;
      s.progress = 1;
      size_t bad = 0;
      for (const auto& t : report.timings) bad += !t.error.empty();
      s.message = "done: " + std::to_string(report.timings.size()) + " variants" +
                  (bad ? ", " + std::to_string(bad) + " with errors" : "");
      s.report = report;
    });
  }
};

GpuRunner::GpuRunner() : impl_(std::make_unique<Impl>()) {}

GpuRunner::~GpuRunner() {
  Cancel();
  if (impl_->worker.joinable()) impl_->worker.join();
}

void GpuRunner::Start(std::vector<std::string> variant_ids, int n, int runs, bool single_launch) {
  Cancel();
  if (impl_->worker.joinable()) impl_->worker.join();
  impl_->cancel = false;
  impl_->Set([](Status& s) { s = Status{}; s.running = true; s.message = "starting"; });
  impl_->worker = std::thread([this, ids = std::move(variant_ids), n, runs, single_launch] {
    impl_->Main(ids, n, runs, single_launch);
  });
}

void GpuRunner::Cancel() { impl_->cancel = true; }

GpuRunner::Status GpuRunner::Poll() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->status;
}

// ---- recorded results --------------------------------------------------------------------

}  // namespace ws::kernels
