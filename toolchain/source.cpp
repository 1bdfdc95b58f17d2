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
  if (!fs::is_regular_file(out.file, ec))
    throw kernels::BadRequest("no kernel file " + given + " (warpscope new " + given + " writes one)");
  out.text = ReadText(out.file);
  return out;
}

}  // namespace ws::toolchain
