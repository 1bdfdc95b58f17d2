// warpscope's entry point: the CLI, which opens the GUI when it is built in; and the runner of
// kernel files, warpscope started by itself (toolchain/runner.h).
#include <unistd.h>

#include <cstring>
#include <string>

#include "app/cli.h"
#include "toolchain/runner.h"
#include "toolchain/runner_child.h"

#ifdef WARPSCOPE_WITH_GUI
#include "app/gui_main.h"
#endif

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], ws::toolchain::kRunnerArgument) == 0) return ws::toolchain::RunnerMain(argc, argv);
  char self[4096];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len > 0) ws::toolchain::SetRunnerProgram(std::string(self, size_t(len)));
#ifdef WARPSCOPE_WITH_GUI
  return ws::app::RunCli(argc, argv, ws::app::GuiMain);
#else
  return ws::app::RunCli(argc, argv, nullptr);
#endif
}
