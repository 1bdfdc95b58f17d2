// Runs catalog variants on the GPU, from the same sources the simulator runs.
#pragma once
#include <string>

namespace ws::kernels {

// True when this build has the CUDA runner and a device answers; otherwise `why` says why.
bool CudaAvailable(std::string* why);

}  // namespace ws::kernels
