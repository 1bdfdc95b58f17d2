// alignment (seed 003): a 32-byte struct read as eight 4-byte loads or as two 16-byte loads.
// Included once per back end, inside that back end's namespace, with the dialect in scope.
namespace alignment {

#include "kernels/alignment/ray_state.cuh"
#include "kernels/alignment/scalar.cuh"
#include "kernels/alignment/float4.cuh"

constexpr unsigned kBlock = 256;

inline FamilyInfo Info() {
  return {"alignment", "Alignment: a 32-byte struct in 4-byte or 16-byte pieces",
          "A struct of floats is read 4 bytes at a time, however big it is. Reading the same "
          "bytes as float4 needs a quarter of the load instructions.",
          // Teaching 1024 rays (four blocks); timing 16 Mi rays (512 MiB); simulation cap 1 Mi (32 MiB).
          1024, 16 << 20, 1 << 20, "n RayState structs (drawn 32 to a row)",
          {{"scalar", "Field by field (eight 4-byte loads)",
            "Eight load requests per warp, each touching 32 sectors.",
            "kernels/alignment/scalar.cuh"},
           {"float4", "As two float4 (two 16-byte loads)",
            "Two load requests per warp, each covering 32 sectors with 16 bytes per lane.",
            "kernels/alignment/float4.cuh"}}};
}

inline Work WorkFor(int n) { return {double(n) * (sizeof(RayState) + sizeof(float)), double(n), "rays"}; }

template <class B>
Check Run(B& b, const std::string& variant, const RunRequest& r) {
  const int n = r.n;
  RequireBlock(r.block, kBlock, 1, "one ray per thread, 256 threads");
  const auto f = RandomFloats(size_t(n) * 7, r.seed);
  const auto ids = RandomInts(size_t(n), r.seed + 1, 1, 1 << 20);
  std::vector<RayState> host(static_cast<size_t>(n));
  std::vector<float> want(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const float* v = &f[size_t(i) * 7];
    RayState& s = host[i];
    s.pos = make_float3(v[0], v[1], v[2]);
    s.dir = make_float3(v[3], v[4], v[5]);
    s.minDist = v[6];
    s.triangleID = ids[i];
    want[i] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + float(ids[i]);
  }
  const unsigned cols = n < 32 ? unsigned(n) : 32u;  // one warp's rays to a row
  auto rays = b.template Upload<const RayState>("rays", "RayState", host, CeilDiv(n, cols), cols);
  auto out = b.template Alloc<float>("out", "float", size_t(n), CeilDiv(n, cols), cols);
  const dim3 grid(CeilDiv(n, kBlock)), block(kBlock);
  if (variant == "scalar") b.Launch(grid, block, read_scalar, rays, out, n);
  else if (variant == "float4") b.Launch(grid, block, read_float4, rays, out, n);
  else throw BadRequest("alignment has no variant '" + variant + "'");
  return Compare(b.Download(out), want);
}

}  // namespace alignment
