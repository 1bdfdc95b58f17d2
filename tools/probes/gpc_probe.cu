// Which SMs' misses to one sector the L2 merges: blocks of one warp each read the same 32
// sectors (a float of 32 lines) at once, launched plainly (consecutive blocks spread over the
// GPU) or in thread-block clusters (a cluster's blocks run on one GPC). Under Nsight Compute the
// L2's read sectors (lts__t_sectors_srcunit_tex_op_read) say how many of the blocks' 32-sector
// misses reached it; run plainly it prints each block's SM.
//
// usage: gpc_probe [--ncu]   (--ncu: the launches only, no printing)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "check.cuh"

__global__ void probe_share(const float* a, float* sink, unsigned* smid) {
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(a + threadIdx.x * 32) : "memory");
  sink[blockIdx.x * 32 + threadIdx.x] = v;
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  if (threadIdx.x == 0) smid[blockIdx.x] = s;
}

int main(int argc, char** argv) {
  const bool ncu = argc > 1 && std::string_view(argv[1]) == "--ncu";
  float *a, *sink;
  unsigned* smid;
  CHECK(cudaMalloc(&a, 32 * 32 * sizeof(float)));
  CHECK(cudaMalloc(&sink, 1024 * 32 * sizeof(float)));
  CHECK(cudaMalloc(&smid, 1024 * sizeof(unsigned)));
  CHECK(cudaMemset(a, 0, 32 * 32 * sizeof(float)));
  // (blocks, cluster size; 0: a plain launch)
  const int runs[][2] = {{2, 0}, {2, 2}, {4, 0}, {4, 4}, {8, 0}, {8, 8}, {16, 0}, {16, 8}, {32, 0}, {32, 8}, {64, 0}, {64, 8}, {132, 0}};
  for (const auto& r : runs) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(r[0]);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = r[1];
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = r[1] ? 1 : 0;
    CHECK(cudaLaunchKernelEx(&cfg, probe_share, (const float*)a, sink, smid));
    CHECK(cudaDeviceSynchronize());
    if (ncu) continue;
    std::vector<unsigned> s(r[0]);
    CHECK(cudaMemcpy(s.data(), smid, r[0] * sizeof(unsigned), cudaMemcpyDeviceToHost));
    std::printf("blocks=%d cluster=%d sm:", r[0], r[1]);
    for (unsigned x : s) std::printf(" %u", x);
    std::printf("\n");
  }
  return 0;
}
