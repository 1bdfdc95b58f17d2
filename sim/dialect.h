// The kernel dialect, simulator side: compiled by the host compiler, every global and shared
// access goes through these wrappers and is recorded. kernels/dialect.h explains the dialect
// to kernel authors; kernels/dialect_cuda.h is the same vocabulary for nvcc.
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

template <class T> class Global;

// The element's bytes, whatever T's qualifiers (a volatile access is a real one here anyway).
template <class T>
void* RawBytes(T* p) { return const_cast<void*>(static_cast<const volatile void*>(p)); }

// One element of a global array, named by an index; reading or writing it is recorded.
// T may be volatile (Global<volatile float>, CUDA's volatile float*): recorded as such.
template <class T>
class GlobalRef {
 public:
  using Value = std::remove_cv_t<T>;
  GlobalRef(T* data, int array, uint64_t base, int64_t index, uint64_t count,
            std::source_location loc)
      : data_(data), array_(array), base_(base), index_(index), count_(count), loc_(loc) {}
  // Never called: it makes `c ? a[i] : 0` with a floating-point `a` a compile error ("operands
  // to ?: have different types") where it would otherwise be an int, not CUDA's float.
  template <std::integral I> requires(!std::integral<Value>) GlobalRef(I) = delete;

  // The recording path of every global access is forced inline (WS_INLINE): called out of line,
  // the reference goes through memory on each access (docs/PERFORMANCE.md).
  WS_INLINE operator Value() const {
    Value v{};
    if (Check()) {
      Record(Op::Load);
      std::memcpy(&v, RawBytes(&data_[index_]), sizeof(Value));
    }
    return v;
  }
  WS_INLINE const GlobalRef& operator=(const Value& v) const requires(!std::is_const_v<T>) {
    if (Check()) {
      Record(Op::Store);
      std::memcpy(RawBytes(&data_[index_]), &v, sizeof(Value));
    }
    return *this;
  }
  const GlobalRef& operator=(const GlobalRef& o) const requires(!std::is_const_v<T>) {
    return *this = Value(o);
  }
#define WS_COMPOUND(OP)                                                        \
  template <class U>                                                           \
  const GlobalRef& operator OP##=(const U& u) const requires(!std::is_const_v<T>) { \
    Value v = Value(*this);                                                    \
    v OP## = u;                                                                \
    return *this = v;                                                          \
  }
  WS_COMPOUND(+) WS_COMPOUND(-) WS_COMPOUND(*) WS_COMPOUND(/) WS_COMPOUND(%)
  WS_COMPOUND(&) WS_COMPOUND(|) WS_COMPOUND(^) WS_COMPOUND(<<) WS_COMPOUND(>>)
#undef WS_COMPOUND
  // ++a[i] and a[i]++: a load and a store, as nvcc emits them.
  const GlobalRef& operator++() const requires(!std::is_const_v<T>) { return *this += 1; }
  const GlobalRef& operator--() const requires(!std::is_const_v<T>) { return *this -= 1; }
  Value operator++(int) const requires(!std::is_const_v<T>) { Value v = *this; *this = Value(v + 1); return v; }
  Value operator--(int) const requires(!std::is_const_v<T>) { Value v = *this; *this = Value(v - 1); return v; }
  // &a[i] is a pointer into the array, as in CUDA.
  Global<T> operator&() const;

  // Engine-facing (atomics use them): bounds and alignment check, then recording.
  WS_INLINE bool Check() const {
    if (index_ < 0 || uint64_t(index_) >= count_) [[unlikely]] {
      ::ws::sim::detail::ReportOutOfBounds(*t_current, loc_, array_, index_);
      return false;
    }
    // Arrays start 512-byte aligned; only a global_cast at an odd byte offset can misalign.
    if ((base_ % Pieces<Value>::width) != 0) [[unlikely]] {
      const uint64_t addr = base_ + uint64_t(index_) * sizeof(T);
      ::ws::sim::detail::ReportMisaligned(*t_current, loc_, array_, addr, Pieces<Value>::width);
      return false;
    }
    return true;
  }
  WS_INLINE void Record(Op op, ::ws::sim::AtomicAdd add = ::ws::sim::AtomicAdd::No) const {
    auto& t = *t_current;
    const uint64_t addr = base_ + uint64_t(index_) * sizeof(T);
    for (uint32_t p = 0; p < Pieces<Value>::count; ++p)
      ::ws::sim::detail::RecordGlobal(t, loc_, array_, addr + p * Pieces<Value>::width,
                                      Pieces<Value>::width, op, std::is_volatile_v<T>, add);
  }
  T* Data() const { return data_ + index_; }

 private:
  template <class> friend class Global;
  T* data_;
  int array_;
  uint64_t base_;  // simulated address of element 0 of the whole array
  int64_t index_;  // element index in the whole array
  uint64_t count_;
  std::source_location loc_;
};

