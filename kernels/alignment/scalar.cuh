// alignment/scalar — each thread reads its RayState whole. The struct is only 4-byte aligned,
// so nvcc reads it as eight 4-byte loads, and each load's lanes are 32 bytes apart.
// Picture: eight load requests per warp, each touching 32 sectors for 4 sectors of data.
__global__ void read_scalar(Global<const RayState> rays, Global<float> out, int n) {
  int rayidx = threadIdx.x + blockIdx.x * blockDim.x;
  if (rayidx < n) {
    RayState s = rays[rayidx];
    out[rayidx] = RaySum(s.pos, s.dir, s.minDist, s.triangleID);
  }
}

WS_VARIANT(scalar, .order = 1, .title = "Field by field (eight 4-byte loads)",
           .watch = "Eight load requests per warp, each touching 32 sectors.") {
  return RunAlignment(b, r, read_scalar);
}
