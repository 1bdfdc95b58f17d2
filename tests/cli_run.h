// warpscope's command line run from a test as a user runs it: its exit code and what it printed.
// The test's target defines WARPSCOPE_BINARY, the path of the warpscope it runs.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace ws::test {

struct CliResult {
  int code = -1;     // the exit code, -1 when it did not exit (a signal) or could not start
  std::string out;   // stdout, and stderr after it unless left out
};

// `warpscope ARGS` through the shell; with_stderr: its stderr joins the output (else dropped).
inline CliResult Cli(const std::string& args, bool with_stderr = true) {
  CliResult r;
  const std::string cmd = std::string(WARPSCOPE_BINARY) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace ws::test
