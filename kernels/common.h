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

// The components of a CUDA vector type (float2, float4, int4, ...: members x, y[, z[, w]]); 0 for
// any other type.
template <class T>
constexpr int VectorComponents() {
  if constexpr (requires(const T& v) { v.x; v.y; v.z; v.w; }) return 4;
  else if constexpr (requires(const T& v) { v.x; v.y; v.z; }) return 3;
  else if constexpr (requires(const T& v) { v.x; v.y; }) return 2;
  else return 0;
}

// Compares vectors of a CUDA vector type component by component, each as Compare compares
// numbers; the detail names the element and the component ("first at 5.y").
template <class T>
  requires(VectorComponents<T>() > 0)
Check CompareComponents(const std::vector<T>& got, const std::vector<T>& want, double rel_tol = 0,
                        double abs_tol = 0) {
  using C = std::remove_cv_t<decltype(got[0].x)>;
  constexpr int k = VectorComponents<T>();
  auto flat = [](const std::vector<T>& v) {
    std::vector<C> out;
    out.reserve(v.size() * k);
    for (const T& e : v) {
      out.push_back(e.x);
      out.push_back(e.y);
      if constexpr (k > 2) out.push_back(e.z);
      if constexpr (k > 3) out.push_back(e.w);
    }
    return out;
  };
  if (got.size() != want.size()) {
    Check c;
    c.detail = "output has " + std::to_string(got.size()) + " elements, reference " + std::to_string(want.size());
    return c;
  }
  const std::vector<C> g = flat(got), w = flat(want);
  Check c = Compare(g, w, rel_tol, abs_tol);
  if (!c.passed) {
    size_t first = 0;
    while (first < g.size()) {
      const double gd = double(g[first]), wd = double(w[first]), abs = std::fabs(gd - wd);
      const double rel = wd != 0 ? abs / std::fabs(wd) : abs;
      if (!(abs <= abs_tol || rel <= rel_tol) || std::isnan(gd)) break;
      ++first;
    }
    char buf[200];
    std::snprintf(buf, sizeof buf, "%llu of %zu components differ; first at %zu.%c: got %g, want %g",
                  static_cast<unsigned long long>(c.mismatches), g.size(), first / k, "xyzw"[first % k],
                  double(g[first]), double(w[first]));
    c.detail = buf;
  }
  return c;
}

// Compares vectors of any other type element by element with `same(got, want)` (a struct's
// operator== where none is given); no values in the detail, only the first element that differs.
template <class T, class Same>
Check CompareWith(const std::vector<T>& got, const std::vector<T>& want, Same same) {
  Check c;
  if (got.size() != want.size()) {
    c.detail = "output has " + std::to_string(got.size()) + " elements, reference " + std::to_string(want.size());
    return c;
  }
  size_t first = got.size();
  for (size_t i = 0; i < got.size(); ++i)
    if (!same(got[i], want[i])) {
      if (first == got.size()) first = i;
      ++c.mismatches;
    }
  c.passed = c.mismatches == 0;
  c.detail = c.passed ? "matches the CPU reference"
                      : std::to_string(c.mismatches) + " of " + std::to_string(got.size()) +
                            " elements differ; first at " + std::to_string(first);
  return c;
}

// Draws `count` integers uniformly from [lo, hi], zero included where the range holds it (Input's
// explicit ranges and its unsigned types; RandomInts leaves zero out).
inline std::vector<int> RandomIntsIn(size_t count, uint64_t seed, int lo, int hi) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int> v(count);
  for (auto& x : v) x = dist(rng);
  return v;
}

inline unsigned CeilDiv(long long a, long long b) { return unsigned((a + b - 1) / b); }

inline void RequireBlock(const Block& got, unsigned x, unsigned y, const std::string& why) {
  if (got.Set() && (got.x != x || got.y != y || got.z != 1))
    throw BadRequest("this variant needs a " + std::to_string(x) + "x" + std::to_string(y) +
                     " block: " + why);
}

}  // namespace ws::kernels
