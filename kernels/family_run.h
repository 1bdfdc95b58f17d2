// The run routine every catalog family shares: RunVariant checks the block, uploads the inputs,
// allocates the output, launches the kernel, and compares the output with the CPU reference. A
// family's family.inl states only what is its own: the block and why, the grid, the inputs, the
// reference, and the kernel's arguments in the kernel's order. kernels/transpose/family.inl:
//
//   const auto host = RandomFloats(size_t(n) * n, r.seed);
//   const dim3 grid(CeilDiv(n, tile_dim), CeilDiv(n, tile_dim));
//   return RunVariant(b, r, {block_x, block_y, why}, grid, kernel, Input("in", host, n, n),
//                     Output<float>("out", n, n, [&] { return Reference(host, n, copy); }), n, n);
//
// An argument is one of:
//   Input(name, host, rows, cols)           an array the kernel reads, holding `host`
//   Output<T>(name, rows, cols, want)       the array the kernel writes (0xff bytes before the
//                                           launch: NaN for floats), compared with `want`
//   InPlace(name, host, rows, cols, want)   an array the kernel reads and writes, compared with `want`
//   As<U>(array)                            one of the above as the kernel takes it (global_cast<U>)
//   anything else                           passed to the kernel as it is (n, a size)
// `want` is the CPU reference, or a function that computes it (called after the launch, or beside
// it where the launch runs on several threads: StartReference). A run
// compares exactly one array. rows x cols is how the views draw an array (1 x n: a 1-D array,
// wrapped at 128-byte lines); the element's name in the views is the C++ type's for float, int,
// unsigned and double, else the last argument of Input or Output names it ("RayState").
// Arrays are made in the order the views list them: the inputs (Input, InPlace) as the kernel's
// arguments name them, then the output, then any Input marked AfterOutput().
#pragma once
#include <cstdint>
#include <future>
#include <string>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "kernels/common.h"
#include "kernels/dialect.h"

