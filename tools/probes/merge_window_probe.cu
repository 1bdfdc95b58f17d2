// How long after one SM's miss another SM's miss of the same sector still merges with it: two
// (or four) blocks of one warp in a thread-block cluster (one TPC, or two: SMs whose misses the L2
// merges, gpc_probe.cu) each read the same 32 sectors (a float of 32 lines), block b after
// spinning b x delay cycles. Under Nsight Compute (--cache-control all: the sectors come from
// DRAM) the L2's read sectors say how many blocks' misses reached it: 32 if all merged, 32 per
// block if none did. Run plainly it prints each block's SM and when its load left and returned
// (%globaltimer, ns, comparable across SMs).
//
// Built: nvcc -O2 -arch=sm_90 -std=c++17 -o merge_window_probe tools/probes/merge_window_probe.cu; run
// (run on an H200: tools/reports/merge_window_probe_H200.txt): merge_window_probe, then ncu --cache-control all --clock-control none
// --csv --page raw --print-units base --metrics lts__t_sectors_srcunit_tex_op_read.sum,
// lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
// merge_window_probe --ncu (docs/FIDELITY.md, "Latencies that spread: tried, not kept").
//
// usage: merge_window_probe [--ncu]
#include <cuda_runtime.h>

#include <cstdio>
#include <string_view>
#include <vector>

#include "check.cuh"

__global__ void probe_delay(const float* a, float* sink, unsigned long long* info, long long delay) {
  const long long wait = delay * blockIdx.x;
  const long long t0 = clock64();
  while (clock64() - t0 < wait) {
  }
  unsigned long long g0, g1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(a + threadIdx.x * 32) : "memory");
  sink[blockIdx.x * 32 + threadIdx.x] = v;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  if (threadIdx.x == 0) {
    info[blockIdx.x * 3] = s;
    info[blockIdx.x * 3 + 1] = g0;
    info[blockIdx.x * 3 + 2] = g1;
  }
}

int main(int argc, char** argv) {
  const bool ncu = argc > 1 && std::string_view(argv[1]) == "--ncu";
  float *a, *sink;
  unsigned long long* info;
  CHECK(cudaMalloc(&a, 32 * 32 * sizeof(float)));
  CHECK(cudaMalloc(&sink, 64 * 32 * sizeof(float)));
  CHECK(cudaMalloc(&info, 64 * 3 * sizeof(unsigned long long)));
  CHECK(cudaMemset(a, 0, 32 * 32 * sizeof(float)));
  const int clusters[] = {2, 4};
  const long long delays[] = {0, 8, 16, 32, 64, 100, 150, 200, 300, 400, 600, 800, 1200, 2000};
  for (int c : clusters)
    for (long long d : delays) {
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = dim3(c);
      cfg.blockDim = dim3(32);
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = c;
      attr[0].val.clusterDim.y = 1;
      attr[0].val.clusterDim.z = 1;
      cfg.attrs = attr;
      cfg.numAttrs = 1;
      CHECK(cudaLaunchKernelEx(&cfg, probe_delay, (const float*)a, sink, info, d));
      CHECK(cudaDeviceSynchronize());
      if (ncu) continue;
      std::vector<unsigned long long> s(c * 3);
      CHECK(cudaMemcpy(s.data(), info, s.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      std::printf("cluster=%d delay=%lld:", c, d);
      for (int b = 0; b < c; ++b)
        std::printf(" | block %d sm %llu issue %lld ns back %lld ns", b, s[b * 3], (long long)(s[b * 3 + 1] - s[1]),
                    (long long)(s[b * 3 + 2] - s[1]));
      std::printf("\n");
    }
  return 0;
}
