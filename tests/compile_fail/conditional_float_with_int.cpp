// Compiled by a test, never built: `c ? a[i] : 0` with a float array is a float in CUDA, but
// an element read in the simulator is a proxy object and the conditional would take the int's
// type, so the dialect refuses it. With WS_EXPECT_COMPILES the same line with 0.0f, and an int
// array with 0, must compile (both have CUDA's type).
#include <type_traits>

#include "sim/dialect.h"

using namespace ws::dialect;

__global__ void PicksAnElementOrZero(Global<const float> a, Global<const int> b, Global<float> out) {
  __shared__ Shared<float[32]> s;
  s[threadIdx.x] = 1.0f;
#ifdef WS_EXPECT_COMPILES
  auto x = threadIdx.x < 16 ? a[threadIdx.x] : 0.0f;
  auto y = threadIdx.x < 16 ? s[threadIdx.x] : 0.0f;
  auto z = threadIdx.x < 16 ? b[threadIdx.x] : 0;
  static_assert(std::is_same_v<decltype(x), float> && std::is_same_v<decltype(y), float> &&
                std::is_same_v<decltype(z), int>);
  out[threadIdx.x] = x + y + float(z);
#else
  out[threadIdx.x] = threadIdx.x < 16 ? a[threadIdx.x] : 0;
  out[threadIdx.x] = threadIdx.x < 16 ? s[threadIdx.x] : 0;
#endif
}
