// The kernel dialect, simulator side (sim/dialect.h): CUDA's keywords, built-in variables and
// vector types, the math and bit functions, and the index type every subscript takes.
#pragma once
#include <math.h>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <string_view>
#include <type_traits>

#include "sim/engine.h"

// ---- CUDA keywords ----------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __inline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
// Only an optimisation hint for nvcc; on a Global<T> (a class here) it has no meaning.
#define __restrict__
// A block's shared arrays: one object per OS thread, used by one block at a time. The empty
// tag declared in front takes the storage class written before __shared__, so that `static
// __shared__` and `extern __shared__ Shared<float[]> s;` (CUDA's dynamic shared array) compile:
// `extern` then declares the tag only, and s is a local object like any other shared array.
namespace ws::dialect { struct SharedTag {}; }
#define WS_SHARED_CAT_(a, b) a##b
#define WS_SHARED_CAT(a, b) WS_SHARED_CAT_(a, b)
#define __shared__ \
  ::ws::dialect::SharedTag WS_SHARED_CAT(ws_shared_tag_, __COUNTER__) [[maybe_unused]]; static thread_local

#define threadIdx (::ws::sim::detail::t_current->thread_idx)
#define blockIdx (::ws::sim::detail::t_current->block_idx)
#define blockDim (::ws::sim::detail::t_current->block_dim)
#define gridDim (::ws::sim::detail::t_current->grid_dim)

namespace ws::dialect {

using ::ws::sim::Op;
using ::ws::sim::detail::t_current;
constexpr int warpSize = 32;

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
};
using uint3 = ::ws::sim::detail::Uint3;

// CUDA's vector types with CUDA's size and alignment (vector_types.h): an 8-byte type is
// 8-aligned and a 16-byte one 16-aligned, so that one access is one 8- or 16-byte piece (nvcc's
// LDG.64/LDS.64, LDG.128/LDS.128), never two or four 4-byte ones; float3 is 12 bytes, 4-aligned.
struct alignas(8) float2 { float x, y; };
struct float3 { float x, y, z; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(8) uint2 { unsigned int x, y; };
struct alignas(16) uint4 { unsigned int x, y, z, w; };
struct alignas(16) double2 { double x, y; };
static_assert(sizeof(float2) == 8 && alignof(float2) == 8 && sizeof(int2) == 8 && alignof(int2) == 8 &&
              sizeof(uint2) == 8 && alignof(uint2) == 8);
static_assert(sizeof(float4) == 16 && alignof(float4) == 16 && sizeof(int4) == 16 && alignof(int4) == 16 &&
              sizeof(uint4) == 16 && alignof(uint4) == 16 && sizeof(double2) == 16 && alignof(double2) == 16);
static_assert(sizeof(float3) == 12 && alignof(float3) == 4);
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float3 make_float3(float x, float y, float z) { return {x, y, z}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline int2 make_int2(int x, int y) { return {x, y}; }
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
inline uint2 make_uint2(unsigned int x, unsigned int y) { return {x, y}; }
inline uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { return {x, y, z, w}; }
inline double2 make_double2(double x, double y) { return {x, y}; }

// IEEE fmin/fmax as CUDA defines them (a NaN argument yields the other), inlined and written
// so that the compiler can use minss/maxss and a select rather than a branch.
inline float min(float a, float b) { const float m = a < b ? a : b; return b != b ? a : m; }
inline float max(float a, float b) { const float m = a > b ? a : b; return b != b ? a : m; }
inline double min(double a, double b) { const double m = a < b ? a : b; return b != b ? a : m; }
inline double max(double a, double b) { const double m = a > b ? a : b; return b != b ? a : m; }
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
using ::fabsf; using ::fminf; using ::fmaxf; using ::sqrtf;
// The bits of a float as an int and back, as the CUDA intrinsics do.
inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, sizeof i); return i; }
inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, sizeof f); return f; }

// A value read from an array (GlobalRef, SharedRef) whose element is an integer: usable as a
// subscript directly, `histo[buffer[i]]`, as in CUDA.
template <class R>
concept LoadedInteger = requires { typename R::Value; } && std::integral<typename R::Value> &&
                        std::is_convertible_v<const R&, typename R::Value>;

// An index that remembers where in the kernel source it was written: any integer or unscoped
// enum expression, or an integer just read from an array.
struct Index {
  int64_t value;
  std::source_location loc;
  template <class I> requires std::integral<I> || (std::is_enum_v<I> && std::is_convertible_v<I, int64_t>)
  Index(I i, std::source_location l = std::source_location::current())
      : value(static_cast<int64_t>(i)), loc(l) {}
  template <LoadedInteger R>
  Index(const R& r, std::source_location l = std::source_location::current())
      : value(static_cast<int64_t>(typename R::Value(r))), loc(l) {}
};

// How nvcc splits a value of T into memory instructions: pieces of min(alignof, 16) bytes.
template <class T>
struct Pieces {
  static constexpr uint32_t width = alignof(T) < 16 ? alignof(T) : 16;
  static constexpr uint32_t count = sizeof(T) / width;
  static_assert(sizeof(T) % width == 0, "element size must be a multiple of its alignment");
};

}  // namespace ws::dialect
