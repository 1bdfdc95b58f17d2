// The desktop program's entry point (warpscope gui ...; plain warpscope when built with the GUI).
#pragma once

namespace ws::app {

// argc/argv of the gui subcommand (argv[0] the program). Returns the process exit code.
int GuiMain(int argc, char** argv);

}  // namespace ws::app
