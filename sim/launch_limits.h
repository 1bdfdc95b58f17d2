// The limits a launch is held to, and the sentence that names the one it passed: checked before
// it runs (its shape), and while its first block places its shared arrays (their bytes).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/trace.h"

namespace ws::sim::detail {

inline constexpr size_t kSharedLimit = 48 * 1024;  // static shared memory per block
// Static and dynamic shared memory per block on an H100 (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability": 227 KB for compute capability 9.0, with opt-in).
inline constexpr size_t kSharedLimitOptIn = 227 * 1024;

// Why a launch of this shape is refused (over a hardware limit, or over the simulator's
// `max_threads`), or empty when it may run.
std::string LaunchRefusal(const LaunchShape& s, uint64_t max_threads);
// Why `static_bytes` of static shared memory per block is too much, or empty.
std::string StaticSharedExcess(uint64_t static_bytes);

}  // namespace ws::sim::detail
