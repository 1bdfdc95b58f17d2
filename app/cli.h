// The command line: list, stats, trace, bench (and gui, when built with it).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "app/seed_table.h"
#include "kernels/gpu_runner.h"
#include "sim/engine.h"

namespace ws::app {

// Exit codes: 0 ok, 1 a check failed or the kernel has errors, 2 bad arguments, 3 no CUDA device.
enum ExitCode { kOk = 0, kFailed = 1, kBadArguments = 2, kNoCudaDevice = 3 };

// The GUI's entry point, when this binary has one: (argc, argv of the gui subcommand).
using GuiEntry = std::function<int(int, char**)>;

int RunCli(int argc, char** argv, const GuiEntry& gui);

// Results recorded on real devices (kernels/recorded.h): every assets/recorded/*.json, and every
// assets/recorded/ncu/*.json of Nsight Compute figures, by file name. A file that cannot be read
// is skipped and named in `problems`.
using kernels::RecordedFile;
std::vector<RecordedFile> LoadRecordedResults(std::vector<std::string>* problems);
std::vector<RecordedNcu> LoadRecordedNcuFiles(std::vector<std::string>* problems);

// The cache model's setup for a variant (FAMILY/VARIANT): the device profile named by
// `device_flag` (--device; a bad name throws kernels::BadRequest), else the device the recorded
// ncu figures come from, else the first profile (H100); and the registers per thread that
// ptxas gave the variant: `ptxas_registers` where this build's ptxas said (app/compiled_lines.h
// ListingRegisters), else as recorded by ncu (launch__registers_per_thread), else the default.
// The CLI and the GUI configure every launch with it.
void ConfigureCaches(sim::LaunchOptions& opt, const std::string& variant_id,
                     const std::string& device_flag, uint32_t ptxas_registers = 0);

// The simulator's threads when --threads is not given: every core (at least 1).
uint32_t DefaultThreads();

// A block shape "X", "XxY" or "XxYxZ" (--shape); BadRequest saying why not.
kernels::Block ParseBlock(const std::string& s);

// The lesson the program opens on: shortcut v0 beside v1.
inline constexpr const char* kDefaultVariant = "shortcut/v0";
inline constexpr const char* kDefaultCompare = "shortcut/v1";

}  // namespace ws::app
