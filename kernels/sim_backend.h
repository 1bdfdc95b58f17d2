// Runs a family's launches in the simulator: arrays live in host memory and are bound to the
// engine, which records every access of the launch.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/dialect.h"
#include "sim/engine.h"

namespace ws::kernels {

class SimBackend {
 public:
  explicit SimBackend(sim::Engine& engine) : engine_(engine) {}

  template <class T>
  dialect::Global<T> Upload(std::string name, std::string type,
                            const std::vector<std::remove_const_t<T>>& host, uint64_t rows,
                            uint64_t cols) {
    auto& bytes = Store(host.size() * sizeof(T));
    std::memcpy(bytes.data(), host.data(), bytes.size());
    return Bind<T>(std::move(name), std::move(type), bytes, host.size(), rows, cols);
  }

  // A fresh output array, filled with 0xff bytes (a NaN for floats) so that an element the
  // kernel never writes cannot pass the check.
  template <class T>
  dialect::Global<T> Alloc(std::string name, std::string type, uint64_t count, uint64_t rows,
                           uint64_t cols) {
    auto& bytes = Store(count * sizeof(T));
    std::memset(bytes.data(), 0xff, bytes.size());
    return Bind<T>(std::move(name), std::move(type), bytes, count, rows, cols);
  }

  template <class T>
  void Fill(dialect::Global<T> p, const std::vector<std::remove_const_t<T>>& host) {
    std::memcpy(BytesOf(p.array()).data(), host.data(), host.size() * sizeof(T));
  }

  template <class K, class... A> requires(!std::is_integral_v<K>)
  void Launch(dialect::dim3 grid, dialect::dim3 block, K kernel, A... args) {
    Launch(grid, block, size_t(0), kernel, args...);
  }
  // With `shared_bytes` of dynamic shared memory (kernel<<<grid, block, shared_bytes>>>).
  template <class K, class... A>
  void Launch(dialect::dim3 grid, dialect::dim3 block, size_t shared_bytes, K kernel, A... args) {
    engine_.Run({{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, uint32_t(std::min<size_t>(shared_bytes, UINT32_MAX))},
                [=] { kernel(args...); }, ConstArrays(kernel, args...));
  }

  // The arrays a kernel function takes only as Global<const T> parameters (none passed to it as a
  // Global<T> too), which its blocks cannot store to; none for a kernel that is not a function.
  template <class K, class... A>
  static std::vector<int> ConstArrays(K, const A&...) { return {}; }
  template <class... P, class... A> requires(sizeof...(P) == sizeof...(A))
  static std::vector<int> ConstArrays(void (*)(P...), const A&... args) {
    std::vector<int> taken_const, writable;
    (Classify<std::remove_cvref_t<P>>(args, taken_const, writable), ...);
    std::sort(taken_const.begin(), taken_const.end());
    taken_const.erase(std::unique(taken_const.begin(), taken_const.end()), taken_const.end());
    std::erase_if(taken_const, [&](int id) { return std::find(writable.begin(), writable.end(), id) != writable.end(); });
    return taken_const;
  }

  // Whether a reference computed on the CPU may run on a thread beside the launch (RunVariant):
  // where the launch runs on several threads, and so is not measured on one.
  bool ReferenceBeside() const { return engine_.threads() > 1; }

  template <class T>
  std::vector<std::remove_const_t<T>> Download(dialect::Global<T> p) {
    const auto& bytes = BytesOf(p.array());
    std::vector<std::remove_const_t<T>> v(bytes.size() / sizeof(T));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
  }

 private:
  template <class T> struct GlobalParam : std::false_type {};
  template <class T> struct GlobalParam<dialect::Global<T>> : std::true_type {
    static constexpr bool kConst = std::is_const_v<T>;
  };
  // An argument passed as parameter P: an array taken const, or writable.
  template <class P, class A>
  static void Classify(const A& arg, std::vector<int>& taken_const, std::vector<int>& writable) {
    if constexpr (GlobalParam<A>::value) {
      if constexpr (GlobalParam<P>::value && GlobalParam<P>::kConst) taken_const.push_back(arg.array());
      else writable.push_back(arg.array());
    }
  }
  std::vector<unsigned char>& Store(size_t n) { return storage_.emplace_back(n); }
  template <class T>
  dialect::Global<T> Bind(std::string name, std::string type, std::vector<unsigned char>& bytes,
                          uint64_t count, uint64_t rows, uint64_t cols) {
    int id = engine_.BindGlobal(std::move(name), std::move(type), sizeof(T), count, rows, cols, bytes.data());
    if (by_id_.size() <= size_t(id)) by_id_.resize(size_t(id) + 1, nullptr);
    by_id_[size_t(id)] = &bytes;
    return dialect::Global<T>(reinterpret_cast<T*>(bytes.data()), id, engine_.Array(id).base, count);
  }
  // An array's bytes by its id. Ids are the engine's, which numbers shared arrays too (a launch
  // registers them), so a global bound after such a launch has an id past its place here.
  std::vector<unsigned char>& BytesOf(int id) { return *by_id_.at(size_t(id)); }
  sim::Engine& engine_;
  std::deque<std::vector<unsigned char>> storage_;     // in the order they were made
  std::vector<std::vector<unsigned char>*> by_id_;     // by array id: into storage_, or null
};

}  // namespace ws::kernels
