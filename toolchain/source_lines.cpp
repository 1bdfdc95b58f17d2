// Addresses in a compiled kernel file to lines (toolchain/source_lines.h).
#include "toolchain/source_lines.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "toolchain/cache.h"
#include "toolchain/process.h"

namespace ws::toolchain {

namespace fs = std::filesystem;

std::vector<SourceLine> SourceLinesOf(const std::string& library, const std::vector<uint64_t>& offsets,
                                      const std::string& user_file) {
  std::vector<SourceLine> out(offsets.size());
  if (offsets.empty()) return out;
  // -a: each address first, then its frames (-i: innermost first, the inlined ones included).
  std::vector<std::string> argv{"addr2line", "-a", "-i", "-e", library};
  for (uint64_t o : offsets) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(o));
    argv.push_back(hex);
  }
  const fs::path log = TempFor(fs::temp_directory_path() / "warpscope-addr2line");
  std::string text;
  try {
    if (RunProgram(argv, log) == 0) text = ReadText(log);
  } catch (const std::exception&) {
    // No addr2line: the lines stay unknown.
  }
  std::error_code ec;
  fs::remove(log, ec);
  std::istringstream in(text);
  int index = -1;
  bool found_user = false;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("0x", 0) == 0) {
      ++index;
      found_user = false;
      continue;
    }
    if (index < 0 || index >= int(out.size()) || found_user) continue;
    const auto paren = l.find(" (discriminator");
    if (paren != std::string::npos) l.erase(paren);
    const auto colon = l.rfind(':');
    if (colon == std::string::npos) continue;
    SourceLine s{l.substr(0, colon), std::atoi(l.c_str() + colon + 1)};
    if (s.file == "??" || s.line <= 0) continue;
    found_user = s.file == user_file;
    out[size_t(index)] = std::move(s);  // the outermost frame unless one in the user's file comes first
  }
  return out;
}

}  // namespace ws::toolchain
