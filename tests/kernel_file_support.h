// What the kernel-file tests share: a temporary folder per test, files written and read whole,
// and warpscope's command line run with its exit code and output.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/cli_run.h"

namespace ws::test {

namespace fs = std::filesystem;

// A folder of its own for each test's files; the compiled libraries go to the build tree's cache.
struct TempDir {
  fs::path path;
  TempDir() {
    const auto tick = std::chrono::steady_clock::now().time_since_epoch().count();
    path = fs::temp_directory_path() / ("ws-user-file-" + std::to_string(getpid()) + "-" + std::to_string(tick));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

inline void Write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace ws::test
