// What nvcc makes of a kernel file, without a GPU: the file built for one architecture with
// -lineinfo and ptxas -v, disassembled with each instruction's source line (nvdisasm, else
// cuobjdump's SASS without lines, else nvcc's PTX), parsed (sim/compiled.h); cached by content.
#pragma once
#include <string>

#include "sim/compiled.h"

namespace ws::toolchain {

// A CUDA binary tool ("nvdisasm", "cuobjdump"): $WARPSCOPE_NVDISASM (or _CUOBJDUMP), else PATH's,
// else /usr/local/cuda/bin's, else the folder tools/install-deps.sh installs NVIDIA's pip wheels
// into (CudaToolsDir()); empty when there is none.
std::string FindCudaTool(const std::string& name);
// $WARPSCOPE_CUDA_TOOLS, else ~/.local/share/warpscope/cuda-tools: pip's --target folder, the
// binaries under nvidia/cu*/bin.
std::string CudaToolsDir();

// The architecture to build for: `flag` ("sm_90", "90" or "9.0") when given (a bad one throws
// kernels::BadRequest), else the GPU present (nvidia-smi), else `recorded` (the recorded device's:
// "sm_90" for the H100 and H200 whose figures assets/recorded holds).
std::string TargetArch(const std::string& flag, const std::string& recorded = "sm_90");

struct CompiledFile {
  sim::CompiledModule module;  // kernels, their usage, ptxas' and nvcc's messages
  bool reused = false;         // nothing was compiled or disassembled: all came from the cache
  std::string note;            // one line when the listing is not SASS with source lines: why
};

// Builds `text` (the user's file `file`, absolute; `given` as named) for `arch`, as the GPU build
// compiles it (toolchain/build.h GpuJob). A file nvcc or ptxas refuses throws KernelFileError with
// the messages (ptxas' "uses too much local data" among them); no nvcc throws BadRequest.
CompiledFile CompileForListing(const std::string& file, const std::string& given, const std::string& text,
                               const std::string& arch);

// The catalog as this program's own GPU build compiled it (nvcc -lineinfo, kernels/cuda_families.cu):
// the cubin for `arch` taken out of the running executable with cuobjdump -xelf, listed as
// CompileForListing lists a file's, with cuobjdump -res-usage's figures. Throws BadRequest where
// there is no cuobjdump or the executable has no code for `arch` (naming the architectures it has).
// Each architecture is listed once a process; later calls give a copy of the first's.
CompiledFile CatalogListing(const std::string& arch);

}  // namespace ws::toolchain
