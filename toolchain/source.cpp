// Reading a kernel file (toolchain/source.h).
#include "toolchain/source.h"

#include <filesystem>

#include "kernels/family.h"
#include "toolchain/cache.h"

namespace ws::toolchain {

namespace fs = std::filesystem;

std::string KernelFileKey(const std::string& file) {
  std::error_code ec;
  fs::path p = fs::absolute(file, ec);
  if (ec) return file;
  return p.lexically_normal().string();
}

KernelFileText ReadKernelFile(const std::string& given) {
  KernelFileText out;
  out.file = KernelFileKey(given);
  std::error_code ec;
  const auto status = fs::status(out.file, ec);
  if (fs::is_directory(status))
    throw kernels::BadRequest(given + " is a folder, not a kernel file (name a .cu file in it)");
  if (fs::exists(status) && !fs::is_regular_file(status))
    throw kernels::BadRequest(given + " is not a regular file; a kernel file is a .cu text file");
  if (!fs::is_regular_file(status))
    throw kernels::BadRequest("no kernel file " + given + " (warpscope new " + given + " writes one)");
  out.text = ReadText(out.file);
  return out;
}

}  // namespace ws::toolchain
