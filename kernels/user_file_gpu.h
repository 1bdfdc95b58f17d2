// Timing a kernel file on the GPU (`warpscope bench my_kernel.cu[:kernel]`): built by nvcc into a
// program of its own, run as a child process, results read back as a BenchReport.
#pragma once
#include <string>

#include "kernels/gpu_runner.h"

namespace ws::kernels {

// Builds the file for the GPU (throws KernelFileError / BadRequest as toolchain::CompileForGpu) and
// times its kernels, or the one `id` names, at size n (0: each kernel's .timing_n) with `runs`
// timed runs (`single_launch`: one plain launch each, no warm-up, no L2 flush). GB/s counts the
// bytes of the arrays a description declares, each once. A kernel that fails or faults comes back
// as a Timing with its error.
BenchReport TimeKernelFileOnGpu(const std::string& id, int n, int runs, bool single_launch = false);

}  // namespace ws::kernels
