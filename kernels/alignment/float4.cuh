// alignment/float4 — the seed's trick: read the same 32 bytes as two float4 (16-byte loads)
// and unpack them. Two load requests per warp instead of eight, each covering 32 sectors
// with 16 bytes per lane. Picture: the two float4 reads interleave to cover every sector twice.
__global__ void read_float4(Global<const RayState> rays, Global<float> out, int n) {
  int rayidx = threadIdx.x + blockIdx.x * blockDim.x;
  if (rayidx < n) {
    // Interpret as float4 array, and transform to structure
    float4 r1 = global_cast<const float4>(rays)[rayidx * 2];
    float4 r2 = global_cast<const float4>(rays)[rayidx * 2 + 1];
    float3 raypos = make_float3(r1.x, r1.y, r1.z);
    float3 raydir = make_float3(r1.w, r2.x, r2.y);
    float2 data = make_float2(r2.z, r2.w);
    out[rayidx] = RaySum(raypos, raydir, data.x, __float_as_int(data.y));
  }
}

WS_VARIANT(float4, .order = 2, .title = "As two float4 (two 16-byte loads)",
           .watch = "Two load requests per warp, each covering 32 sectors with 16 bytes per lane.") {
  return RunAlignment(b, r, read_float4);
}
