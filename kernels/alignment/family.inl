// alignment (seed 003): a 32-byte struct read as eight 4-byte loads or as two 16-byte loads.
// The lesson, its CPU reference and the launch both variants share; each variant is a .cuh of
// this folder (kernels/declare.h).
#include "kernels/alignment/ray_state.cuh"

constexpr unsigned kBlock = 256;

WS_FAMILY(.order = 4, .title = "Alignment: a 32-byte struct in 4-byte or 16-byte pieces",
          .story = "A struct of floats is read 4 bytes at a time, however big it is. Reading the same "
                   "bytes as float4 needs a quarter of the load instructions.",
          // Teaching 1024 rays (four blocks); timing 16 Mi rays (512 MiB); simulation cap 1 Mi (32 MiB).
          .teaching_n = 1024, .timing_n = 16 << 20, .max_sim_n = 1 << 20,
          .size_meaning = "n RayState structs (drawn 32 to a row)",
          // Each ray read whole and one float written for it.
          .work = [](double n) { return Work{n * (sizeof(RayState) + sizeof(float)), n, "rays"}; });

// Runs kernel(rays, out, n), one ray per thread, on random rays and checks each sum against the
// CPU's (the family's reference, computed as the rays are made).
template <class K>
Check RunAlignment(Backend& b, const RunRequest& r, K kernel) {
  const int n = r.n;
  const auto f = RandomFloats(size_t(n) * 7, r.seed);
  const auto ids = RandomInts(size_t(n), r.seed + 1, 1, 1 << 20);
  std::vector<RayState> rays(static_cast<size_t>(n));
  std::vector<float> sums(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const float* v = &f[size_t(i) * 7];
    RayState& s = rays[i];
    s.pos = make_float3(v[0], v[1], v[2]);
    s.dir = make_float3(v[3], v[4], v[5]);
    s.minDist = v[6];
    s.triangleID = ids[i];
    sums[i] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + float(ids[i]);
  }
  // 1-D arrays: the view wraps them at 128-byte lines (four rays, or 32 floats, to a row).
  const dim3 grid(CeilDiv(n, kBlock));
  return RunVariant(b, r, {kBlock, 1, "one ray per thread, 256 threads"}, grid, kernel,
                    Input("rays", rays, 1, n, "RayState"), Output<float>("out", 1, n, sums), n);
}
