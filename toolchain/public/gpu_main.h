// The GPU build of a kernel file (`warpscope bench my_kernel.cu`): nvcc compiles this header and
// then the user's file into a small program that times each WS_KERNEL with CudaBackend (the
// catalog's GPU back end: warm-up runs, L2 flushed and written arrays restored before every run)
// and prints one JSON object a line for warpscope to read (kernels/user_file_gpu.cpp). It is a
// process of its own, so a kernel that faults on the device ends it, never warpscope.
// Arguments: KERNEL ("" for every one), N (0: each kernel's .timing_n), RUNS, SINGLE ("1": one
// plain launch per kernel, no warm-up, no L2 flush, no copy bandwidth: for ncu and
// compute-sanitizer). The first line names the device, its driver and (unless SINGLE) the
// device-to-device copy bandwidth; then one line a kernel, with the bytes of the arrays its
// description declares (each counted once).
#pragma once
#ifndef __CUDACC__
#error "toolchain/public/gpu_main.h is compiled by nvcc only (the simulator's build uses toolchain/public/kernel_file.h)"
#endif
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/cuda_backend.h"
#include "toolchain/public/kernel_file.h"

namespace ws::kernels {

struct GpuDeclaredKernel {
  const char* name;
  KernelInfo info;
  int line;
  void (*describe)(KernelSetup<CudaBackend>& k);
};

inline std::vector<GpuDeclaredKernel>& GpuDeclared() {
  static std::vector<GpuDeclaredKernel> v;
  return v;
}

struct GpuRegistrar {
  explicit GpuRegistrar(const GpuDeclaredKernel& d) { GpuDeclared().push_back(d); }
};

inline std::string JsonText(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); out += b; }
    else out += char(c);
  }
  return out + "\"";
}

// Times one kernel; the JSON line that says how it went.
inline std::string TimeDeclared(const GpuDeclaredKernel& d, int n, int runs, bool single, DeviceBuffer* flush,
                                cudaStream_t stream) {
  RunRequest req;
  req.n = n > 0 ? n : d.info.timing_n;
  req.seed = 1;  // as `warpscope stats` and the catalog's timings
  std::string line = "{\"kernel\": " + JsonText(d.name) + ", \"n\": " + std::to_string(req.n);
  TimingOptions o;
  o.runs = single ? 1 : runs;
  o.warmup = single ? 0 : o.warmup;
  o.restore = o.flush_l2 = !single;
  CudaBackend b(o, single ? nullptr : flush, stream);
  KernelSetup<CudaBackend> k(b, req);
  k.seed_ = req.seed;
  d.describe(k);
  const Check c = k.Result();
  line += ", \"passed\": " + std::string(c.passed ? "true" : "false") + ", \"detail\": " + JsonText(c.detail);
  const auto& ls = b.launches();
  line += ", \"launches\": " + std::to_string(ls.size()) + ", \"bytes\": " + std::to_string(b.ArrayBytes());
  if (!ls.empty()) {
    line += ", \"grid\": [" + std::to_string(ls[0].grid[0]) + ", " + std::to_string(ls[0].grid[1]) + ", " +
            std::to_string(ls[0].grid[2]) + "], \"block\": [" + std::to_string(ls[0].block[0]) + ", " +
            std::to_string(ls[0].block[1]) + ", " + std::to_string(ls[0].block[2]) + "]";
    std::vector<double> ms(ls[0].ms.size(), 0.0);  // each run summed over the description's launches
    for (const auto& l : ls)
      for (size_t i = 0; i < ms.size() && i < l.ms.size(); ++i) ms[i] += l.ms[i];
    line += ", \"ms\": [";
    for (size_t i = 0; i < ms.size(); ++i) line += (i ? ", " : "") + std::to_string(ms[i]);
    line += "]";
  }
  return line + "}";
}

}  // namespace ws::kernels

using namespace ::ws::dialect;
using ::ws::kernels::CeilDiv;
using WsSetup = ::ws::kernels::KernelSetup<::ws::kernels::CudaBackend>;

#define WS_KERNEL(name, ...)                                                                             \
  static void ws_describe_##name(WsSetup& k);                                                            \
  static const ::ws::kernels::GpuRegistrar ws_registrar_##name(                                          \
      {#name, ::ws::kernels::KernelInfo{__VA_ARGS__}, __LINE__, ws_describe_##name});                     \
  static void ws_describe_##name([[maybe_unused]] WsSetup& k)

int main(int argc, char** argv) {
  using namespace ::ws::kernels;
  const std::string only = argc > 1 ? argv[1] : "";
  const int n = argc > 2 ? std::atoi(argv[2]) : 0;
  const int runs = argc > 3 ? std::max(1, std::atoi(argv[3])) : 10;
  const bool single = argc > 4 && std::string(argv[4]) == "1";
  try {
    cudaDeviceProp p{};
    WS_CUDA(cudaSetDevice(0));
    WS_CUDA(cudaGetDeviceProperties(&p, 0));
    cudaStream_t stream = nullptr;
    WS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const double copy_gbps = single ? 0.0 : MeasureCopyGbps(stream);
    std::printf("{\"device\": %s, \"driver\": %s, \"sm_count\": %d, \"l2_bytes\": %d, \"copy_gbps\": %.1f}\n",
                JsonText(p.name).c_str(), JsonText(DriverText()).c_str(), p.multiProcessorCount, p.l2CacheSize,
                copy_gbps);
    std::fflush(stdout);
    DeviceBuffer flush(single ? 0 : std::max<size_t>(size_t(2) * size_t(p.l2CacheSize), size_t(64) << 20));
    for (const auto& d : GpuDeclared()) {
      if (!only.empty() && only != d.name) continue;
      std::string line;
      try {
        line = TimeDeclared(d, n, runs, single, &flush, stream);
      } catch (const CudaError& e) {
        std::printf("{\"kernel\": %s, \"error\": %s}\n", JsonText(d.name).c_str(), JsonText(e.what()).c_str());
        std::fflush(stdout);
        if (e.sticky) std::_Exit(4);  // the context is lost (a fault) or busy (a timeout)
        continue;
      } catch (const std::exception& e) {
        line = "{\"kernel\": " + JsonText(d.name) + ", \"error\": " + JsonText(e.what()) + "}";
      }
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
    }
  } catch (const CudaError& e) {
    std::printf("{\"error\": %s}\n", JsonText(e.what()).c_str());
    std::fflush(stdout);
    std::_Exit(3);
  }
  std::fflush(stdout);
  std::_Exit(0);  // no teardown of a context a timed-out kernel may still hold
}
