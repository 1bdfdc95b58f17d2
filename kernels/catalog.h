// The catalog: every kernel family and variant the program knows, and how to simulate one.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "kernels/family.h"
#include "sim/engine.h"
#include "sim/trace.h"

namespace ws::kernels {

// What a kernel file's code printed (printf) during launch `launch` (1, 2, ...), or in its
// description's host code between launches (0); in the order printed.
struct PrintedText {
  int launch = 0;
  std::string text;
};

struct SimOutcome {
  sim::Trace trace;
  Check check;
  std::vector<PrintedText> printed;  // kernel files only: their runs have an output of their own
  bool printed_cut = false;          // more was printed than is kept
};

struct FamilyEntry {
  FamilyInfo info;
  std::function<Check(sim::Engine& engine, const std::string& variant, const RunRequest& request)> simulate;
  bool from_file = false;  // a kernel file opened at run time (kernels/user_file.h): info.name is its path
  // A kernel file's runs happen in a process of their own (toolchain/runner.h) and come back
  // whole: set instead of `simulate`.
  std::function<SimOutcome(const std::string& variant, const RunRequest& request, const sim::LaunchOptions& options)>
      run_apart;
};

const std::vector<FamilyEntry>& Catalog();

struct VariantRef {
  const FamilyEntry* family = nullptr;
  const VariantInfo* variant = nullptr;
  // "family/variant", or "path.cu:kernel" for a kernel file.
  std::string Id() const { return family->info.name + (family->from_file ? ":" : "/") + variant->name; }
  // The default sizes: the variant's own where it states them, else its family's.
  int TeachingN() const { return variant->teaching_n ? variant->teaching_n : family->info.teaching_n; }
  int TimingN() const { return variant->timing_n ? variant->timing_n : family->info.timing_n; }
};

// "family/variant", or a kernel file "path.cu" / "path.cu:kernel" (compiled and loaded the first
// time it is named); throws BadRequest naming the choices when there is no such variant.
VariantRef FindVariant(const std::string& id);

// Checks the size against the family's limits; throws BadRequest with the reason.
void ValidateSize(const FamilyEntry& family, int n);

// Simulates one variant; the trace's shared arrays are named from the embedded sources.
SimOutcome Simulate(const VariantRef& v, const RunRequest& request, sim::LaunchOptions options = {});

// The text of a kernel source file, embedded at build time ("kernels/transpose/naive.cuh"),
// or of a file the compiler named by its full path (matched by its ending), or of a kernel file
// as it was last compiled. Empty if unknown.
const std::string& KernelSource(const std::string& path);

}  // namespace ws::kernels
