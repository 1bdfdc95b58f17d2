// Compiled by a test, never built: writing through global_cast<float> of a const input must
// not compile (nvcc refuses reinterpret_cast<float*> of a const float* the same way). With
// WS_EXPECT_COMPILES the same file casts to a const type and must compile, which shows that
// the failure comes from the cast alone.
#include "sim/dialect.h"

using namespace ws::dialect;

__global__ void WritesIntoItsInput(Global<const float> in) {
#ifdef WS_EXPECT_COMPILES
  Global<const float> view = global_cast<const float>(in);
  float x = view[threadIdx.x];
  (void)x;
#else
  Global<float> out = global_cast<float>(in);
  out[threadIdx.x] = 1.0f;
#endif
}
