// The limits a launch is held to (see sim/launch_limits.h).
#include "sim/launch_limits.h"

namespace ws::sim::detail {

namespace {
std::string KiB(uint64_t bytes) { return std::to_string(bytes / 1024) + " KiB"; }
std::string OnDevice(const DeviceProfile& d) { return " on the " + d.name + " (--device)"; }
}  // namespace

std::string LaunchRefusal(const LaunchShape& s, const DeviceProfile& d, uint64_t max_threads,
                          uint32_t registers_per_thread) {
  if (s.block.Count() == 0 || s.grid.Count() == 0) return "its grid or block is empty";
  if (s.block.Count() > d.max_threads_per_block)
    return "a block of " + std::to_string(s.block.Count()) + " threads is over the " +
           std::to_string(d.max_threads_per_block) + " a block may have" + OnDevice(d);
  // The dimension limits are the same on every compute capability the profiles describe.
  if (s.block.x > 1024 || s.block.y > 1024 || s.block.z > 64)
    return "block dimensions are over 1024 x 1024 x 64";
  if (s.grid.y > 65535 || s.grid.z > 65535 || s.grid.x > 0x7fffffffu)
    return "grid dimensions are over 2^31-1 x 65535 x 65535";
  if (s.Threads() > max_threads)
    return std::to_string(s.Threads()) + " threads are over the simulator's limit of " +
           std::to_string(max_threads) +
           " per launch (--max-threads; the simulator runs a few million threads a second). A GPU "
           "would run it; simulate a smaller size or raise the limit";
  // Registers are allocated per warp (RegistersPerWarp); a block's must fit in the 64 Ki a block
  // may have (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability"; the
  // same as an SM's on the profiles' devices), else the launch fails with "too many resources
  // requested for launch".
  if (registers_per_thread) {
    const uint64_t need = RegistersPerWarp(registers_per_thread) * s.WarpsPerBlock();
    if (need > d.regs_per_sm)
      return "a block of " + std::to_string(s.block.Count()) + " threads at " + std::to_string(registers_per_thread) +
             " registers per thread needs " + std::to_string(need) + " registers, over the " +
             std::to_string(d.regs_per_sm) + " a block may have" + OnDevice(d) +
             ": the GPU refuses the launch (too many resources requested)";
  }
  if (s.dynamic_shared_bytes > d.max_shared_per_block)
    return std::to_string(s.dynamic_shared_bytes) + " bytes of dynamic shared memory are over the " +
           KiB(d.max_shared_per_block) + " a block may have" + OnDevice(d);
  return {};
}

std::string StaticSharedExcess(const DeviceProfile& d, uint64_t static_bytes) {
  if (static_bytes <= d.max_static_shared_per_block) return {};
  return "the kernel's shared arrays need " + std::to_string(static_bytes) + " bytes, over the " +
         KiB(d.max_static_shared_per_block) + " of static shared memory a block may have" +
         OnDevice(d) + "; the launch stops after this block";
}

}  // namespace ws::sim::detail
