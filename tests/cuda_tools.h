// Whether a test can run the real CUDA tools: nvcc and nvdisasm, where warpscope itself looks for
// them (toolchain/build.h, toolchain/compiled.h). Tests that need both skip, saying so, without.
#pragma once
#include <filesystem>

#include "toolchain/build.h"
#include "toolchain/compiled.h"

namespace ws::test {

inline bool HaveNvccAndNvdisasm() {
  std::error_code ec;
  return std::filesystem::exists(toolchain::CompilerPath(toolchain::Compiler::Nvcc), ec) &&
         !toolchain::FindCudaTool("nvdisasm").empty();
}

}  // namespace ws::test
