// The headers a kernel file is compiled with, written into the cache (toolchain/headers.h).
#include "toolchain/headers.h"

#include <mutex>

#include "kernels/family.h"
#include "toolchain/build.h"
#include "toolchain/cache.h"

namespace ws::toolchain {

namespace fs = std::filesystem;

fs::path IncludeDir() {
  static std::mutex m;
  static fs::path dir;
  std::lock_guard lock(m);
  if (!dir.empty()) return dir;
  std::string headers;
  for (const auto& [name, text] : EmbeddedHeaders()) headers += name + '\n' + text + '\n';
  std::string flags;
  for (const auto& f : HostFlags()) flags += f + '\n';
  const fs::path d = fs::path(CacheDir()) / ("include-" + ContentKey({CompilerPath(Compiler::Host), flags, headers}));
  const fs::path done = d / "complete";
  std::error_code ec;
  if (!fs::exists(done, ec)) {
    fs::create_directories(d, ec);
    if (ec) throw kernels::BadRequest("cannot create the cache folder " + d.string() + ": " + ec.message());
    for (const auto& [name, text] : EmbeddedHeaders()) {
      fs::create_directories((d / name).parent_path(), ec);
      PutText(d / name, text);
    }
    // The precompiled header saves most of a compile (see docs/PERFORMANCE.md); without it the
    // compiler reads the headers themselves, more slowly but with the same result.
    const fs::path header = d / kKernelFileHeader;
    const fs::path gch = header.string() + ".gch", tmp_gch = TempFor(gch), log = TempFor(d / "pch.log");
    std::vector<std::string> args = HostFlags();
    args.insert(args.end(), {"-I" + d.string(), "-x", "c++-header", header.string(), "-o", tmp_gch.string()});
    if (RunCompiler(Compiler::Host, args, log, header.string()) == 0) Put(tmp_gch, gch);
    else fs::remove(tmp_gch, ec);
    fs::remove(log, ec);
    PutText(done, "");
  }
  dir = d;
  return dir;
}

}  // namespace ws::toolchain
