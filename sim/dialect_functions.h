// The kernel dialect, simulator side (sim/dialect.h): CUDA's device functions. Atomics, __ldg,
// barriers, warp-level operations (shuffles, votes) and integer intrinsics.
#pragma once
#include "sim/dialect_shared.h"

namespace ws::dialect {

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
