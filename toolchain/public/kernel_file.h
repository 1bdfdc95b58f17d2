// How a kernel file declares itself: WS_KERNEL(name, fields...) { body } says what the kernel is,
// which arrays it needs and how it is launched (and, optionally, what the CPU says it must give).
// `warpscope open` compiles a file with this header in front; `warpscope new` writes an example;
// `warpscope bench` builds it for the GPU with toolchain/public/gpu_main.h in front instead.
//
//   WS_KERNEL(scale, .title = "Scale by two", .teaching_n = 1000, .max_n = 1 << 24) {
//     auto in = k.Input<const float>("in", k.n);       // random floats in [0.25, 4), never zero
//     auto out = k.Output<float>("out", k.n);
//     k.Launch(dim3((k.n + 255) / 256), dim3(256), scale_twice, out, in, k.n);
//     std::vector<float> want(k.n);                     // the CPU reference (optional)
//     for (int i = 0; i < k.n; ++i) want[i] = 2 * k.Host(in)[i];
//     k.Expect(out, want);
//   }
//
// The body is C++ run on the host with `k` (a KernelSetup) in scope. Fields (in this order, each optional but .title): see KernelInfo below.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/common.h"
#include "kernels/dialect.h"
#ifndef __CUDACC__
#include "kernels/sim_backend.h"
#endif

#if defined(WS_USER_FILE) && !defined(__CUDACC__)
extern "C" void warpscope_launch_boundary(int starting);  // the runner's: a launch starts (1) or ends (0)
#endif

namespace ws::kernels {

// What WS_KERNEL's fields say, in declaration order (C++ designated initialisers keep it).
struct KernelInfo {
  const char* title = "";         // one line, shown in the variant list
  const char* watch = "";         // what to look at in the picture
  int teaching_n = 1024;          // n for the pictures
  int timing_n = 1 << 20;         // n for GPU timings
  int max_n = 1 << 24;            // largest n the simulator accepts
  const char* size_meaning = "n elements";
  const char* family_title = "";  // the file's title (the first kernel that sets it wins)
};

// The launch being described: the size, the arrays and the launches, on one back end.
template <class B>
class KernelSetup {
 public:
  KernelSetup(B& backend, const RunRequest& request) : n(request.n), block(request.block), b_(backend) {}

  const int n;        // the size asked for (the teaching size unless the user picks another)
  const Block block;  // the block shape asked for (block.Set() false: use your own)

  // An input array of count random values: floats in [lo, hi) (default [0.25, 4)); integers in
  // [lo, hi], zero included (unsigned char in [0, 10]: every value from 0 to 10), or by default
  // signed ones in [-1000, 1000] without zero and unsigned ones over [0, 1000] clipped to the
  // type (unsigned char: every byte, 0 to 255). rows x cols makes it a matrix the views draw
  // as such (default: a 1-D array, which they draw one 128-byte line to a row).
  template <class T>
  dialect::Global<T> Input(const std::string& name, int64_t count, double lo = 0, double hi = 0,
                           int64_t rows = 1, int64_t cols = 0) {
    using V = std::remove_const_t<T>;
    std::vector<V> host(size_t(count > 0 ? count : 0));
    const uint64_t seed = seed_ + 7919 * uint64_t(hosts_.size());
    if constexpr (std::is_floating_point_v<V>) {
      const auto f = RandomFloats(host.size(), seed, lo < hi ? float(lo) : 0.25f, lo < hi ? float(hi) : 4.0f);
      for (size_t i = 0; i < host.size(); ++i) host[i] = V(f[i]);
    } else {
      static_assert(std::is_integral_v<V>, "Input<T>: T is a float, double or integer type; fill other "
                                           "types with InputFrom");
      const auto r = lo < hi ? RandomIntsIn(host.size(), seed, int(lo), int(hi))
                     : std::is_signed_v<V> ? RandomInts(host.size(), seed, -1000, 1000)
                                           : RandomIntsIn(host.size(), seed, 0, int(std::min<uint64_t>(
                                                                                    std::numeric_limits<V>::max(), 1000)));
      for (size_t i = 0; i < host.size(); ++i) host[i] = V(r[i]);
    }
    return InputFrom<T>(name, host, rows, cols);
  }

