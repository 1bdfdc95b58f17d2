// shortcut (seeds 000 and 001): r[i][j] = min over k of d[i][k] + d[k][j], from the naive GPU
// version to register blocking, shared memory and 16-byte accesses. Included once per back
// end, inside that back end's namespace, with the dialect in scope.
namespace shortcut {

#include "kernels/shortcut/v0.cuh"
#include "kernels/shortcut/v0_transposed.cuh"
#include "kernels/shortcut/v1.cuh"
#include "kernels/shortcut/v2.cuh"
#include "kernels/shortcut/v2_float4.cuh"
#include "kernels/shortcut/v3.cuh"
#include "kernels/shortcut/v4.cuh"
#include "kernels/shortcut/v5.cuh"

inline FamilyInfo Info() {
  return {"shortcut", "Shortcut (min-plus product): coalescing, registers, shared memory, float4",
          "Every result reads a row and a column of d. Which index the lanes of a warp share "
          "decides whether a read is one line or sixteen; blocking 8x8 results per thread, "
          "staging in shared memory and 16-byte loads then cut the number of instructions.",
          // Teaching 64: four 16x16 blocks a side for v0/v1, one 64x64 tile for v2-v4.
          // Timing 4096: the largest size the seeds' course runs (v0 takes about a second).
          // Simulation cap 1024 (the seed's example is n = 1000): v0 and v1 make 2n^3 lane
          // loads, about 2 billion there, roughly 50 s for a whole launch on one core.
          64, 4096, 1024, "n x n matrix of floats",
          {{"v0", "V0: i from threadIdx.x (poor)",
            "A warp's lanes have 16 different i: the read of d[n*i + k] touches 16 lines for "
            "16 floats.",
            "kernels/shortcut/v0.cuh"},
           {"v0_transposed", "V0 on a transposed copy (just as poor)",
            "Each thread now walks along rows of t, but the warp still reads 16 rows at once: "
            "the access pattern of the warp is what counts.",
            "kernels/shortcut/v0_transposed.cuh"},
           {"v1", "V1: i and j swapped (coalesced)",
            "Consecutive lanes read consecutive floats: 16 floats in one line instead of 16 lines.",
            "kernels/shortcut/v1.cuh"},
           {"v2", "V2: 8x8 results per thread in registers",
            "A 64x64 tile per block; per k each thread loads 8 floats of t and 8 of d, each used "
            "8 times. Every float is broadcast to several lanes.",
            "kernels/shortcut/v2.cuh"},
           {"v2_float4", "V2 with float4 loads",
            "Each load brings 4 consecutive floats: a quarter of the load instructions.",
            "kernels/shortcut/v2_float4.cuh"},
           {"v3", "V3: shared memory, four k-steps per stage",
            "The block stages 4 rows of t and d in shared memory with coalesced loads; operands "
            "come from shared memory as broadcasts.",
            "kernels/shortcut/v3.cuh"},
           {"v4", "V4: float4 from global and shared, float4 stores",
            "One float4 load per thread and stage; shared reads and the stores are 16 bytes wide.",
            "kernels/shortcut/v4.cuh"},
           {"v5", "V5: 128x128 tiles, 8 k-steps per stage, next stage prefetched",
            "v4 with 256 threads per block: half the barriers per k-step, and the global loads "
            "of the next stage overlap this stage's arithmetic.",
            "kernels/shortcut/v5.cuh"}}};
}

inline Work WorkFor(int n) {
  return {2.0 * double(n) * n * sizeof(float), 2.0 * double(n) * n * n, "additions and minimums"};
}

// The family's CPU reference. Each sum d[i][k] + d[k][j] is rounded once, as on the GPU, and
// a minimum does not depend on the order it is taken in, so the result is exact. The loops run
// i, k, j so that the inner loop walks rows (about 30x faster than walking columns).
inline std::vector<float> ShortcutReference(const std::vector<float>& d, int n) {
  std::vector<float> r(size_t(n) * n, HUGE_VALF);
  for (int i = 0; i < n; ++i) {
    float* row = &r[size_t(n) * i];
    for (int k = 0; k < n; ++k) {
      const float x = d[size_t(n) * i + k];
      const float* dk = &d[size_t(n) * k];
      for (int j = 0; j < n; ++j) {
        const float z = x + dk[j];
        row[j] = z < row[j] ? z : row[j];  // inputs are finite: no NaN to care about
      }
    }
  }
  return r;
}

template <class B>
Check Run(B& b, const std::string& variant, const RunRequest& r) {
  const int n = r.n;
  const auto host = RandomFloats(size_t(n) * n, r.seed);
  const auto want = ShortcutReference(host, n);
  std::vector<float> got;
  if (variant == "v0" || variant == "v0_transposed" || variant == "v1") {
    RequireBlock(r.block, 16, 16, "the seed's 16x16 block, one result per thread");
    const dim3 grid(CeilDiv(n, 16), CeilDiv(n, 16)), block(16, 16);
    auto d = b.template Upload<const float>("d", "float", host, n, n);
    auto out = b.template Alloc<float>("r", "float", size_t(n) * n, n, n);
    if (variant == "v0") {
      b.Launch(grid, block, shortcut_v0, out, d, n);
    } else if (variant == "v1") {
      b.Launch(grid, block, shortcut_v1, out, d, n);
    } else {
      std::vector<float> tr(size_t(n) * n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) tr[size_t(n) * j + i] = host[size_t(n) * i + j];
      auto t = b.template Upload<const float>("t", "float", tr, n, n);
      b.Launch(grid, block, shortcut_v0_transposed, out, d, t, n);
    }
    got = b.Download(out);
  } else if (variant == "v2" || variant == "v2_float4" || variant == "v3" || variant == "v4" ||
             variant == "v5") {
    const bool v5 = variant == "v5";
    const int tile = v5 ? 128 : 64;
    if (v5) RequireBlock(r.block, 16, 16, "16x16 threads, each computing 8x8 results of a 128x128 tile");
    else RequireBlock(r.block, 8, 8, "8x8 threads, each computing 8x8 results of a 64x64 tile");
    // Padded to a multiple of the tile with HUGE_VALF (which never wins a minimum), as d and
    // as its transpose t.
    const int nn = (n + tile - 1) / tile * tile;
    std::vector<float> pd(size_t(nn) * nn, HUGE_VALF), pt(size_t(nn) * nn, HUGE_VALF);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        pd[size_t(nn) * i + j] = host[size_t(n) * i + j];
        pt[size_t(nn) * j + i] = host[size_t(n) * i + j];
      }
    const dim3 grid(nn / tile, nn / tile), block(v5 ? 16 : 8, v5 ? 16 : 8);
    auto d = b.template Upload<const float>("d", "float", pd, nn, nn);
    auto t = b.template Upload<const float>("t", "float", pt, nn, nn);
    if (variant == "v4" || v5) {
      // Rows of the result padded to nn floats, so that every row starts 16-byte aligned.
      auto out = b.template Alloc<float>("r", "float", size_t(n) * nn, n, nn);
      b.Launch(grid, block, v5 ? shortcut_v5 : shortcut_v4, global_cast<float4>(out),
               global_cast<const float4>(d), global_cast<const float4>(t), n, nn);
      const auto padded = b.Download(out);
      got.resize(size_t(n) * n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) got[size_t(n) * i + j] = padded[size_t(nn) * i + j];
    } else {
      auto out = b.template Alloc<float>("r", "float", size_t(n) * n, n, n);
      if (variant == "v2") b.Launch(grid, block, shortcut_v2, out, d, t, n, nn);
      else if (variant == "v3") b.Launch(grid, block, shortcut_v3, out, d, t, n, nn);
      else
        b.Launch(grid, block, shortcut_v2_float4, out, global_cast<const float4>(d),
                 global_cast<const float4>(t), n, nn);
      got = b.Download(out);
    }
  } else {
    throw BadRequest("shortcut has no variant '" + variant + "'");
  }
  return Compare(got, want);
}

}  // namespace shortcut
