// `warpscope bench my_kernel.cu`: the kernel file built for the GPU (toolchain::CompileForGpu), its
// program run as a child process, and the JSON lines it prints (toolchain/public/gpu_main.h) read
// into a BenchReport like the catalog's timings. A fault on the device ends the child, and is
// reported, never warpscope.
#include "kernels/user_file_gpu.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kernels/user_file.h"
#include "toolchain/build.h"
#include "toolchain/cache.h"
#include "toolchain/process.h"

namespace ws::kernels {

namespace fs = std::filesystem;

BenchReport TimeKernelFileOnGpu(const std::string& id, int n, int runs, bool single_launch) {
  std::string file, kernel;
  SplitKernelFileRef(id, &file, &kernel);
  const auto source = toolchain::ReadKernelFile(file);
  const std::string exe = toolchain::CompileForGpu(source.file, file, source.text).output.string();
  const fs::path log = toolchain::BuildPath("bench-" + std::to_string(getpid()) + ".log");
  const int rc = toolchain::RunProgram({exe, kernel, std::to_string(n), std::to_string(runs), single_launch ? "1" : "0"},
                                       log);
  std::ifstream in(log);
  std::stringstream all;
  all << in.rdbuf();
  in.close();
  std::error_code ec;
  fs::remove(log, ec);

  BenchReport r;
  r.warmup = single_launch ? 0 : 2;  // as toolchain/public/gpu_main.h times them
  r.runs = single_launch ? 1 : runs;
  r.l2_flushed = !single_launch;
  r.command = "warpscope bench " + id + (single_launch ? " --single-launch" : " --runs " + std::to_string(runs)) +
              (n > 0 ? " --n " + std::to_string(n) : "");
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", &tm);
  r.date = date;
  std::string other;  // lines that are not results: the reason the program stopped, if any
  std::istringstream lines(all.str());
  for (std::string line; std::getline(lines, line);) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      other += (other.empty() ? "" : "\n") + line;
      continue;
    }
    if (j.contains("device")) {
      r.device = j.value("device", "");
      r.driver = j.value("driver", "");
      r.sm_count = j.value("sm_count", 0);
      r.l2_bytes = j.value("l2_bytes", 0.0);
      r.copy_gbps = j.value("copy_gbps", 0.0);
      continue;
    }
    if (!j.contains("kernel")) {
      other += (other.empty() ? "" : "\n") + j.value("error", line);
      continue;
    }
    Timing t;
    t.variant = fs::path(KernelFileKey(file)).string() + ":" + j.value("kernel", "");
    t.n = j.value("n", 0);
    t.error = j.value("error", "");
    t.check.passed = j.value("passed", false);
    t.check.detail = j.value("detail", "");
    t.launches = j.value("launches", 0);
    for (int i = 0; i < 3 && j.contains("grid"); ++i) t.grid[i] = j["grid"][i].get<unsigned>();
    for (int i = 0; i < 3 && j.contains("block"); ++i) t.block[i] = j["block"][i].get<unsigned>();
    if (j.contains("ms")) t.ms_runs = j["ms"].get<std::vector<double>>();
    t.runs = int(t.ms_runs.size());
    if (!t.ms_runs.empty()) {
      t.ms_median = Median(t.ms_runs);
      t.ms_min = *std::min_element(t.ms_runs.begin(), t.ms_runs.end());
      t.ms_max = *std::max_element(t.ms_runs.begin(), t.ms_runs.end());
    }
    // GB/s from the bytes of the arrays the description declares, each read or written once (a
    // kernel that reads an array twice moves more than that); % of the copy bandwidth measured with it.
    const double bytes = j.value("bytes", 0.0), s = t.ms_median * 1e-3;
    if (bytes > 0 && s > 0) {
      t.gbps = t.rate = bytes / s / 1e9;
      t.rate_unit = "GB/s";
      t.peak = r.copy_gbps;
      t.peak_meaning = "device-to-device cudaMemcpy bandwidth";
      if (t.peak > 0) t.pct_of_peak = 100.0 * t.gbps / t.peak;
    }
    if (!t.error.empty()) t.error = t.variant + ": " + t.error;
    else if (!t.check.passed) t.error = t.variant + " at n=" + std::to_string(t.n) + ": wrong result: " + t.check.detail;
    r.timings.push_back(std::move(t));
  }
  if (rc != 0 || r.timings.empty()) {
    // The program stopped early (a fault took the device context, a timeout, a crash): what it
    // printed stays, and one more entry says why it stopped.
    Timing t;
    t.variant = id;
    t.error = id + ": the GPU build " + (rc == 0 ? "timed nothing" : "stopped (exit " + std::to_string(rc) + ")") +
              (other.empty() ? "" : ": " + other);
    if (rc == 0 && !kernel.empty()) t.error = id + ": the file has no kernel '" + kernel + "'";
    r.timings.push_back(std::move(t));
  }
  return r;
}

}  // namespace ws::kernels
