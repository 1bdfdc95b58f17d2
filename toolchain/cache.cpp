// The cache folder of kernel-file builds and its atomic put (toolchain/cache.h).
#include "toolchain/cache.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "kernels/family.h"

namespace ws::toolchain {

namespace fs = std::filesystem;

std::string CacheDir() {
  if (const char* c = std::getenv("WARPSCOPE_CACHE"); c && *c) return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "warpscope").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "warpscope").string();
  return "/tmp/warpscope-" + std::to_string(getuid());
}

std::string ContentKey(std::initializer_list<std::string_view> parts) {
  // FNV-1a (std::hash may differ between builds), each part followed by a separator byte so that
  // ("ab", "c") and ("a", "bc") differ.
  uint64_t h = 1469598103934665603ull;
  for (std::string_view p : parts) {
    for (unsigned char c : p) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xffu) * 1099511628211ull;
  }
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
  return b;
}

fs::path BuildPath(const std::string& name) {
  const fs::path build = fs::path(CacheDir()) / "build";
  std::error_code ec;
  fs::create_directories(build, ec);
  if (ec) throw kernels::BadRequest("cannot create the cache folder " + build.string() + ": " + ec.message());
  return build / name;
}

fs::path TempFor(const fs::path& dest) {
  static std::atomic<uint64_t> calls{0};
  const auto tick = std::chrono::steady_clock::now().time_since_epoch().count();
  return dest.string() + ".tmp" + std::to_string(getpid()) + "-" + std::to_string(calls++) + "-" +
         std::to_string(tick);
}

void Put(const fs::path& temp, const fs::path& dest) {
  std::error_code ec;
  fs::rename(temp, dest, ec);
  if (ec) {
    fs::remove(temp, ec);
    throw kernels::BadRequest("cannot store " + dest.string() + " in the cache: " + ec.message());
  }
}

void PutText(const fs::path& dest, const std::string& text) {
  const fs::path tmp = TempFor(dest);
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw kernels::BadRequest("cannot write " + tmp.string());
  }
  Put(tmp, dest);
}

std::string ReadText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw kernels::BadRequest("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace ws::toolchain
