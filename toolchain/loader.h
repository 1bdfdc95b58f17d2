// Loading a compiled kernel file (dlopen) in the runner and reading the kernels it declares.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "toolchain/public/kernel_file.h"

namespace ws::toolchain {

struct LoadedLibrary {
  std::vector<kernels::DeclaredKernel> kernels;
  uintptr_t begin = 0, end = 0;  // where it lies in memory
};

// Loads the library (its global constructors run here) and reads its WS_KERNELs; throws
// BadRequest ("cannot load the compiled kernel: ...") when it cannot.
LoadedLibrary LoadLibrary(const std::string& library);

}  // namespace ws::toolchain
