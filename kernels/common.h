// Helpers every family shares: random inputs (never zeros) and comparison with a reference.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "kernels/family.h"

namespace ws::kernels {

// Uniform floats in [lo, hi), excluding zero by construction when lo > 0.
inline std::vector<float> RandomFloats(size_t count, uint64_t seed, float lo = 0.25f, float hi = 4.0f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(count);
  for (auto& x : v) x = dist(rng);
  return v;
}

inline std::vector<int> RandomInts(size_t count, uint64_t seed, int lo, int hi) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int> v(count);
  for (auto& x : v) { do x = dist(rng); while (x == 0); }
  return v;
}

// Compares element by element; exact when tolerances are zero.
template <class T>
Check Compare(const std::vector<T>& got, const std::vector<T>& want, double rel_tol = 0,
              double abs_tol = 0) {
  Check c;
  if (got.size() != want.size()) {
    c.detail = "output has " + std::to_string(got.size()) + " elements, reference " +
               std::to_string(want.size());
    return c;
  }
  size_t first_bad = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = double(got[i]), w = double(want[i]);
    const double abs = std::fabs(g - w);
    const double rel = w != 0 ? abs / std::fabs(w) : abs;
    if (!(abs <= abs_tol || rel <= rel_tol) || std::isnan(g)) {
      if (first_bad == got.size()) first_bad = i;
      ++c.mismatches;
    }
    if (abs > c.max_abs_error || std::isnan(g)) c.max_abs_error = std::isnan(g) ? INFINITY : abs;
    if (rel > c.max_rel_error) c.max_rel_error = rel;
  }
  c.passed = c.mismatches == 0;
  if (!c.passed) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%llu of %zu elements differ; first at %zu: got %g, want %g",
                  static_cast<unsigned long long>(c.mismatches), got.size(), first_bad,
                  double(got[first_bad]), double(want[first_bad]));
    c.detail = buf;
  } else {
    c.detail = "matches the CPU reference";
  }
  return c;
}

inline unsigned CeilDiv(long long a, long long b) { return unsigned((a + b - 1) / b); }

inline void RequireBlock(const Block& got, unsigned x, unsigned y, const std::string& why) {
  if (got.Set() && (got.x != x || got.y != y || got.z != 1))
    throw BadRequest("this variant needs a " + std::to_string(x) + "x" + std::to_string(y) +
                     " block: " + why);
}

}  // namespace ws::kernels
