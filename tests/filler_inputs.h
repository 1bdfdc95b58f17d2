// Inputs for the simulator's tests that only need floats that are not all zeros (so a kernel's
// stores change the arrays): the same pseudo-random values on every run.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws::test_inputs {

inline std::vector<float> FillerFloats(size_t n) {
  std::vector<float> v(n);
  uint32_t x = 12345;
  for (auto& f : v) f = float((x = x * 1103515245u + 12345u) >> 8) / float(1 << 24) - 0.5f;  // in [-0.5, 0.5)
  return v;
}

}  // namespace ws::test_inputs
