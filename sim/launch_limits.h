// The limits a launch is held to, and the sentence that names the one it passed: checked before
// it runs (its shape), and while its first block places its shared arrays (their bytes). The
// per-block limits are the device profile's (sim/device_profile.h), and the messages name it.
#pragma once
#include <cstdint>
#include <string>

#include "sim/device_profile.h"
#include "sim/trace.h"

namespace ws::sim::detail {

// Why a launch of this shape is refused on device `d` (over a per-block limit, or over the
// simulator's `max_threads`), or empty when it may run. `registers_per_thread`: the kernel's, as
// ptxas gave them (LaunchOptions::registers_per_thread; 0: not known, not checked).
std::string LaunchRefusal(const LaunchShape& s, const DeviceProfile& d, uint64_t max_threads,
                          uint32_t registers_per_thread = 0);
// Why `static_bytes` of static shared memory per block is too much on device `d`, or empty.
std::string StaticSharedExcess(const DeviceProfile& d, uint64_t static_bytes);

}  // namespace ws::sim::detail
