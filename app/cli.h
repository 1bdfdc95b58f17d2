// The command line: list, stats, trace, bench (and gui, when built with it).
#pragma once
#include <functional>

namespace ws::app {

// Exit codes: 0 ok, 1 a check failed or the kernel has errors, 2 bad arguments, 3 no CUDA device.
enum ExitCode { kOk = 0, kFailed = 1, kBadArguments = 2, kNoCudaDevice = 3 };

// The GUI's entry point, when this binary has one: (argc, argv of the gui subcommand).
using GuiEntry = std::function<int(int, char**)>;

int RunCli(int argc, char** argv, const GuiEntry& gui);

// The lesson the program opens on: shortcut v0 beside v1.
inline constexpr const char* kDefaultVariant = "shortcut/v0";
inline constexpr const char* kDefaultCompare = "shortcut/v1";

}  // namespace ws::app
