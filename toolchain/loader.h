// Loading a kernel file's compiled library (dlopen) and reading the kernels it declares.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "toolchain/build.h"
#include "toolchain/public/kernel_file.h"

namespace ws::toolchain {

// A loaded library: never closed, as traces and views may still point at its strings.
struct Library {
  void* handle = nullptr;
  std::vector<kernels::DeclaredKernel> kernels;
};

// Loads the simulator's build of a file (`file`: its absolute path, `given`: as the user named it)
// and checks its description; a build loaded before (the same content key) is the same Library.
// Throws KernelFileError when it cannot be loaded or its description is malformed.
std::shared_ptr<const Library> LoadLibrary(const CompileResult& build, const std::string& file,
                                           const std::string& given);

}  // namespace ws::toolchain
