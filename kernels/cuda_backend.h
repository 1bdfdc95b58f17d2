// Runs a family's launches on the GPU and times them: the nvcc counterpart of sim_backend.h,
// with the same Upload/Alloc/Fill/Launch/Download interface. Compiled by nvcc only.
//
// Timing a launch (Launch): every array the kernels may write is snapshotted just before the
// launch; each run (warm-ups and timed runs alike) first restores that snapshot, then writes a
// buffer of twice the L2 size (so no input is served from L2), then launches between two CUDA
// events. So a family may Launch several times per Run, and a kernel that accumulates (an
// atomic sum) starts every run from the same state: outputs need no re-initialising kernel.
// After the last run the arrays hold exactly one launch's result, which the family checks.
// A Run's time is the sum of its launches' times.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "kernels/cuda_session.h"
#include "kernels/dialect_cuda.h"

namespace ws::kernels {

// A CUDA call that failed; `sticky` when the context is unusable afterwards (a kernel fault).
struct CudaError : std::runtime_error {
  CudaError(const std::string& what, bool sticky_) : std::runtime_error(what), sticky(sticky_) {}
  bool sticky;
};

inline bool IsSticky(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress: case cudaErrorLaunchFailure: case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction: case cudaErrorMisalignedAddress: case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc: case cudaErrorAssert: case cudaErrorLaunchTimeout:
      return true;
    default:
      return false;
  }
}

inline void CudaCheck(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::string msg = std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  if (e == cudaErrorMemoryAllocation) msg = "out of GPU memory: " + msg;
  throw CudaError(msg, IsSticky(e));
}
#define WS_CUDA(call) ::ws::kernels::CudaCheck((call), #call)

// One Launch's runs, in milliseconds.
struct LaunchTimes {
  std::string kernel;  // grid x block, for messages
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::vector<double> ms;
};

// A device buffer freed on scope exit (errors on free are ignored: after a kernel fault the
// context is reset and the pointer is gone anyway).
struct DeviceBuffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) : bytes(n) { WS_CUDA(cudaMalloc(&ptr, n ? n : 1)); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { if (ptr) cudaFree(ptr); }
};

// "CUDA driver 13.0, runtime 13.0": the versions bench reports print beside the device.
inline std::string DriverText() {
  auto text = [](int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); };
  int drv = 0, rt = 0;
  WS_CUDA(cudaDriverGetVersion(&drv));
  WS_CUDA(cudaRuntimeGetVersion(&rt));
  return "CUDA driver " + text(drv) + ", runtime " + text(rt);
}

// The device-to-device copy bandwidth, bytes read + written per second / 1e9: cudaMemcpy of up to
// 1 GiB (a quarter of the free memory at most), median of 10 copies after 2 warm-ups. The ceiling
// of % peak for memory-bound kernels.
inline double MeasureCopyGbps(cudaStream_t stream) {
  size_t free_b = 0, total_b = 0;
  WS_CUDA(cudaMemGetInfo(&free_b, &total_b));
  const size_t bytes = std::min<size_t>(size_t(1) << 30, free_b / 4) & ~size_t(255);
  DeviceBuffer a(bytes), b(bytes);
  WS_CUDA(cudaMemset(a.ptr, 0x5a, bytes));
  cudaEvent_t e0, e1;
  WS_CUDA(cudaEventCreate(&e0));
  WS_CUDA(cudaEventCreate(&e1));
  std::vector<double> ms;
  for (int i = 0; i < 12; ++i) {
    WS_CUDA(cudaEventRecord(e0, stream));
    WS_CUDA(cudaMemcpyAsync(b.ptr, a.ptr, bytes, cudaMemcpyDeviceToDevice, stream));
    WS_CUDA(cudaEventRecord(e1, stream));
    WS_CUDA(cudaEventSynchronize(e1));
    float t = 0;
    WS_CUDA(cudaEventElapsedTime(&t, e0, e1));
    if (i >= 2) ms.push_back(t);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  std::sort(ms.begin(), ms.end());
  const double median = 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);  // 10 copies
  return 2.0 * double(bytes) / (median * 1e-3) / 1e9;
}

class CudaBackend {
 public:
  // `flush` is a device buffer of at least twice the L2 (may be null when flush_l2 is off).
  CudaBackend(TimingOptions options, DeviceBuffer* flush, cudaStream_t stream)
      : opt_(options), flush_(flush), stream_(stream) {
    WS_CUDA(cudaEventCreate(&start_));
    WS_CUDA(cudaEventCreate(&stop_));
  }
  ~CudaBackend() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;
  // The CPU reference runs after the launch: nothing runs beside the timed kernels.
  static constexpr bool ReferenceBeside() { return false; }

  template <class T>
  T* Upload(std::string name, std::string type, const std::vector<std::remove_const_t<T>>& host,
            uint64_t rows, uint64_t cols) {
    auto& a = Add(name, host.size() * sizeof(T), !std::is_const_v<T>);
    WS_CUDA(cudaMemcpy(a.mem.ptr, host.data(), a.mem.bytes, cudaMemcpyHostToDevice));
    return static_cast<T*>(a.mem.ptr);
  }

