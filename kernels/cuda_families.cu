// Every family compiled by nvcc: the kernels see the CUDA dialect (plain pointers and arrays)
// and run through CudaBackend; the families are the ones the simulator has, found the same way
// (kernels/discover_catalog.cmake, kernels/declare.h). Also the device session: opening the GPU, its ceilings, and
// turning CUDA failures into messages so that one bad variant never stops the program.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

#include "kernels/catalog.h"
#include "kernels/common.h"
#include "kernels/cuda_backend.h"
#include "kernels/cuda_session.h"
#include "kernels/declare.h"
#include "kernels/family_run.h"
#include "kernels/gpu_runner.h"

namespace ws::kernels::cudak {
using namespace ::ws::dialect;
using Backend = CudaBackend;
#include "generated/catalog.inc"
}  // namespace ws::kernels::cudak

namespace ws::kernels {
namespace {

// The GPU build of a catalog variant (nullptr where there is none).
const DeclaredVariant<CudaBackend>* CudaVariant(const VariantRef& v) {
  for (const auto& f : DeclaredFamilies<CudaBackend>())
    if (f.name == v.family->info.name)
      for (const auto& d : f.variants)
        if (d.name == v.variant->name) return &d;
  return nullptr;
}

class Session final : public CudaSession {
 public:
  bool Init(std::string* why) {
    try {
      WS_CUDA(cudaSetDevice(0));
      cudaDeviceProp p{};
      WS_CUDA(cudaGetDeviceProperties(&p, 0));
      facts_.name = p.name;
      facts_.sm_count = p.multiProcessorCount;
      facts_.l2_bytes = double(p.l2CacheSize);
      facts_.memory_bytes = double(p.totalGlobalMem);
      facts_.cc_major = p.major;
      facts_.cc_minor = p.minor;
      int clock_khz = 0;
      WS_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
      facts_.clock_ghz = clock_khz / 1e6;
      facts_.driver = DriverText();
      Prepare();
      return true;
    } catch (const CudaError& e) {
      if (why) *why = std::string("no CUDA device: ") + e.what();
      return false;
    }
  }
  ~Session() override {
    if (wedged_) return;  // a kernel still runs: freeing would wait for it
    flush_.reset();
    if (stream_) cudaStreamDestroy(stream_);
  }

  const DeviceFacts& facts() const override { return facts_; }
  bool Wedged() const override { return wedged_; }

  double CopyGbps() override {
    if (copy_gbps_ > 0 || wedged_) return copy_gbps_;
    try {
      copy_gbps_ = MeasureCopyGbps(stream_);
    } catch (const CudaError& e) {
      Recover(e);
    }
    return copy_gbps_;
  }

  VariantTiming Time(const VariantRef& v, const RunRequest& r, const TimingOptions& o) override {
    VariantTiming t;
    const std::string where = v.Id() + " at n=" + std::to_string(r.n) + ": ";
    if (wedged_) {
      t.error = where + "not run: an earlier launch never finished and still occupies the device";
      return t;
    }
    const DeclaredVariant<CudaBackend>* gpu = v.family->from_file ? nullptr : CudaVariant(v);
    if (!gpu) {
      t.error = where + "this variant has no GPU build";
      return t;
    }
    try {
      CudaBackend b(o, o.flush_l2 ? flush_.get() : nullptr, stream_);
      t.check = gpu->run(b, r);
      const auto& ls = b.launches();
      t.launches = int(ls.size());
      if (!ls.empty()) {
        std::copy(ls[0].grid, ls[0].grid + 3, t.grid);
        std::copy(ls[0].block, ls[0].block + 3, t.block);
        t.ms.assign(ls[0].ms.size(), 0.0);
        for (const auto& l : ls)
          for (size_t i = 0; i < t.ms.size() && i < l.ms.size(); ++i) t.ms[i] += l.ms[i];
      }
    } catch (const CudaError& e) {
      t.error = where + e.what();
      Recover(e);
    } catch (const BadRequest& e) {
      t.error = where + e.what();
    } catch (const std::bad_alloc&) {
      t.error = where + "out of host memory";
    } catch (const std::exception& e) {
      t.error = where + e.what();
    }
    return t;
  }

 private:
  void Prepare() {
    WS_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    const size_t flush = std::max<size_t>(size_t(2 * facts_.l2_bytes), size_t(64) << 20);
    flush_ = std::make_unique<DeviceBuffer>(flush);
  }
  // After a fault the context is unusable: reset it and set up again. A timeout cannot be
  // recovered from (the kernel still runs), so the session stops running anything.
  void Recover(const CudaError& e) {
    cudaGetLastError();
    if (!e.sticky) return;
    if (std::string(e.what()).rfind("timed out", 0) == 0) {
      wedged_ = true;
      return;
    }
    if (flush_) flush_->ptr = nullptr;  // gone with the context
    flush_.reset();
    stream_ = nullptr;
    cudaDeviceReset();
    try {
      WS_CUDA(cudaSetDevice(0));
      Prepare();
    } catch (const CudaError&) {
      wedged_ = true;
    }
  }

  DeviceFacts facts_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<DeviceBuffer> flush_;
  double copy_gbps_ = 0;
  bool wedged_ = false;
};

}  // namespace

bool CudaAvailable(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    // Without a driver this is error 35 (insufficient driver); any error means no device.
    if (why) *why = std::string("no CUDA device: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device: the driver reports none";
    return false;
  }
  return true;
}

std::unique_ptr<CudaSession> CudaSession::Open(std::string* why) {
  if (!CudaAvailable(why)) return nullptr;
  auto s = std::make_unique<Session>();
  if (!s->Init(why)) return nullptr;
  return s;
}

}  // namespace ws::kernels