// A pointer to global memory. In CUDA it is T*; here it carries the array it points into.
template <class T>
class Global {
 public:
  Global() = default;
  Global(T* data, int array, uint64_t base, uint64_t count, int64_t offset = 0)
      : data_(data), array_(array), base_(base), count_(count), offset_(offset) {}
  template <class U> requires std::is_convertible_v<U*, T*>
  Global(const Global<U>& o) : data_(o.data_), array_(o.array_), base_(o.base_), count_(o.count_), offset_(o.offset_) {}

  GlobalRef<T> operator[](Index i) const {
    return GlobalRef<T>(data_, array_, base_, offset_ + i.value, count_, i.loc);
  }
  GlobalRef<T> operator*() const { return (*this)[Index(0)]; }
  Global operator+(int64_t k) const { Global g = *this; g.offset_ += k; return g; }
  Global operator-(int64_t k) const { Global g = *this; g.offset_ -= k; return g; }
  Global& operator+=(int64_t k) { offset_ += k; return *this; }
  int array() const { return array_; }
  uint64_t address() const { return base_ + uint64_t(offset_) * sizeof(T); }

 private:
  template <class> friend class Global;
  template <class> friend class GlobalRef;
  template <class U, class V> friend Global<U> global_cast(const Global<V>&);
  T* data_ = nullptr;
  int array_ = -1;
  uint64_t base_ = 0;
  uint64_t count_ = 0;
  int64_t offset_ = 0;
};

template <class T>
Global<T> GlobalRef<T>::operator&() const { return Global<T>(data_, array_, base_, count_, index_); }

// reinterpret_cast<U*>(p) in CUDA: the same bytes seen as another element type.
template <class U, class V>
Global<U> global_cast(const Global<V>& p) {
  static_assert(std::is_const_v<U> || !std::is_const_v<V>,
                "global_cast cannot cast away const: the data behind a Global<const T> is read-only "
                "(nvcc refuses reinterpret_cast<float*> of a const float* the same way); cast to "
                "Global<const U> to read it");
  uint64_t bytes = p.count_ * sizeof(V);
  uint64_t off_bytes = uint64_t(p.offset_) * sizeof(V);
  // An offset that is not a whole number of U's keeps its byte position: the misalignment
  // check on access reports it, as the GPU would fault.
  Global<U> g(reinterpret_cast<U*>(const_cast<std::remove_const_t<V>*>(p.data_)), p.array_,
              p.base_ + (off_bytes % sizeof(U)), bytes / sizeof(U), int64_t(off_bytes / sizeof(U)));
  return g;
}

// ---- shared memory ----------------------------------------------------------------------
template <class Arr> class Shared;

// One element of a shared array. kVolatile: reached through Shared<volatile T*>.
template <class E, bool kVolatile = false>
class SharedRef {
 public:
  using Value = E;
  SharedRef(E* data, uint64_t* shadow, ::ws::sim::detail::SharedSlot* slot, uint64_t index,
            uint64_t count, std::source_location loc)
      : data_(data), shadow_(shadow), slot_(slot), index_(index), count_(count), loc_(loc) {}
  // As GlobalRef's: `c ? s[i] : 0` with a floating-point `s` does not compile (CUDA: float).
  template <std::integral I> requires(!std::integral<E>) SharedRef(I) = delete;
  operator E() const {
    E v{};
    if (Access(Op::Load)) v = data_[index_];
    return v;
  }
  const SharedRef& operator=(const E& v) const {
    if (Access(Op::Store)) data_[index_] = v;
    return *this;
  }
  const SharedRef& operator=(const SharedRef& o) const { return *this = E(o); }
#define WS_COMPOUND(OP)                                 \
  template <class U>                                    \
  const SharedRef& operator OP##=(const U& u) const {   \
    E v = E(*this);                                     \
    v OP## = u;                                         \
    return *this = v;                                   \
  }
  WS_COMPOUND(+) WS_COMPOUND(-) WS_COMPOUND(*) WS_COMPOUND(/) WS_COMPOUND(%)
  WS_COMPOUND(&) WS_COMPOUND(|) WS_COMPOUND(^) WS_COMPOUND(<<) WS_COMPOUND(>>)
