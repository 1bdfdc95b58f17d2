// `warpscope new my_kernel.cu`: a new kernel file from the commented template
// (toolchain/template.cu, embedded at build time).
#pragma once
#include <string>

namespace ws::toolchain {

// Writes the template for a new kernel file, its kernel named after the file; refuses
// (BadRequest) when the file exists.
void WriteKernelTemplate(const std::string& file);

}  // namespace ws::toolchain
