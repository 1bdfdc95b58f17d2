// The kernel dialect, simulator side (sim/dialect.h): shared memory. Shared<T[..]> arrays
// (static and extern), their element proxy, and pointers into them (plain and volatile).
#pragma once
#include "sim/dialect_global.h"

namespace ws::dialect {

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
        ::ws::sim::detail::RegisterShared(*t_current, *slot_, i.loc, sizeof(E), count_, type_, data_);
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
      ::ws::sim::detail::RegisterShared(*t_current, *slot_, i.loc, sizeof(E), count_, type_, data_);
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

}  // namespace ws::dialect