namespace ws::kernels {

// The block a variant's kernel is written for; a request for another is refused, saying `why`.
struct BlockRule {
  unsigned x = 1, y = 1;
  std::string why;
};

// The element type's name the views show, for the types that need none given.
template <class V>
constexpr const char* ElementName() {
  if constexpr (std::is_same_v<V, float>) return "float";
  else if constexpr (std::is_same_v<V, int>) return "int";
  else if constexpr (std::is_same_v<V, unsigned>) return "unsigned";
  else if constexpr (std::is_same_v<V, double>) return "double";
  else static_assert(!sizeof(V), "name the element type: Input(name, host, rows, cols, \"MyStruct\")");
}

template <class T>
struct InputArray {
  using Value = std::remove_const_t<T>;
  const char* name;
  const std::vector<Value>& host;
  uint64_t rows, cols;
  const char* type;
  bool after_output = false;
  // Made after the output, where a lesson has always listed it there.
  InputArray AfterOutput() const {
    InputArray a = *this;
    a.after_output = true;
    return a;
  }
};

template <class T, class Want>
struct OutputArray {
  using Value = std::remove_const_t<T>;
  const char* name;
  uint64_t rows, cols;
  Want want;
  double rel_tol;
  const char* type;
  uint64_t compared_cols = 0;  // 0: all of them
  // Compares the first `c` columns of each row only (the rest pads the rows for alignment).
  OutputArray ComparingColumns(uint64_t c) && {
    compared_cols = c;
    return std::move(*this);
  }
};

template <class T, class Want>
struct InPlaceArray {
  using Value = T;
  const char* name;
  const std::vector<T>& host;
  uint64_t rows, cols;
  Want want;
  double rel_tol;
  const char* type;
};

template <class U, class A>
struct CastArray {
  A array;
};

template <class V>
InputArray<const V> Input(const char* name, const std::vector<V>& host, uint64_t rows, uint64_t cols,
                          const char* type = ElementName<V>()) {
  return {name, host, rows, cols, type};
}

// rel_tol: the relative error allowed (Compare in kernels/common.h); 0: exact.
template <class T, class Want>
OutputArray<T, Want> Output(const char* name, uint64_t rows, uint64_t cols, Want want, double rel_tol = 0,
                            const char* type = ElementName<T>()) {
  return {name, rows, cols, std::move(want), rel_tol, type};
}

template <class T, class Want>
InPlaceArray<T, Want> InPlace(const char* name, const std::vector<T>& host, uint64_t rows, uint64_t cols, Want want,
                              double rel_tol = 0, const char* type = ElementName<T>()) {
  return {name, host, rows, cols, std::move(want), rel_tol, type};
}

template <class U, class A>
CastArray<U, A> As(A array) {
  return {std::move(array)};
}

namespace family_run {

// What RunVariant does with each kind of argument: Handle is what it keeps (the array on the back
// end; nothing for a value passed as it is), Element the array's element type.
template <class A> struct Role {
  using Handle = std::monostate;
  static constexpr bool kArray = false, kCompared = false;
};
template <class T> struct Role<InputArray<T>> {
  using Element = T;
  using Handle = dialect::Global<T>;
  static constexpr bool kArray = true, kInput = true, kCompared = false;
};
template <class T, class W> struct Role<OutputArray<T, W>> {
  using Element = T;
  using Handle = dialect::Global<T>;
  static constexpr bool kArray = true, kInput = false, kCompared = true;
};
template <class T, class W> struct Role<InPlaceArray<T, W>> {
  using Element = T;
  using Handle = dialect::Global<T>;
  static constexpr bool kArray = true, kInput = true, kCompared = true;
};
template <class U, class A> struct Role<CastArray<U, A>> : Role<A> {};

template <class A> const A& Array(const A& a) { return a; }
template <class U, class A> const auto& Array(const CastArray<U, A>& c) { return Array(c.array); }

// Makes one array in its pass: 0 the inputs, 1 the output, 2 the inputs made after it.
template <class Backend, class A>
void Make(Backend& b, int pass, const A& arg, typename Role<A>::Handle& handle) {
  if constexpr (Role<A>::kArray) {
    const auto& a = Array(arg);
    using T = typename Role<A>::Element;
    if constexpr (Role<A>::kInput) {
      bool late = false;
      if constexpr (requires { a.after_output; }) late = a.after_output;
      if (pass == (late ? 2 : 0)) handle = b.template Upload<T>(a.name, a.type, a.host, a.rows, a.cols);
    } else if (pass == 1) {
      handle = b.template Alloc<T>(a.name, a.type, a.rows * a.cols, a.rows, a.cols);
    }
  }
}

// What the kernel receives for one argument.
template <class A, class H>
decltype(auto) Pass(const A& arg, const H& handle) {
  if constexpr (Role<A>::kArray) return handle;
  else return (arg);
}
template <class U, class A, class H>
auto Pass(const CastArray<U, A>&, const H& handle) {
  if constexpr (std::is_same_v<U, typename Role<A>::Element>) return handle;
  else return dialect::global_cast<U>(handle);
}

// The compared array's reference, where it is a function and the back end runs the launch on
// several threads (ReferenceBeside): started on a thread of its own before the launch, so that
// it fills the launch's idle moments instead of following it. Otherwise (and for the other
// arguments) nothing: CompareOutput computes it after the launch, as it does where no thread
// could be started.
template <class Backend, class A>
auto StartReference(Backend& b, const A& arg) {
  if constexpr (Role<A>::kCompared) {
    const auto& a = Array(arg);
    if constexpr (std::is_invocable_v<decltype(a.want)>) {
      std::future<std::invoke_result_t<decltype(a.want)>> early;
      if (b.ReferenceBeside()) {
        try {
          early = std::async(std::launch::async, [&a] { return a.want(); });
        } catch (const std::system_error&) {
        }
      }
      return early;
    } else {
      return std::monostate{};
    }
  } else {
    return std::monostate{};
  }
}

// Downloads the compared array and compares it with its reference (nothing for other arguments).
// `early`: StartReference's.
template <class Backend, class A, class H, class E>
void CompareOutput(Backend& b, const A& arg, const H& handle, E& early, Check* check) {
  if constexpr (Role<A>::kCompared) {
    const auto& a = Array(arg);
    auto got = b.Download(handle);
    if constexpr (requires { a.compared_cols; })
      if (a.compared_cols != 0 && a.compared_cols != a.cols) {
        decltype(got) kept(size_t(a.rows * a.compared_cols));
        for (uint64_t i = 0; i < a.rows; ++i)
          for (uint64_t j = 0; j < a.compared_cols; ++j) kept[i * a.compared_cols + j] = got[i * a.cols + j];
        got = std::move(kept);
      }
    if constexpr (std::is_invocable_v<decltype(a.want)>) *check = Compare(got, early.valid() ? early.get() : a.want(), a.rel_tol);
    else *check = Compare(got, a.want, a.rel_tol);
  }
}

}  // namespace family_run

// Runs kernel<<<grid, block.x x block.y>>>(args...) as the comment at the top of this file says,
// and returns how its output compared with the reference.
template <class Backend, class Grid, class Kernel, class... Args>
Check RunVariant(Backend& b, const RunRequest& r, const BlockRule& block, const Grid& grid, Kernel kernel,
                 const Args&... args) {
  static_assert((int(family_run::Role<Args>::kCompared) + ... + 0) == 1,
                "RunVariant compares one array: give exactly one Output or InPlace");
  RequireBlock(r.block, block.x, block.y, block.why);
  std::tuple<typename family_run::Role<Args>::Handle...> handles;
  for (int pass = 0; pass < 3; ++pass)
    [&]<size_t... I>(std::index_sequence<I...>) {
      (family_run::Make(b, pass, args, std::get<I>(handles)), ...);
    }(std::index_sequence_for<Args...>{});
  const Grid threads(block.x, block.y);
  auto early = std::make_tuple(family_run::StartReference(b, args)...);
  [&]<size_t... I>(std::index_sequence<I...>) {
    b.Launch(grid, threads, kernel, family_run::Pass(args, std::get<I>(handles))...);
  }(std::index_sequence_for<Args...>{});
  Check check;
  [&]<size_t... I>(std::index_sequence<I...>) {
    (family_run::CompareOutput(b, args, std::get<I>(handles), std::get<I>(early), &check), ...);
  }(std::index_sequence_for<Args...>{});
  return check;
}

}  // namespace ws::kernels
