// A kernel file as the toolchain reads it: the key it is known by and its text.
#pragma once
#include <string>

namespace ws::toolchain {

// The absolute, normal form of a file's path: the key a loaded file is known by.
std::string KernelFileKey(const std::string& file);

struct KernelFileText {
  std::string file;  // KernelFileKey of the path given
  std::string text;
};

// Reads a kernel file; throws BadRequest when there is none at `given`.
KernelFileText ReadKernelFile(const std::string& given);

}  // namespace ws::toolchain
