// Kernel files shown in the GUI, recompiled when they are saved: the modification time of each
// watched file is checked from the UI thread, the compiler runs on a thread of its own, and each
// finished build (or its errors) is handed back by Poll. No window: tested without one.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernels/user_file.h"

namespace ws::app {

class KernelFileWatch {
 public:
  using Clock = std::chrono::steady_clock;

  // A build that finished: the new family, or the errors (the last good build stays loaded).
  struct Event {
    std::string file;                          // the key: absolute path
    const kernels::FamilyEntry* family = nullptr;  // null when the build failed
    std::vector<kernels::Diagnostic> diagnostics;  // errors (failed) or warnings (built)
    std::string message;                       // one line for the status line
    std::string text;                          // the file's text as compiled (or refused)
    double compile_seconds = 0;
    Clock::time_point change_seen;             // when the save was noticed (or the load asked for)
  };

  KernelFileWatch();
  ~KernelFileWatch();

  // Watches exactly these files (any path form); a file's current time is taken as seen.
  void Watch(const std::vector<std::string>& files);
  // Builds the file now (File -> Open), whether or not it changed.
  void Load(const std::string& file);
  // Checks the watched files' modification times (at most every `interval`) and returns the
  // builds that finished since the last call.
  std::vector<Event> Poll(std::chrono::milliseconds interval = std::chrono::milliseconds(100));
  bool Busy() const;

 private:
  struct Job {
    std::string file;
    Clock::time_point seen;
  };
  struct Stamp {
    long long mtime = 0;
    long long size = -1;
    bool operator!=(const Stamp& o) const { return mtime != o.mtime || size != o.size; }
  };
  static Stamp StampOf(const std::string& file);
  void Loop();

  std::map<std::string, Stamp> watched_;  // UI thread only
  Clock::time_point last_check_{};
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  std::vector<Event> done_;
  bool busy_ = false, stop_ = false;
  std::thread thread_;
};

}  // namespace ws::app
