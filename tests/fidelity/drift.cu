// Blocks in step or apart: every warp of every block reads the same n floats in turn, 32 at a
// time (one sector pair a step), with no barrier. An SM's first warp to reach a sector misses L1
// and the SM's others find it; the SMs of a merge group share one L2 read for as long as they
// ask within its time in flight. The same loop with 1, 8 and 64 warps on each SM (132 blocks of
// 32 threads, 264 of 128, 1,056 of 256): how long the blocks stay in step as the SMs fill is
// what docs/FIDELITY.md's "Latencies that spread" models. Kernel files whose cache counters the
// simulator must give within the bounds of docs/FIDELITY.md (tools/fidelity_ncu.sh,
// tools/fidelity_compare.py).

__device__ float SumInTurn(Global<const float> x, int n) {
  float s = 0;
  for (int i = threadIdx.x % 32; i < n; i += 32) s += x[i];
  return s;
}

__global__ void same_stream_1(Global<const float> x, Global<float> out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = SumInTurn(x, n);
}

__global__ void same_stream_8(Global<const float> x, Global<float> out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = SumInTurn(x, n);
}

__global__ void same_stream_64(Global<const float> x, Global<float> out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = SumInTurn(x, n);
}

WS_KERNEL(same_stream_1, .title = "every warp reads the same floats in turn: 1 warp per SM",
          .teaching_n = 16384, .timing_n = 16384) {
  auto x = k.Input<const float>("x", k.n);
  auto out = k.Output<float>("out", 132 * 32);
  k.Launch(dim3(132), dim3(32), same_stream_1, x, out, k.n);
}

WS_KERNEL(same_stream_8, .title = "every warp reads the same floats in turn: 8 warps per SM",
          .teaching_n = 16384, .timing_n = 16384) {
  auto x = k.Input<const float>("x", k.n);
  auto out = k.Output<float>("out", 264 * 128);
  k.Launch(dim3(264), dim3(128), same_stream_8, x, out, k.n);
}

WS_KERNEL(same_stream_64, .title = "every warp reads the same floats in turn: 64 warps per SM",
          .teaching_n = 16384, .timing_n = 16384) {
  auto x = k.Input<const float>("x", k.n);
  auto out = k.Output<float>("out", 1056 * 256);
  k.Launch(dim3(1056), dim3(256), same_stream_64, x, out, k.n);
}
