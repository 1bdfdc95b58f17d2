// Export for slides from the window: the toolbar's export button and its popup, and a GIF being
// written one step a frame (the panes' region read back after each frame), with a PNG of the
// window. `--gif` queues the same export from the command line.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "app/gif_writer.h"
#include "visual/layout.h"

namespace ws::app {

class Gui;

class SlideExport {
 public:
  SlideExport();
  ~SlideExport();
  // Queues a GIF of steps `steps` at `fps`; it starts once the panes have been drawn (and after
  // the PNG, when one is pending).
  void RequestGif(const std::string& path, StepRange steps, int fps);
  bool Busy() const;
  // The outcome of the last export ("wrote ..." or why not); empty before the first.
  const std::string& Outcome() const { return outcome_; }
  bool Succeeded() const { return succeeded_; }
  // The toolbar button and its popup (call where the button goes).
  void DrawButton(Gui& gui, float scale);
  // After a frame is rendered into the back buffer, fw x fh.
  void AfterRender(Gui& gui, int fw, int fh);

 private:
  struct Job;
  void StartGif(Gui& gui);
  void Finish(Gui& gui, std::string outcome, bool ok);

  std::unique_ptr<Job> job_;  // a GIF being written
  struct Request {
    std::string path;
    StepRange steps;
    int fps = 4;
  };
  std::optional<Request> request_;
  int request_wait_ = 2;
  std::string png_;  // a PNG of the window to save
  int png_wait_ = 0;
  int return_step_ = -1;  // where the button's export found the panes, restored when done
  std::string outcome_;
  bool succeeded_ = false;
  char path_[512] = "";
  int first_ = 0, last_ = 40, fps_ = 4;
};

}  // namespace ws::app