#undef WS_COMPOUND
  const SharedRef& operator++() const { return *this += 1; }
  const SharedRef& operator--() const { return *this -= 1; }
  E operator++(int) const { E v = *this; *this = E(v + 1); return v; }
  E operator--(int) const { E v = *this; *this = E(v - 1); return v; }
  // &s[i] is a pointer into the shared array (for atomics, or to pass on), as in CUDA.
  Shared<std::conditional_t<kVolatile, volatile E, E>*> operator&() const;

  // An atomic read-modify-write (ATOMS): the element becomes update(old); returns old.
  template <class F>
  E Update(F update, ::ws::sim::AtomicAdd add = ::ws::sim::AtomicAdd::No) const {
    E old{};
    if (Access(Op::Atomic, add)) {
      old = data_[index_];
      data_[index_] = update(old);
    }
    return old;
  }

 private:
  bool Access(Op op, ::ws::sim::AtomicAdd add = ::ws::sim::AtomicAdd::No) const {
    return ::ws::sim::detail::SharedAccess(*t_current, *slot_, loc_, index_, count_, sizeof(E),
                                           Pieces<E>::width, Pieces<E>::count, op, shadow_,
                                           kVolatile, add);
  }
  E* data_;
  uint64_t* shadow_;
  ::ws::sim::detail::SharedSlot* slot_;
  uint64_t index_, count_;
  std::source_location loc_;
};

template <class Sub, class E>
class SharedView {
  static constexpr uint64_t kStride = sizeof(std::remove_extent_t<Sub>) / sizeof(E);
 public:
  SharedView(E* data, uint64_t* shadow, ::ws::sim::detail::SharedSlot* slot, uint64_t offset,
             uint64_t count, const char* type)
      : data_(data), shadow_(shadow), slot_(slot), offset_(offset), count_(count), type_(type) {}
  auto operator[](Index i) const {
    uint64_t off = offset_ + uint64_t(i.value) * kStride;
    if constexpr (std::rank_v<Sub> == 1) {
      if (slot_->generation != ::ws::sim::detail::Generation(*t_current))
        ::ws::sim::detail::RegisterShared(*t_current, *slot_, i.loc, sizeof(E), count_, type_);
      return SharedRef<E>(data_, shadow_, slot_, off, count_, i.loc);
    } else {
      return SharedView<std::remove_extent_t<Sub>, E>(data_, shadow_, slot_, off, count_, type_);
    }
  }
 private:
  E* data_;
  uint64_t* shadow_;
  ::ws::sim::detail::SharedSlot* slot_;
  uint64_t offset_, count_;
  const char* type_;
};

template <class E> constexpr const char* TypeName() {
  if constexpr (std::is_same_v<E, float>) return "float";
  else if constexpr (std::is_same_v<E, int>) return "int";
  else if constexpr (std::is_same_v<E, unsigned>) return "unsigned";
  else if constexpr (std::is_same_v<E, unsigned long long>) return "unsigned long long";
  else if constexpr (std::is_same_v<E, long long>) return "long long";
  else if constexpr (std::is_same_v<E, float2>) return "float2";
  else if constexpr (std::is_same_v<E, int2>) return "int2";
  else if constexpr (std::is_same_v<E, int4>) return "int4";
  else if constexpr (std::is_same_v<E, float4>) return "float4";
  else if constexpr (std::is_same_v<E, float2>) return "float2";
  else if constexpr (std::is_same_v<E, int2>) return "int2";
  else if constexpr (std::is_same_v<E, int4>) return "int4";
  else if constexpr (std::is_same_v<E, uint2>) return "uint2";
  else if constexpr (std::is_same_v<E, uint4>) return "uint4";
  else if constexpr (std::is_same_v<E, double2>) return "double2";
  else if constexpr (std::is_same_v<E, double>) return "double";
  else return "struct";
}

