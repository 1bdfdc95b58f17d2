// The kernel dialect, simulator side (sim/dialect.h): global memory. Global<T>, the element
// proxy that records each read and write, and global_cast (CUDA's reinterpret_cast).
#pragma once
#include "sim/dialect_builtins.h"

namespace ws::dialect {

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

}  // namespace ws::dialect
