// `warpscope new my_kernel.cu`: a new kernel file from the commented template
// (toolchain/template.cu, embedded at build time).
#pragma once
#include <string>

namespace ws::toolchain {

// The kernel's name for a new file: the file's stem with other characters as '_' ("my-scan.cu":
// my_scan), "k_" in front of a digit, and "_kernel" after a name the template or the dialect
// already uses or C++ reserves ("x.cu": x_kernel; "class.cu": class_kernel; "main.cu": main_kernel).
// `taken`, where given, is set to the name that was taken ("" when none was).
std::string KernelNameFor(const std::string& file, std::string* taken = nullptr);

// Writes the template for a new kernel file, its kernel named KernelNameFor(file), and returns
// that name; refuses (BadRequest) when the file exists.
std::string WriteKernelTemplate(const std::string& file);

}  // namespace ws::toolchain