// A shared array, declared `__shared__ Shared<float[32][33]> tile;` (CUDA: float tile[32][33]).
// Zero-initialised static storage: no constructor runs, so thread_local access stays cheap.
template <class Arr>
class Shared {
  static_assert(std::is_array_v<Arr>,
                "Shared<T> takes an array type, e.g. Shared<float[32][33]>, or a pointer type, "
                "e.g. Shared<volatile float*> v = sdata;");
  using E = std::remove_all_extents_t<Arr>;
  static constexpr uint64_t kCount = sizeof(Arr) / sizeof(E);
 public:
  auto operator[](Index i) {
    return SharedView<Arr, E>(data_, shadow_, &slot_, 0, kCount, TypeName<E>())[i];
  }
 private:
  template <class> friend class Shared;
  E data_[kCount];
  uint64_t shadow_[kCount];
  ::ws::sim::detail::SharedSlot slot_;
};

// The block's dynamic shared memory, `extern __shared__ Shared<float[]> s;` (CUDA: extern
// __shared__ float s[];), as many elements as the launch's dynamic shared bytes hold. Every
// extern array of a kernel starts at the same address, as in CUDA.
template <class E>
class Shared<E[]> {
 public:
  SharedRef<E> operator[](Index i) {
    const auto area = Area(i.loc);
    return SharedRef<E>(reinterpret_cast<E*>(area.data), area.shadow, &slot_, uint64_t(i.value),
                        area.bytes / sizeof(E), i.loc);
  }
 private:
  template <class> friend class Shared;
  ::ws::sim::detail::DynamicSharedArea Area(std::source_location loc) {
    if (slot_.generation != ::ws::sim::detail::Generation(*t_current))
      ::ws::sim::detail::RegisterDynamicShared(*t_current, slot_, loc, sizeof(E), TypeName<E>());
    return ::ws::sim::detail::DynamicShared(*t_current);
  }
  ::ws::sim::detail::SharedSlot slot_;
};

// A pointer into a one-dimensional shared array: `Shared<volatile float*> vs = sdata;` is CUDA's
// `volatile float* vs = sdata;` (the warp-synchronous reduction's pointer); `Shared<float*>`
// is a plain one. Every access through a volatile one is recorded as volatile, which the race
// check uses (see sim/race_check.h).
template <class T>
class Shared<T*> {
  using E = std::remove_cv_t<T>;
 public:
  template <class Arr> requires std::is_bounded_array_v<Arr>
  Shared(Shared<Arr>& a) : data_(a.data_), shadow_(a.shadow_), slot_(&a.slot_), count_(Shared<Arr>::kCount),
                           type_(TypeName<E>()) {
    static_assert(std::rank_v<Arr> == 1 && std::is_same_v<std::remove_extent_t<Arr>, E>,
                  "a shared pointer points into a one-dimensional shared array of its element "
                  "type (CUDA: float* p = sdata; for __shared__ float sdata[N])");
  }
  Shared(Shared<E[]>& a, std::source_location loc = std::source_location::current()) : slot_(&a.slot_) {
    const auto area = a.Area(loc);
    data_ = reinterpret_cast<E*>(area.data);
    shadow_ = area.shadow;
    count_ = area.bytes / sizeof(E);
    type_ = TypeName<E>();
  }
  template <class U> requires std::is_convertible_v<U*, T*>
  Shared(const Shared<U*>& o)
      : data_(o.data_), shadow_(o.shadow_), slot_(o.slot_), count_(o.count_), type_(o.type_),
        offset_(o.offset_) {}
  SharedRef<E, std::is_volatile_v<T>> operator[](Index i) const {
    if (slot_->generation != ::ws::sim::detail::Generation(*t_current))
      ::ws::sim::detail::RegisterShared(*t_current, *slot_, i.loc, sizeof(E), count_, type_);
    return SharedRef<E, std::is_volatile_v<T>>(data_, shadow_, slot_, uint64_t(offset_ + i.value),
                                               count_, i.loc);
  }
  auto operator*() const { return (*this)[Index(0)]; }
  Shared operator+(int64_t k) const { Shared p = *this; p.offset_ += k; return p; }
  Shared operator-(int64_t k) const { Shared p = *this; p.offset_ -= k; return p; }

