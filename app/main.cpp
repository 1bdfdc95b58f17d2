// warpscope's entry point: the CLI, which opens the GUI when it is built in.
#include "app/cli.h"

#ifdef WARPSCOPE_WITH_GUI
#include "app/gui_main.h"
#endif

int main(int argc, char** argv) {
#ifdef WARPSCOPE_WITH_GUI
  return ws::app::RunCli(argc, argv, ws::app::GuiMain);
#else
  return ws::app::RunCli(argc, argv, nullptr);
#endif
}
