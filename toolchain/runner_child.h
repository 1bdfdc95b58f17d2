// warpscope as its own kernel-file runner: the entry point main() calls when its first argument
// is kRunnerArgument (toolchain/runner_protocol.h). See toolchain/runner.h for the other side.
#pragma once

namespace ws::toolchain {

// Serves one request and ends the process.
int RunnerMain(int argc, char** argv);

}  // namespace ws::toolchain
