// What was measured on real devices, as assets/recorded keeps it: timing reports (*.json, as
// `bench --json` writes them) and Nsight Compute figures (ncu/*.json, made by
// tools/ncu_to_recorded.py from ncu's CSVs). One loader reads both; a file that cannot be read
// is skipped with its reason.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/gpu_runner.h"

namespace ws::kernels {

// ---- timing reports ----

// A report read back (its figures derived again from the times, kernels::Derive). nullopt with
// `why` set when missing or malformed.
std::optional<BenchReport> LoadRecorded(const std::string& path, std::string* why);
bool SaveReport(const BenchReport& r, const std::string& path, std::string* why);

// Every report in `dir` (assets/recorded), by file name, with its path.
struct RecordedFile {
  std::string path;
  BenchReport report;
};
std::vector<RecordedFile> LoadRecordedResults(const std::filesystem::path& dir, std::vector<std::string>* problems);

// ---- Nsight Compute figures ----

struct RecordedNcu {
  std::string path, device, date, command;
  struct Run {
    std::string variant;  // "shortcut/v0"
    int n = 0;
    std::map<std::string, double> metrics;  // by ncu metric name
  };
  std::vector<Run> runs;
  const Run* Find(const std::string& variant, int n) const;
  std::vector<int> Sizes(const std::string& family) const;  // recorded n of the family's variants
};
std::optional<RecordedNcu> LoadRecordedNcu(const std::string& path, std::string* why);

// Every file of figures in `dir` (assets/recorded/ncu), by file name.
std::vector<RecordedNcu> LoadRecordedNcuFiles(const std::filesystem::path& dir, std::vector<std::string>* problems);

// The fallback to recorded figures, the one rule for it: where a simulated launch is shown beside
// a device's figures (the memory chart, visual::AddRecorded) or takes what the simulator does not
// know from one (registers per thread and the device, app/cli.h ConfigureCaches), the run is the
// first file's, by file name, that has `variant` at `n` (at any n where n is 0). Empty when none has.
struct RecordedRun {
  const RecordedNcu* file = nullptr;
  const RecordedNcu::Run* run = nullptr;
  explicit operator bool() const { return run != nullptr; }
};
RecordedRun FindRecordedRun(const std::vector<RecordedNcu>& files, const std::string& variant, int n = 0);

// A table of a whole family (warpscope table) shows one device's figures in every column: the
// first file, by file name, with any of the family's variants at any n, else the first file;
// null where there is none.
const RecordedNcu* FindRecordedFamily(const std::vector<RecordedNcu>& files, const std::string& family);

}  // namespace ws::kernels
