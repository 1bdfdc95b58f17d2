// warpscope bench: times catalog variants or a kernel file on the GPU, or prints the results
// recorded on a device (assets/recorded), as a table.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/cli.h"
#include "app/cli_commands.h"
#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"
#include "kernels/user_file.h"
#include "kernels/user_file_gpu.h"

namespace ws::app::cli {
namespace {

// The variants a bench argument names: "" every variant, "family" its variants, "family/variant".
std::vector<std::string> BenchIds(const std::string& what) {
  std::vector<std::string> ids;
  if (kernels::IsKernelFileRef(what)) {  // a kernel file: the kernel named, else all of them
    const auto v = kernels::FindVariant(what);
    std::string file, kernel;
    kernels::SplitKernelFileRef(what, &file, &kernel);
    if (!kernel.empty()) return {v.Id()};
    for (const auto& k : v.family->info.variants) ids.push_back(v.family->info.name + ":" + k.name);
    return ids;
  }
  if (what.find('/') != std::string::npos) {
    ids.push_back(kernels::FindVariant(what).Id());
    return ids;
  }
  std::string known;
  for (const auto& f : kernels::Catalog()) {
    known += (known.empty() ? "" : ", ") + f.info.name;
    if (!what.empty() && f.info.name != what) continue;
    for (const auto& v : f.info.variants) ids.push_back(f.info.name + "/" + v.name);
  }
  if (ids.empty()) throw kernels::BadRequest("unknown family '" + what + "'; known: " + known);
  return ids;
}

std::string Fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}


}  // namespace

void PrintBench(std::ostream& out, const kernels::BenchReport& r) {
  // A program that stopped before it named its device (it did not start, or the GPU failed it).
  out << (r.recorded ? "recorded on " : "measured on ")
      << (r.device.empty() ? "a device that was not named (the GPU program stopped first)" : r.device);
  std::string when;  // the driver and the date, each where known
  for (const std::string* part : {&r.driver, &r.date})
    if (!part->empty()) when += (when.empty() ? "" : ", ") + *part;
  if (!when.empty()) out << " (" << when << ")";
  if (r.copy_gbps > 0) out << "; device-to-device copy " << Fixed(r.copy_gbps, 0) << " GB/s";
  if (r.fp32_lane_gops > 0) out << "; FP32 lane peak " << Fixed(r.fp32_lane_gops, 0) << " Gop/s";
  out << "\n";
  if (r.runs > 0)
    out << r.runs << " timed runs per variant after " << r.warmup << " warm-up"
        << (r.l2_flushed ? ", L2 flushed before each" : ", L2 not flushed") << "\n";
  char b[256];
  std::snprintf(b, sizeof b, "%-26s %6s %10s %21s %9s %9s %7s %8s  %s\n", "variant", "n", "ms", "spread (min..max)",
                "GB/s", "Gop/s", "% peak", "speed-up", "check");
  out << b;
  for (const auto& t : r.timings) {
    if (!t.error.empty() && t.ms_median <= 0) {
      std::snprintf(b, sizeof b, "%-26s %6d  ", t.variant.c_str(), t.n);
      out << b << "ERROR: " << t.error << "\n";
      continue;
    }
    const std::string spread = Fixed(t.ms_min, 4) + ".." + Fixed(t.ms_max, 4);
    // "-" where a figure is not known: GB/s without the bytes moved, % peak without the ceiling
    // (a single launch measures no copy bandwidth).
    std::snprintf(b, sizeof b, "%-26s %6d %10.4f %21s %9s %9s %7s %8s  %s\n", t.variant.c_str(), t.n, t.ms_median,
                  spread.c_str(), t.gbps > 0 ? Fixed(t.gbps, 1).c_str() : "-",
                  t.gops > 0 ? Fixed(t.gops, 1).c_str() : "-",
                  t.peak > 0 ? (Fixed(t.pct_of_peak, 1) + "%").c_str() : "-",
                  t.speedup > 0 ? (Fixed(t.speedup, 2) + "x").c_str() : "-", t.check.passed ? "passed" : "FAILED");
    out << b;
    if (!t.error.empty()) out << "    " << t.error << "\n";
  }
  bool arith = false, memory = false, file = false;
  for (const auto& t : r.timings) {
    if (t.peak_meaning.rfind("FP32", 0) == 0) arith = true;
    else if (!t.peak_meaning.empty()) memory = true;
    file |= kernels::IsKernelFileRef(t.variant) && t.gbps > 0;
  }
  if (file) out << "GB/s of a kernel file: the bytes of the arrays its description declares, each counted once\n";
  if (memory) out << "% peak of memory-bound families: of the device-to-device copy bandwidth\n";
  if (arith) out << "% peak of shortcut and pairs: of the FP32 lane peak, one operation per lane per clock\n";
}


