// What the command line's files share: app/cli.cpp (parsing, list, stats, trace, new, open, sass),
// app/cli_bench.cpp (bench) and app/cli_table.cpp (table). Not part of the CLI's public face.
#pragma once
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"
#include "sim/engine.h"

namespace ws::app::cli {

// The exit code of a simulation: kFailed when it has an error finding or fails its check.
int Fail(const kernels::SimOutcome& o);

// assets/: the build's source tree, else beside the executable (installed or copied).
std::filesystem::path AssetsDir();

// Times `ids` on the GPU, printing the runner's progress on stderr; the report's device is empty
// when the device would not open.
kernels::GpuRunner::Status MeasureOnGpu(const std::vector<std::string>& ids, int n, int runs, bool single_launch);

// A bench report as a table: the device, then one row per timing; "-" for a figure not known.
void PrintBench(std::ostream& out, const kernels::BenchReport& r);

// warpscope bench WHAT: times the variants `what` names on the GPU (or prints the recorded
// results), writing them as JSON to `json_path` when it is not empty.
int Bench(const std::string& what, int n, int runs, const std::string& json_path, bool recorded,
          bool single_launch);

// warpscope table FAMILY: every variant simulated with `base` (its control is checked for
// Ctrl-C), beside Nsight Compute's recorded figures and, with `gpu`, live timings.
int Table(const std::string& family_name, int n, bool gpu, int runs, bool json, bool csv,
          const sim::LaunchOptions& base, const std::string& device);

}  // namespace ws::app::cli
