// What every kernel family offers the rest of the program: its lessons (variants) with their
// texts and sources, and a way to run one on a back end (the simulator or the GPU).
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/trace.h"

namespace ws::kernels {

// A request the program cannot honour (unknown variant, size, block shape): shown as is.
struct BadRequest : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bytes a variant must move and operations it must do, for GB/s and Gop/s.
struct Work {
  double bytes = 0;
  double ops = 0;
  std::string ops_meaning;
};

struct VariantInfo {
  std::string name;         // "naive"
  std::string title;        // one line
  std::string description;  // what this variant changes and what to watch
  std::string source;       // path relative to the repository: "kernels/transpose/naive.cuh"
  // Where the code nvcc emits differs from the source as the simulator runs it (a load hoisted,
  // a branch predicated away). Empty where no difference is known. See docs/FIDELITY.md.
  std::string on_hardware;
  Work (*work)(double n) = nullptr;     // bytes and operations at size n (nullptr: not stated)
  std::vector<sim::FindingKind> warns;  // warnings the lesson shows on purpose
  // Sizes of this variant where they differ from its family's (a kernel file's kernels each state
  // their own); 0: the family's.
  int teaching_n = 0;
  int timing_n = 0;
};

struct FamilyInfo {
  std::string name;   // "transpose"
  std::string title;
  std::string story;  // what the lesson is about
  int teaching_n = 0; // default size for pictures
  int timing_n = 0;   // default size for GPU timings
  int max_sim_n = 0;  // largest size the simulator accepts (memory cap, see README)
  std::string size_meaning;  // what n means: "n x n matrix"
  std::vector<VariantInfo> variants;
  bool arithmetic_bound = false;  // GPU timings as % of the FP32 peak, not of the copy bandwidth
};

// What a variant must move and do at size n (zero where it says nothing).
inline Work WorkOf(const VariantInfo& v, int n) { return v.work ? v.work(double(n)) : Work{}; }

struct Block { unsigned x = 0, y = 1, z = 1; bool Set() const { return x != 0; } };

struct RunRequest {
  int n = 0;
  Block block;         // empty: the variant's own shape
  uint64_t seed = 1;   // inputs are random, never zeros
};

// How a run's output compared with the family's CPU reference.
struct Check {
  bool passed = false;
  double max_abs_error = 0, max_rel_error = 0;
  uint64_t mismatches = 0;
  std::string detail;
};

}  // namespace ws::kernels
