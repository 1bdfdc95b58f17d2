// The limits a launch is held to (see sim/launch_limits.h).
#include "sim/launch_limits.h"

namespace ws::sim::detail {

std::string LaunchRefusal(const LaunchShape& s, uint64_t max_threads) {
  if (s.block.Count() == 0 || s.grid.Count() == 0) return "its grid or block is empty";
  if (s.block.Count() > 1024)
    return "a block of " + std::to_string(s.block.Count()) +
           " threads is over the 1024 a block may have";
  if (s.block.x > 1024 || s.block.y > 1024 || s.block.z > 64)
    return "block dimensions are over 1024 x 1024 x 64";
  if (s.grid.y > 65535 || s.grid.z > 65535 || s.grid.x > 0x7fffffffu)
    return "grid dimensions are over 2^31-1 x 65535 x 65535";
  if (s.Threads() > max_threads)
    return std::to_string(s.Threads()) + " threads are over the simulator's limit of " +
           std::to_string(max_threads) +
           " per launch (--max-threads; the simulator runs a few million threads a second). A GPU "
           "would run it; simulate a smaller size or raise the limit";
  if (s.dynamic_shared_bytes > kSharedLimitOptIn)
    return std::to_string(s.dynamic_shared_bytes) +
           " bytes of dynamic shared memory are over the 227 KiB a block may have on an H100";
  return {};
}

std::string StaticSharedExcess(uint64_t static_bytes) {
  if (static_bytes <= kSharedLimit) return {};
  return "the kernel's shared arrays need " + std::to_string(static_bytes) +
         " bytes, over the 48 KiB of static shared memory a block may have; the "
         "launch stops after this block";
}

}  // namespace ws::sim::detail
