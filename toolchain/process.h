// Running another program (a compiler, a kernel file's GPU build) with its output in a file.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/family.h"

namespace ws::toolchain {

// A program that could not be started; reason: the system's words ("No such file or directory").
struct ProgramNotStarted : kernels::BadRequest {
  ProgramNotStarted(const std::string& program, const std::string& why)
      : BadRequest("cannot run '" + program + "': " + why), reason(why) {}
  std::string reason;
};

// Runs argv (argv[0] looked up in PATH) with stdout and stderr into the file `log`; returns its
// exit status, 128 + the signal's number when a signal ended it. Throws ProgramNotStarted when it
// cannot be started.
int RunProgram(const std::vector<std::string>& argv, const std::filesystem::path& log);

}  // namespace ws::toolchain
