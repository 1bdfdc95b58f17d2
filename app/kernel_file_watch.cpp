// Kernel files recompiled on save (see kernel_file_watch.h).
#include "app/kernel_file_watch.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ws::app {

KernelFileWatch::KernelFileWatch() : thread_([this] { Loop(); }) {}

KernelFileWatch::~KernelFileWatch() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();  // a compile in progress finishes first (seconds at most)
}

KernelFileWatch::Stamp KernelFileWatch::StampOf(const std::string& file) {
  struct stat st {};
  if (stat(file.c_str(), &st) != 0) return {};
  return {static_cast<long long>(st.st_mtim.tv_sec) * 1000000000ll + st.st_mtim.tv_nsec, static_cast<long long>(st.st_size)};
}

void KernelFileWatch::Watch(const std::vector<std::string>& files) {
  std::map<std::string, Stamp> next;
  for (const auto& f : files) {
    const std::string key = kernels::KernelFileKey(f);
    auto it = watched_.find(key);
    next[key] = it != watched_.end() ? it->second : StampOf(key);
  }
  watched_ = std::move(next);
}

void KernelFileWatch::Load(const std::string& file) {
  const std::string key = kernels::KernelFileKey(file);
  if (auto it = watched_.find(key); it != watched_.end()) it->second = StampOf(key);
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({key, Clock::now()});
  }
  wake_.notify_all();
}

std::vector<KernelFileWatch::Event> KernelFileWatch::Poll(std::chrono::milliseconds interval) {
  const auto now = Clock::now();
  if (now - last_check_ >= interval) {
    last_check_ = now;
    for (auto& [file, stamp] : watched_) {
      const Stamp s = StampOf(file);
      if (s.size < 0 || !(s != stamp)) continue;  // missing (an editor between write and rename) or unchanged
      stamp = s;
      std::lock_guard lock(mutex_);
      // One build per file waiting: a newer save replaces the waiting one.
      std::erase_if(queue_, [&](const Job& j) { return j.file == file; });
      queue_.push_back({file, now});
      wake_.notify_all();
    }
  }
  std::lock_guard lock(mutex_);
  std::vector<Event> out;
  out.swap(done_);
  return out;
}

bool KernelFileWatch::Busy() const {
  std::lock_guard lock(mutex_);
  return busy_ || !queue_.empty();
}

void KernelFileWatch::Loop() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      job = queue_.front();
      queue_.pop_front();
      busy_ = true;
    }
    Event e;
    e.file = job.file;
    e.change_seen = job.seen;
    const std::string name = std::filesystem::path(job.file).filename().string();
    try {
      const auto loaded = kernels::LoadKernelFile(job.file);
      e.family = loaded.family;
      e.diagnostics = loaded.warnings;
      e.compile_seconds = loaded.compile_seconds;
      if (const std::string* t = kernels::KernelFileSource(job.file)) e.text = *t;
      char buf[96];
      std::snprintf(buf, sizeof buf, " (compiled in %.1f s)", loaded.compile_seconds);
      e.message = name + " reloaded" + (loaded.reused ? std::string(" (built before)") : std::string(buf));
    } catch (const kernels::KernelFileError& err) {
      e.diagnostics = err.diagnostics();
      std::string first = err.what();
      if (auto nl = first.find('\n'); nl != std::string::npos) {
        // "name: N errors; first at line L: ..." for the status line
        size_t errors = 0;
        for (const auto& d : err.diagnostics()) errors += d.severity == "error";
        const auto* d = err.diagnostics().empty() ? nullptr : &err.diagnostics().front();
        first = name + ": " + std::to_string(errors) + (errors == 1 ? " error" : " errors") +
                (d && d->line > 0 ? ", the first at line " + std::to_string(d->line) + ": " + d->message
                                  : d ? ": " + d->message : std::string());
      }
      e.message = first + " — showing the last good build";
      std::ifstream in(job.file, std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      e.text = s.str();
    } catch (const std::exception& err) {
      e.message = name + ": " + err.what() + " — showing the last good build";
      e.diagnostics.push_back({0, 0, "error", err.what()});
    }
    std::lock_guard lock(mutex_);
    done_.push_back(std::move(e));
    busy_ = false;
  }
}

}  // namespace ws::app
