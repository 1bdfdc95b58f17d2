// Mapping an address in a compiled kernel file back to a line of the user's file, with the
// library's debug information (-g1) read by binutils' addr2line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ws::toolchain {

struct SourceLine {
  std::string file;  // empty: not known
  int line = 0;
};

// For each offset into `library` (an address minus the library's load address; for a return
// address, the address minus 1), the line of `user_file` it comes from: the innermost inlined
// frame in that file, else the outermost frame. Unknown ones are {"", 0}.
std::vector<SourceLine> SourceLinesOf(const std::string& library, const std::vector<uint64_t>& offsets,
                                      const std::string& user_file);

}  // namespace ws::toolchain