  // A fresh output array filled with 0xff bytes (a NaN for floats, -1 for ints), so that an
  // element the kernel never writes cannot pass the check.
  template <class T>
  T* Alloc(std::string name, std::string type, uint64_t count, uint64_t rows, uint64_t cols) {
    auto& a = Add(name, count * sizeof(T), true);
    WS_CUDA(cudaMemset(a.mem.ptr, 0xff, a.mem.bytes));
    return static_cast<T*>(a.mem.ptr);
  }

  template <class T>
  void Fill(T* p, const std::vector<std::remove_const_t<T>>& host) {
    auto& a = Find(p);
    if (host.size() * sizeof(T) > a.mem.bytes) throw std::logic_error("Fill: more data than the array holds");
    WS_CUDA(cudaMemcpy(a.mem.ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }

  template <class K, class... A> requires(!std::is_integral_v<K>)
  void Launch(dim3 grid, dim3 block, K kernel, A... args) {
    Launch(grid, block, size_t(0), kernel, args...);
  }
  // With `shared_bytes` of dynamic shared memory (kernel<<<grid, block, shared_bytes>>>).
  template <class K, class... A>
  void Launch(dim3 grid, dim3 block, size_t shared_bytes, K kernel, A... args) {
    if (shared_bytes > 48 * 1024)  // over the default: the kernel must opt in
      WS_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)));
    LaunchTimes t;
    t.grid[0] = grid.x; t.grid[1] = grid.y; t.grid[2] = grid.z;
    t.block[0] = block.x; t.block[1] = block.y; t.block[2] = block.z;
    const int total = opt_.restore ? opt_.warmup + opt_.runs : 1;
    if (opt_.restore) Snapshot();
    for (int i = 0; i < total; ++i) {
      if (opt_.restore) Restore();
      if (opt_.flush_l2 && flush_ && flush_->ptr)
        WS_CUDA(cudaMemsetAsync(flush_->ptr, i & 0xff, flush_->bytes, stream_));
      WS_CUDA(cudaEventRecord(start_, stream_));
      kernel<<<grid, block, shared_bytes, stream_>>>(args...);
      WS_CUDA(cudaGetLastError());  // launch configuration errors
      WS_CUDA(cudaEventRecord(stop_, stream_));
      Wait();
      float ms = 0;
      WS_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
      if (i >= total - (opt_.restore ? opt_.runs : 1)) t.ms.push_back(ms);
    }
    launches_.push_back(std::move(t));
  }

  template <class T>
  std::vector<std::remove_const_t<T>> Download(T* p) {
    auto& a = Find(p);
    std::vector<std::remove_const_t<T>> v(a.mem.bytes / sizeof(T));
    WS_CUDA(cudaStreamSynchronize(stream_));
    WS_CUDA(cudaMemcpy(v.data(), a.mem.ptr, v.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }

  const std::vector<LaunchTimes>& launches() const { return launches_; }
  // The bytes of every array the description declared (inputs and outputs), each counted once.
  uint64_t ArrayBytes() const {
    uint64_t n = 0;
    for (const auto& a : arrays_) n += a->mem.bytes;
    return n;
  }

 private:
  struct Array {
    std::string name;
    DeviceBuffer mem;
    bool writable = false;
    std::unique_ptr<DeviceBuffer> snapshot;  // the state before the current launch
    Array(std::string n, size_t bytes, bool w) : name(std::move(n)), mem(bytes), writable(w) {}
  };

  Array& Add(const std::string& name, size_t bytes, bool writable) {
    arrays_.push_back(std::make_unique<Array>(name, bytes, writable));
    return *arrays_.back();
  }
  Array& Find(const void* p) {
    for (auto& a : arrays_)
      if (a->mem.ptr == p) return *a;
    throw std::logic_error("not an array of this run");
  }
  void Snapshot() {
    for (auto& a : arrays_) {
      if (!a->writable) continue;
      if (!a->snapshot) a->snapshot = std::make_unique<DeviceBuffer>(a->mem.bytes);
      WS_CUDA(cudaMemcpyAsync(a->snapshot->ptr, a->mem.ptr, a->mem.bytes, cudaMemcpyDeviceToDevice, stream_));
    }
  }
  void Restore() {
    for (auto& a : arrays_)
      if (a->writable)
        WS_CUDA(cudaMemcpyAsync(a->mem.ptr, a->snapshot->ptr, a->mem.bytes, cudaMemcpyDeviceToDevice, stream_));
  }
  // Waits for the stop event, but not forever: a kernel that outlives the timeout is reported
  // (it cannot be stopped; the runner then gives up on the device).
  void Wait() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(opt_.timeout_s);
    for (;;) {
      cudaError_t e = cudaEventQuery(stop_);
      if (e == cudaSuccess) return;
      if (e != cudaErrorNotReady) WS_CUDA(e);
      if (std::chrono::steady_clock::now() > deadline) {
        throw CudaError("timed out: one launch ran longer than " + std::to_string(int(opt_.timeout_s)) + " s",
                        true);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  TimingOptions opt_;
  DeviceBuffer* flush_;
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::vector<std::unique_ptr<Array>> arrays_;
  std::vector<LaunchTimes> launches_;
};

}  // namespace ws::kernels
