// Device profiles: the sizes and limits of a GPU that decide block residency and cache reuse
// (H100 SXM, H200), chosen by --device; and the residency of a launch on one SM.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cache_policy.h"
#include "sim/trace.h"

namespace ws::sim {

struct DeviceProfile {
  std::string name;               // "H100", as --device takes it
  std::string marketing;          // "NVIDIA H100 80GB HBM3", as cudaGetDeviceProperties names it
  uint32_t sms = 0;               // streaming multiprocessors
  uint32_t l1_shared_bytes = 0;   // unified L1 / shared memory per SM (bytes)
  uint32_t max_shared_per_sm = 0;     // largest shared-memory carve-out (bytes)
  uint32_t max_shared_per_block = 0;  // opt-in limit per block (bytes)
  uint32_t max_static_shared_per_block = 0;  // static (__shared__) limit per block (bytes)
  uint32_t max_threads_per_block = 0;
  uint32_t shared_reserved_per_block = 0;  // the driver's reservation per resident block (bytes)
  uint64_t l2_bytes = 0;          // device L2 (bytes)
  uint32_t l1_ways = 0, l2_ways = 0;  // associativity the model uses (not published; see cache.h)
  uint32_t regs_per_sm = 0;       // 32-bit registers
  uint32_t max_threads_per_sm = 0, max_warps_per_sm = 0, max_blocks_per_sm = 0;
  uint32_t boost_clock_mhz = 0;   // SM clock
  double dram_gb_per_s = 0;       // peak DRAM bandwidth (GB/s, 10^9 bytes)
  double dram_gib = 0;            // DRAM size
  // The memory model's clock, in SM cycles (sim/memory_clock.h; measured on an H200 with
  // tools/probes/cache_probe.cu, docs/FIDELITY.md "Caches").
  struct MemoryTiming {
    uint32_t l1_hit = 0;            // a load served by L1: issue to data
    uint32_t l2_hit = 0;            // an L1 miss served by L2
    uint32_t dram = 0;              // an L2 miss served by DRAM
    uint32_t block_dispatch = 0;    // between the starts of consecutive blocks of a wave
    uint32_t wide_store_lines = 0;  // a store instruction touching more lines than this ...
    uint32_t wide_store_delay = 0;  // ... has them in L1 only this many cycles later
  } timing;
  CachePolicy cache_policy = kHopperCachePolicy;  // what each access does at L1 and L2
  uint32_t merge_group_sms = 1;    // the L2 merges misses to a sector in flight from SMs s and t
                                   // when s / merge_group_sms == t / merge_group_sms
  uint32_t dram_fetch_bytes = 0;   // DRAM is read in aligned pieces of this many bytes (sector pairs)
  uint32_t launch_read_bytes = 0;  // DRAM bytes a launch reads besides its arrays and its code
                                   // (parameters, constant bank, ...)
  std::string arch;                // what code for it is built as: "sm_90"
};

// The code of an empty kernel for sm_90 (nvcc 13: LDC of the stack pointer, EXIT, then the BRA to
// itself that ends every function): 48 bytes, what a launch whose kernel's code is not known is
// taken to read.
inline constexpr uint32_t kEmptyKernelCodeBytes = 48;

// The shared-memory carve-outs the driver may choose on compute capability 9.0 (KiB), CUDA C++
// Programming Guide, "Compute Capability 9.0 / Shared Memory": 0, 8, 16, 32, 64, 100, 132, 164,
// 196 or 228 KB of the 256 KB; the rest is L1.
const std::vector<uint32_t>& SharedCarveoutsKiB();

const std::vector<DeviceProfile>& DeviceProfiles();  // H100 first
// By --device name ("H100", "h200") or by the device name a recording carries ("NVIDIA H100
// 80GB HBM3"); null when none fits.
const DeviceProfile* FindDeviceProfile(std::string_view name);
// "H100, H200": for messages.
std::string DeviceProfileNames();

// How many blocks of a launch one SM holds at once, what limits it and the L1 it leaves
// (CUDA C++ Programming Guide, "Hardware Multithreading" and the occupancy calculator's rules):
// threads and warps per SM, blocks per SM, registers (allocated per warp in units of 256, i.e.
// registers per thread rounded up to 8) and shared memory (per block plus the driver's 1 KiB).
struct Residency {
  uint32_t blocks_per_sm = 0;  // 0: the block cannot run at all (over a per-block limit)
  std::string limited_by;      // "threads", "warps", "blocks", "registers", "shared memory"
  uint32_t carveout_bytes = 0; // shared memory the SM reserves for its resident blocks
  uint32_t l1_bytes = 0;       // what remains for L1: l1_shared_bytes - carveout_bytes
  uint64_t blocks_per_wave = 0;  // blocks_per_sm x SMs
};
// Registers per thread when no GPU build says otherwise: ptxas' figure comes from the compiled
// listing (app/compiled_lines.h), else from Nsight Compute's recording (launch__registers_per_thread
// in assets/recorded/ncu); without nvcc or a recording, this.
inline constexpr uint32_t kDefaultRegistersPerThread = 32;
// Registers a warp is allocated: per warp in units of 256 (registers per thread rounded up to 8).
inline uint64_t RegistersPerWarp(uint32_t registers_per_thread) {
  return (uint64_t(registers_per_thread) * kWarpSize + 255) / 256 * 256;
}
// The residency of a launch's blocks (shape.block; warps per block: LaunchShape::WarpsPerBlock).
Residency ComputeResidency(const DeviceProfile& d, const LaunchShape& shape, uint32_t registers_per_thread,
                           uint64_t shared_bytes_per_block);

// Block placement (waves): block b of a launch runs in wave b / blocks_per_wave on SM
// b % SMs. The hardware's block scheduler hands consecutive blocks to different SMs and starts
// a new block as soon as one finishes; the model starts a wave when the last one has finished.
inline uint32_t SmOfBlock(const DeviceProfile& d, uint64_t block) { return uint32_t(block % d.sms); }
inline uint64_t WaveOfBlock(const Residency& r, uint64_t block) { return block / r.blocks_per_wave; }

}  // namespace ws::sim
