// Device profiles (H100 SXM, H200) and the residency rule: blocks per SM and the L1 left over.
#include "sim/device_profile.h"

#include <algorithm>
#include <cctype>

namespace ws::sim {

const std::vector<uint32_t>& SharedCarveoutsKiB() {
  static const std::vector<uint32_t> k = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  return k;
}

const std::vector<DeviceProfile>& DeviceProfiles() {
  // Sizes from NVIDIA's H100 and H200 data sheets and the Hopper tuning guide: 132 SMs on the
  // SXM5 boards, 256 KB of L1/shared memory per SM (up to 227 KB shared per block, 48 KB of it
  // static without opt-in: CUDA C++ Programming Guide, "Technical Specifications per Compute
  // Capability"), 1024 threads per block, 64 Ki registers, 2048 threads / 64 warps / 32 blocks per SM. The two differ in DRAM (80 GB HBM3 at
  // 3.35 TB/s against 141 GB HBM3e at 4.8 TB/s) and in L2: 50 MiB on the H100, 60 MiB on the
  // H200 (as cudaGetDeviceProperties gives them), not in the SM.
  auto hopper = [](std::string name, std::string marketing, double gbps, double gib, uint64_t l2_bytes) {
    DeviceProfile d;
    d.name = std::move(name);
    d.marketing = std::move(marketing);
    d.sms = 132;
    d.l1_shared_bytes = 256 * 1024;
    d.max_shared_per_sm = 228 * 1024;
    d.max_shared_per_block = 227 * 1024;
    d.max_static_shared_per_block = 48 * 1024;
    d.max_threads_per_block = 1024;
    d.shared_reserved_per_block = 1024;
    d.l2_bytes = l2_bytes;
    d.l1_ways = 4;
    d.l2_ways = 16;
    d.regs_per_sm = 65536;
    d.max_threads_per_sm = 2048;
    d.max_warps_per_sm = 64;
    d.max_blocks_per_sm = 32;
    d.boost_clock_mhz = 1980;
    d.dram_gb_per_s = gbps;
    d.dram_gib = gib;
    // Measured on an H200 (tools/reports/cache_probe_H200.md, cache_probe_clocks_H200*.txt,
    // gpc_probe_H200.txt): a warp's load to use, 52 cycles from L1, 350 from L2, 800 from DRAM;
    // another SM's read of a sector that DRAM is filling waits for that fill until about 450
    // cycles (800 - 350) after the first; the L2 counts it as no read of its own when the two SMs
    // are of one group of four (two TPCs: blocks of a cluster, and consecutive blocks of a full
    // launch) and as a read otherwise; 32 blocks of a launch start within about 250 cycles; a
    // store to 32 lines has them in L1 for a later store 250 cycles on, not at once (16 lines: at
    // once). The H100 is the same chip with slower memory; its recordings agree with these as well.
    d.timing.l1_hit = 52;
    d.timing.l2_hit = 350;
    d.timing.dram = 800;
    d.timing.block_dispatch = 8;
    d.timing.wide_store_lines = 16;
    d.timing.wide_store_delay = 100;
    d.merge_group_sms = 4;
    d.dram_fetch_bytes = 64;
    // A launch reads its kernel's code from DRAM once (the code through its last instruction that
    // is not padding; LaunchOptions::code_bytes) and 2,512 bytes more: an empty kernel reads 2,560 B
    // (tools/reports/cache_probe_H200.md), 48 of them its code (LDC, EXIT, BRA). Measured against
    // the catalog at its teaching sizes (docs/FIDELITY.md): shortcut v3 at n = 64 reads 8,448 B
    // beyond its array and the empty kernel, for 8,544 - 48 bytes of code; pairs v1 at 256, 1,984 to
    // 2,240 B for 2,080 - 48.
    d.launch_read_bytes = 2560 - kEmptyKernelCodeBytes;
    d.arch = "sm_90";
    return d;
  };
  static const std::vector<DeviceProfile> k = {
      hopper("H100", "NVIDIA H100 80GB HBM3", 3350, 80, 50ull << 20),
      hopper("H200", "NVIDIA H200", 4800, 141, 60ull << 20),  // cudaGetDeviceProperties: 62914560
  };
  return k;
}

namespace {
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

const DeviceProfile* FindDeviceProfile(std::string_view name) {
  const std::string want = Lower(name);
  if (want.empty()) return nullptr;
  for (const auto& d : DeviceProfiles())
    if (want == Lower(d.name) || want == Lower(d.marketing)) return &d;
  // A recorded device name: "NVIDIA H200 NVL", "NVIDIA H100 80GB HBM3" ...
  for (const auto& d : DeviceProfiles())
    if (want.find(Lower(d.name)) != std::string::npos) return &d;
  return nullptr;
}

std::string DeviceProfileNames() {
  std::string out;
  for (const auto& d : DeviceProfiles()) out += (out.empty() ? "" : ", ") + d.name;
  return out;
}

Residency ComputeResidency(const DeviceProfile& d, const LaunchShape& shape, uint32_t registers_per_thread,
                           uint64_t shared_bytes_per_block) {
  Residency r;
  const uint64_t threads_per_block = shape.block.Count();
  if (threads_per_block == 0 || threads_per_block > d.max_threads_per_sm ||
      shared_bytes_per_block > d.max_shared_per_block)
    return r;
  const uint64_t warps = shape.WarpsPerBlock();
  const uint32_t regs = registers_per_thread ? registers_per_thread : kDefaultRegistersPerThread;
  const uint64_t regs_per_warp = RegistersPerWarp(regs);
  // The driver reserves 1 KiB per resident block for its own use; the model counts it only for
  // kernels that use shared memory (the carve-out of a kernel without any stays 0).
  const uint64_t shared =
      shared_bytes_per_block ? shared_bytes_per_block + d.shared_reserved_per_block : 0;
  struct Limit { uint64_t blocks; const char* what; };
  const Limit limits[] = {
      {d.max_blocks_per_sm, "blocks"},
      {d.max_threads_per_sm / threads_per_block, "threads"},
      {d.max_warps_per_sm / warps, "warps"},
      {d.regs_per_sm / (regs_per_warp * warps), "registers"},
      {shared ? d.max_shared_per_sm / shared : ~0ull, "shared memory"},
  };
  uint64_t best = ~0ull;
  for (const auto& l : limits)
    if (l.blocks < best) { best = l.blocks; r.limited_by = l.what; }
  r.blocks_per_sm = uint32_t(best);
  if (r.blocks_per_sm == 0) return r;
  // The carve-out: the smallest configuration that holds the resident blocks' shared memory.
  const uint64_t need = shared * r.blocks_per_sm;
  r.carveout_bytes = d.max_shared_per_sm;
  for (uint32_t kib : SharedCarveoutsKiB())
    if (uint64_t(kib) * 1024 >= need) { r.carveout_bytes = kib * 1024; break; }
  r.l1_bytes = d.l1_shared_bytes - r.carveout_bytes;
  r.blocks_per_wave = uint64_t(r.blocks_per_sm) * d.sms;
  return r;
}

}  // namespace ws::sim