 private:
  template <class> friend class Shared;
  template <class, bool> friend class SharedRef;
  Shared(E* data, uint64_t* shadow, ::ws::sim::detail::SharedSlot* slot, uint64_t count, int64_t offset)
      : data_(data), shadow_(shadow), slot_(slot), count_(count), type_(TypeName<E>()), offset_(offset) {}
  E* data_;
  uint64_t* shadow_;
  ::ws::sim::detail::SharedSlot* slot_;
  uint64_t count_;
  const char* type_;
  int64_t offset_ = 0;
};

template <class E, bool kVolatile>
Shared<std::conditional_t<kVolatile, volatile E, E>*> SharedRef<E, kVolatile>::operator&() const {
  return {data_, shadow_, slot_, count_, int64_t(index_)};
}

// ---- atomics ----------------------------------------------------------------------------
// CUDA's atomic functions on a Global<T> (`&a[i]`, `a + i`) or a shared pointer (`&s[i]`), for
// the element types CUDA has them for (CUDA C++ Programming Guide, "Atomic Functions"). The value
// arguments take the pointee's type, so `atomicAdd(&h[x], 1)` converts 1 as nvcc does. Each
// returns the old value. On global memory a call whose result is never used is recorded as a
// reduction (RED) and one whose result is used as ATOM, as nvcc emits them; on shared memory
// every call is an ATOMS.
template <class P> struct AtomicTarget;
template <class T> struct AtomicTarget<Global<T>> { using type = T; };
template <class T> struct AtomicTarget<Shared<T*>> { using type = T; };
template <class P> using Pointee = typename AtomicTarget<P>::type;
template <class T, class... U> concept OneOf = (std::is_same_v<T, U> || ...);

// The result: tells the engine whether the old value was used (ATOM) or not (RED).
template <class T>
struct AtomicResult {
  T old;
  operator T() const { ::ws::sim::detail::MarkAtomicUsed(*t_current); return old; }
};

// `add`: an atomicAdd, which the memory rules count differently (nvcc aggregates integer ones
// and loops on a compare-and-swap for floating ones on shared memory; see sim/rules.h).
template <class T, class F>
AtomicResult<T> AtomicUpdate(Global<T> p, std::source_location loc, F update,
                             ::ws::sim::AtomicAdd add = ::ws::sim::AtomicAdd::No) {
  auto r = p[Index(int64_t(0), loc)];
  T old{};
  if (r.Check()) {
    r.Record(Op::Reduction, add);
    std::memcpy(&old, r.Data(), sizeof(T));
    const T now = update(old);
    std::memcpy(r.Data(), &now, sizeof(T));
  }
  return {old};
}
template <class T, class F>
AtomicResult<T> AtomicUpdate(Shared<T*> p, std::source_location loc, F update,
                             ::ws::sim::AtomicAdd add = ::ws::sim::AtomicAdd::No) {
  return {p[Index(int64_t(0), loc)].Update(update, add)};
}
template <class T>
constexpr ::ws::sim::AtomicAdd AddOf(bool is_add) {
  return !is_add ? ::ws::sim::AtomicAdd::No
                 : std::is_integral_v<T> ? ::ws::sim::AtomicAdd::Integer : ::ws::sim::AtomicAdd::Float;
}