  // An input array holding exactly these values.
  template <class T>
  dialect::Global<T> InputFrom(const std::string& name, const std::vector<std::remove_const_t<T>>& host,
                               int64_t rows = 1, int64_t cols = 0) {
    Shape(name, int64_t(host.size()), rows, cols);
    auto g = b_.template Upload<T>(name, TypeName<T>(), host, uint64_t(rows), uint64_t(cols));
    hosts_[ArrayKey(g)] = std::make_shared<std::vector<std::remove_const_t<T>>>(host);
    return g;
  }

  // An output array of count elements, filled with 0xff bytes before the launch.
  template <class T>
  dialect::Global<T> Output(const std::string& name, int64_t count, int64_t rows = 1, int64_t cols = 0) {
    Shape(name, count, rows, cols);
    return b_.template Alloc<T>(name, TypeName<T>(), uint64_t(count), uint64_t(rows), uint64_t(cols));
  }

  // The values an input array was filled with (for the CPU reference).
  template <class T>
  const std::vector<std::remove_const_t<T>>& Host(dialect::Global<T> g) const {
    auto it = hosts_.find(ArrayKey(g));
    if (it == hosts_.end()) throw BadRequest("Host(): that array is not an input");
    return *static_cast<const std::vector<std::remove_const_t<T>>*>(it->second.get());
  }

  template <class K, class... A> requires(!std::is_integral_v<K>)
  void Launch(dialect::dim3 grid, dialect::dim3 block_shape, K kernel, A... args) {
    Launch(grid, block_shape, size_t(0), kernel, args...);
  }
  // With `shared_bytes` of dynamic shared memory for the kernel's extern __shared__ arrays
  // (CUDA: kernel<<<grid, block, shared_bytes>>>).
  template <class K, class... A>
  void Launch(dialect::dim3 grid, dialect::dim3 block_shape, size_t shared_bytes, K kernel, A... args) {
#if defined(WS_USER_FILE) && !defined(__CUDACC__)
    // The runner keeps what the launch prints apart and knows a kernel runs (toolchain/runner_child.cpp).
    warpscope_launch_boundary(1);
    struct End {
      ~End() { warpscope_launch_boundary(0); }
    } end;
#endif
    b_.Launch(grid, block_shape, shared_bytes, kernel, args...);
    launched_ = true;
  }

  // Compares an output with what the CPU says it must hold (exact unless tolerances are given):
  // numbers, CUDA vector types (float2, float4, int4, ...) component by component, and structs
  // with their operator== (C++20: `bool operator==(const Pair&) const = default;`).
  template <class T>
  void Expect(dialect::Global<T> out, const std::vector<std::remove_const_t<T>>& want, double rel_tol = 0,
              double abs_tol = 0) {
    using V = std::remove_const_t<T>;
    if constexpr (std::is_arithmetic_v<V>) {
      Keep(Compare(b_.Download(out), want, rel_tol, abs_tol));
    } else if constexpr (VectorComponents<V>() > 0) {
      Keep(CompareComponents(b_.Download(out), want, rel_tol, abs_tol));
    } else {
      static_assert(std::equality_comparable<V>,
                    "k.Expect on a struct compares with its operator== (C++20: bool operator==(const S&) const "
                    "= default;), or give the comparison: k.Expect(out, want, [](const S& got, const S& want) "
                    "{ ... })");
      if (rel_tol != 0 || abs_tol != 0)
        throw BadRequest("k.Expect: tolerances compare numbers and vector types; for a struct give the "
                         "comparison: k.Expect(out, want, [](const S& got, const S& want) { ... })");
      Keep(CompareWith(b_.Download(out), want, [](const V& g, const V& w) { return g == w; }));
    }
  }
  // Compares an output element by element with `same(got, want)`, true where an element is right.
  template <class T, class Same>
    requires std::is_invocable_r_v<bool, Same, const std::remove_const_t<T>&, const std::remove_const_t<T>&>
  void Expect(dialect::Global<T> out, const std::vector<std::remove_const_t<T>>& want, Same same) {
    Keep(CompareWith(b_.Download(out), want, same));
  }

  Check Result() const {
    if (!launched_) throw BadRequest("the description launches nothing: call k.Launch(grid, block, kernel, ...)");
    if (checked_) return check_;
    Check c;
    c.passed = true;
    c.detail = "no CPU reference (the description calls no k.Expect)";
    return c;
  }

