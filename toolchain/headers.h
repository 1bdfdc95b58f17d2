// The headers a kernel file is compiled with: toolchain/public/ and the sim/ and kernels/ headers
// they include (the set named in toolchain/CMakeLists.txt), embedded at build time and written once
// per warpscope build into the cache, so that a file compiles from any folder and any install.
#pragma once
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace ws::toolchain {

// In front of a kernel file: the simulator's build (-include) and the GPU's build (#include).
inline constexpr const char* kKernelFileHeader = "toolchain/public/kernel_file.h";
inline constexpr const char* kGpuMainHeader = "toolchain/public/gpu_main.h";

// Every header of the set: (path in the source tree, text). Generated.
const std::vector<std::pair<std::string, std::string>>& EmbeddedHeaders();

// The include folder in the cache holding the set and the precompiled form of kKernelFileHeader;
// written the first time it is asked for (by this or any other process of the same build).
std::filesystem::path IncludeDir();

}  // namespace ws::toolchain