// Times `ids` on the GPU, printing the runner's progress on stderr; the report's device is empty
// when the device would not open.
kernels::GpuRunner::Status MeasureOnGpu(const std::vector<std::string>& ids, int n, int runs, bool single_launch) {
  kernels::GpuRunner runner;
  runner.Start(ids, n, runs, single_launch);
  std::string last;
  kernels::GpuRunner::Status s;
  for (;;) {
    s = runner.Poll();
    if (s.message != last) {
      std::cerr << s.message << "\n";
      last = s.message;
    }
    if (!s.running) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

int Bench(const std::string& what, int n, int runs, const std::string& json_path, bool recorded,
          bool single_launch) {
  namespace fs = std::filesystem;
  if (recorded) {
    std::vector<std::string> problems;
    auto files = LoadRecordedResults(&problems);
    if (!problems.empty()) throw std::runtime_error(problems.front());
    if (files.empty())
      throw kernels::BadRequest("no recorded results in " + (AssetsDir() / "recorded").string());
    const auto ids = BenchIds(what);
    std::vector<int> sizes;  // recorded sizes of the variants asked for, at any n
    for (auto& [path, r] : files) {
      std::erase_if(r.timings, [&](const kernels::Timing& t) {
        return std::find(ids.begin(), ids.end(), t.variant) == ids.end();
      });
      for (const auto& t : r.timings) sizes.push_back(t.n);
      std::erase_if(r.timings, [&](const kernels::Timing& t) { return n > 0 && t.n != n; });
    }
    std::erase_if(files, [](const RecordedFile& f) { return f.report.timings.empty(); });
    if (files.empty()) {
      const std::string asked = what.empty() ? "any variant" : what;
      if (sizes.empty()) throw kernels::BadRequest("no recorded result for " + asked);
      std::sort(sizes.begin(), sizes.end());
      sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
      std::string list;
      for (int s : sizes) list += (list.empty() ? "" : ", ") + std::to_string(s);
      throw kernels::BadRequest("no recorded result for " + asked + " at n=" + std::to_string(n) +
                                "; recorded sizes: " + list);
    }
    for (const auto& [path, r] : files) {
      PrintBench(std::cout, r);
      std::cout << "(from " << path << ")\n";
    }
    return kOk;
  }
  const auto ids = BenchIds(what);
  std::string why;
  if (!kernels::CudaAvailable(&why)) {
    std::cerr << "warpscope: " << why << " (warpscope bench --recorded shows recorded results)\n";
    return kNoCudaDevice;
  }
  if (kernels::IsKernelFileRef(what)) {
    // The file compiled for the simulator (FindVariant above, so its description is checked);
    // now built for the GPU with nvcc and timed in a process of its own.
    const auto report = kernels::TimeKernelFileOnGpu(what, n, runs, single_launch);
    PrintBench(std::cout, report);
    if (!json_path.empty() && !kernels::SaveReport(report, json_path, &why)) throw std::runtime_error(why);
    for (const auto& t : report.timings)
      if (!t.error.empty() || !t.check.passed) return kFailed;
    return kOk;
  }
  const auto s = MeasureOnGpu(ids, n, runs, single_launch);
  if (s.report.device.empty()) {  // the device would not open
    std::cerr << "warpscope: " << s.message << "\n";
    return kNoCudaDevice;
  }
  PrintBench(std::cout, s.report);
  if (!json_path.empty()) {
    if (!kernels::SaveReport(s.report, json_path, &why)) throw std::runtime_error(why);
  }
  for (const auto& t : s.report.timings)
    if (!t.error.empty() || !t.check.passed) return kFailed;
  return kOk;
}

}  // namespace ws::app::cli
