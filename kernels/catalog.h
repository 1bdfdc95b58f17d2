// The catalog: every kernel family and variant the program knows, and how to simulate one.
#pragma once
#include <string>
#include <vector>

#include "kernels/family.h"
#include "sim/engine.h"
#include "sim/trace.h"

namespace ws::kernels {

struct SimOutcome {
  sim::Trace trace;
  Check check;
};

struct FamilyEntry {
  FamilyInfo info;
  Work (*work)(int n);
  Check (*simulate)(sim::Engine& engine, const std::string& variant, const RunRequest& request);
};

const std::vector<FamilyEntry>& Catalog();

struct VariantRef {
  const FamilyEntry* family = nullptr;
  const VariantInfo* variant = nullptr;
  std::string Id() const { return family->info.name + "/" + variant->name; }
};

// "family/variant"; throws BadRequest naming the choices when there is no such variant.
VariantRef FindVariant(const std::string& id);

// Checks the size against the family's limits; throws BadRequest with the reason.
void ValidateSize(const FamilyEntry& family, int n);

// Simulates one variant; the trace's shared arrays are named from the embedded sources.
SimOutcome Simulate(const VariantRef& v, const RunRequest& request, sim::LaunchOptions options = {});

// The text of a kernel source file, embedded at build time ("kernels/transpose/naive.cuh"),
// or of a file the compiler named by its full path (matched by its ending). Empty if unknown.
const std::string& KernelSource(const std::string& path);

}  // namespace ws::kernels