#define WS_ATOMIC(NAME, TYPES, NEW)                                                        \
  template <class P> requires OneOf<Pointee<P>, WS_UNPAREN TYPES>                          \
  AtomicResult<Pointee<P>> NAME(P p, std::type_identity_t<Pointee<P>> val,                 \
                                std::source_location loc = std::source_location::current()) { \
    using T = Pointee<P>;                                                                  \
    return AtomicUpdate(p, loc, [val](T old) -> T { return NEW; },                         \
                        AddOf<T>(std::string_view(#NAME) == "atomicAdd"));                 \
  }
#define WS_UNPAREN(...) __VA_ARGS__
WS_ATOMIC(atomicAdd, (int, unsigned, unsigned long long, float, double), T(old + val))
WS_ATOMIC(atomicSub, (int, unsigned), T(old - val))
WS_ATOMIC(atomicExch, (int, unsigned, unsigned long long, float), val)
WS_ATOMIC(atomicMin, (int, unsigned, unsigned long long, long long), old < val ? old : val)
WS_ATOMIC(atomicMax, (int, unsigned, unsigned long long, long long), old > val ? old : val)
WS_ATOMIC(atomicAnd, (int, unsigned, unsigned long long, long long), T(old & val))
WS_ATOMIC(atomicOr, (int, unsigned, unsigned long long, long long), T(old | val))
WS_ATOMIC(atomicXor, (int, unsigned, unsigned long long, long long), T(old ^ val))
// ((old >= val) ? 0 : (old + 1)) and (((old == 0) || (old > val)) ? val : (old - 1)).
WS_ATOMIC(atomicInc, (unsigned), old >= val ? 0u : old + 1)
WS_ATOMIC(atomicDec, (unsigned), (old == 0 || old > val) ? val : old - 1)
#undef WS_ATOMIC
#undef WS_UNPAREN

template <class P> requires OneOf<Pointee<P>, int, unsigned, unsigned long long, unsigned short>
AtomicResult<Pointee<P>> atomicCAS(P p, std::type_identity_t<Pointee<P>> compare,
                                   std::type_identity_t<Pointee<P>> val,
                                   std::source_location loc = std::source_location::current()) {
  using T = Pointee<P>;
  return AtomicUpdate(p, loc, [compare, val](T old) -> T { return old == compare ? val : old; });
}

// __ldg(p): a read through the read-only data path; counted as any global load.
template <class T>
std::remove_cv_t<T> __ldg(Global<T> p, std::source_location loc = std::source_location::current()) {
  return p[Index(int64_t(0), loc)];
}

// ---- synchronisation and warp-level operations ------------------------------------------
inline void __syncthreads(std::source_location loc = std::source_location::current()) {
  ::ws::sim::detail::SyncThreads(*t_current, loc);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, std::source_location loc = std::source_location::current()) {
  ::ws::sim::detail::SyncWarp(*t_current, mask, loc);
}

template <class T>
T ShuffleT(unsigned mask, T v, ::ws::sim::detail::WarpOp op, int arg, int width, std::source_location loc) {
  static_assert(sizeof(T) <= 8, "shuffle moves at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  bits = ::ws::sim::detail::Shuffle(*t_current, mask, bits, op, arg, width, loc);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}
template <class T>
T __shfl_sync(unsigned mask, T v, int src, int width = 32, std::source_location loc = std::source_location::current()) {
  return ShuffleT(mask, v, ::ws::sim::detail::WarpOp::ShflIdx, src, width, loc);
}
template <class T>
T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32, std::source_location loc = std::source_location::current()) {
  return ShuffleT(mask, v, ::ws::sim::detail::WarpOp::ShflUp, int(d), width, loc);
}
template <class T>
T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32, std::source_location loc = std::source_location::current()) {
  return ShuffleT(mask, v, ::ws::sim::detail::WarpOp::ShflDown, int(d), width, loc);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T v, int m, int width = 32, std::source_location loc = std::source_location::current()) {
  return ShuffleT(mask, v, ::ws::sim::detail::WarpOp::ShflXor, m, width, loc);
}
inline int __all_sync(unsigned mask, int p, std::source_location loc = std::source_location::current()) {
  return int(::ws::sim::detail::Vote(*t_current, mask, p != 0, ::ws::sim::detail::WarpOp::VoteAll, loc));
}
inline int __any_sync(unsigned mask, int p, std::source_location loc = std::source_location::current()) {
  return int(::ws::sim::detail::Vote(*t_current, mask, p != 0, ::ws::sim::detail::WarpOp::VoteAny, loc));
}
inline unsigned __ballot_sync(unsigned mask, int p, std::source_location loc = std::source_location::current()) {
  return ::ws::sim::detail::Vote(*t_current, mask, p != 0, ::ws::sim::detail::WarpOp::Ballot, loc);
}
// The lanes of the warp that execute this call together (no synchronisation, no ordering).
inline unsigned __activemask(std::source_location loc = std::source_location::current()) {
  return ::ws::sim::detail::Vote(*t_current, 0, true, ::ws::sim::detail::WarpOp::ActiveMask, loc);
}

// ---- integer intrinsics (CUDA Math API, "Integer Intrinsics") ---------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }  // 1 + the lowest set bit, 0 for 0
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}

}  // namespace ws::dialect
