// GPU runner entry points that do not need nvcc.
#include "kernels/gpu_runner.h"

namespace ws::kernels {

#ifndef WARPSCOPE_HAVE_CUDA
bool CudaAvailable(std::string* why) {
  if (why) *why = "no CUDA device: this build has no CUDA runner";
  return false;
}
#endif

}  // namespace ws::kernels