  uint64_t seed_ = 1;

 private:
  // The run's check: the first comparison that failed, else the last one.
  void Keep(const Check& c) {
    if (checked_ && check_.passed && !c.passed) check_ = c;
    if (!checked_) check_ = c;
    checked_ = true;
  }
  static void Shape(const std::string& name, int64_t count, int64_t& rows, int64_t& cols) {
    if (name.empty()) throw BadRequest("an array needs a name");
    if (count <= 0) throw BadRequest("array '" + name + "' has " + std::to_string(count) + " elements");
    if (cols <= 0 && rows > 1) cols = (count + rows - 1) / rows;
    if (cols <= 0) rows = 1, cols = count;  // 1-D, as the catalog's: the views wrap it at 128-byte lines
    if (rows <= 0 || rows * cols < count)
      throw BadRequest("array '" + name + "': " + std::to_string(rows) + " x " + std::to_string(cols) +
                       " cannot hold " + std::to_string(count) + " elements");
  }
  template <class T>
  static std::string TypeName() {
    using V = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<V, float>) return "float";
    else if constexpr (std::is_same_v<V, double>) return "double";
    else if constexpr (std::is_same_v<V, int>) return "int";
    else if constexpr (std::is_same_v<V, unsigned>) return "unsigned";
    else if constexpr (std::is_same_v<V, dialect::float4>) return "float4";
    else if constexpr (std::is_same_v<V, dialect::float2>) return "float2";
    else return std::to_string(sizeof(V)) + "-byte";
  }
  // An array's identity: its id in the simulator, its device address on the GPU.
  template <class T>
  static intptr_t ArrayKey(dialect::Global<T> g) {
#ifdef __CUDACC__
    return reinterpret_cast<intptr_t>(g);
#else
    return g.array();
#endif
  }
  B& b_;
  std::map<intptr_t, std::shared_ptr<void>> hosts_;
  Check check_;
  bool checked_ = false, launched_ = false;
};

#ifndef __CUDACC__
// One WS_KERNEL of a file, as the loader reads it from the compiled library.
struct DeclaredKernel {
  const char* name;
  KernelInfo info;
  int line;  // of the WS_KERNEL, for messages
  Check (*simulate)(sim::Engine& engine, const RunRequest& request);
};

// The version of DeclaredKernel and KernelInfo a library was built with; the loader refuses others.
constexpr int kDeclaredKernelVersion = 1;

template <void (*Body)(KernelSetup<SimBackend>&)>
Check SimulateDeclared(sim::Engine& engine, const RunRequest& request) {
  SimBackend b(engine);
  KernelSetup<SimBackend> k(b, request);
  k.seed_ = request.seed;
  Body(k);
  return k.Result();
}
#endif

}  // namespace ws::kernels

#if defined(WS_USER_FILE) && !defined(__CUDACC__)
// Inside a compiled kernel file: the dialect at file scope, and the list the loader reads
// (internal to this library).
using namespace ::ws::dialect;
using ::ws::kernels::CeilDiv;
namespace {
using WsSetup = ::ws::kernels::KernelSetup<::ws::kernels::SimBackend>;
inline std::vector<::ws::kernels::DeclaredKernel>& WsDeclared() {
  static std::vector<::ws::kernels::DeclaredKernel> v;
  return v;
}
struct WsRegistrar {
  explicit WsRegistrar(const ::ws::kernels::DeclaredKernel& d) { WsDeclared().push_back(d); }
};
}  // namespace
extern "C" __attribute__((visibility("default"))) const std::vector<::ws::kernels::DeclaredKernel>*
warpscope_declared_kernels(int* version) {
  *version = ::ws::kernels::kDeclaredKernelVersion;
  return &WsDeclared();
}
#define WS_KERNEL(name, ...)                                                                        \
  static void ws_describe_##name(WsSetup& k);                                                       \
  static const WsRegistrar ws_registrar_##name({#name, ::ws::kernels::KernelInfo{__VA_ARGS__}, __LINE__, \
                                                ::ws::kernels::SimulateDeclared<ws_describe_##name>}); \
  static void ws_describe_##name([[maybe_unused]] WsSetup& k)
#endif
