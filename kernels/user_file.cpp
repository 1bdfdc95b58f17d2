// Kernel files in the catalog (kernels/user_file.h): the families made from built files, by path;
// describing a file and simulating its kernels are requests to a runner (toolchain/runner.h).
#include "kernels/user_file.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "sim/device_profile.h"
#include "toolchain/build.h"
#include "toolchain/description.h"
#include "toolchain/runner.h"

namespace ws::kernels {

namespace fs = std::filesystem;
namespace {

struct Registry {
  std::mutex m;
  std::deque<FamilyEntry> families;  // stable addresses, kept for the program's life
  std::deque<std::string> sources;   // likewise, the texts as compiled
  std::map<std::string, const FamilyEntry*> by_file;
  std::map<std::string, const std::string*> source_by_file;
};
Registry& Loaded() {
  static Registry r;
  return r;
}

// The family of a built file: its kernels as the runner described them; each run is a request to
// a runner of its own.
FamilyEntry MakeFamily(const std::string& file, const std::string& library, const std::string& text,
                       const std::vector<toolchain::KernelDescription>& kernels) {
  FamilyEntry f;
  f.from_file = true;
  auto& info = f.info;
  info.name = file;
  info.title = fs::path(file).filename().string();
  info.story = "Your own kernel file, compiled at run time (" + file + ").";
  const auto& first = kernels.front();
  info.teaching_n = first.teaching_n;
  info.timing_n = first.timing_n;
  info.size_meaning = first.size_meaning.empty() ? "n" : first.size_meaning;
  for (const auto& k : kernels) {
    info.max_sim_n = std::max(info.max_sim_n, k.max_n);
    if (!k.family_title.empty() && info.title == fs::path(file).filename().string()) info.title = k.family_title;
    info.variants.push_back({k.name, k.title, k.watch, file, ""});
    info.variants.back().teaching_n = k.teaching_n;
    info.variants.back().timing_n = k.timing_n;
  }
  f.run_apart = [=](const std::string& variant, const RunRequest& request, const sim::LaunchOptions& options) {
    const auto k = std::find_if(kernels.begin(), kernels.end(), [&](const auto& d) { return d.name == variant; });
    if (k == kernels.end()) throw BadRequest("the file has no kernel '" + variant + "'");
    if (request.n > k->max_n)
      throw BadRequest("size n=" + std::to_string(request.n) + " is over " + variant + "'s .max_n of " +
                       std::to_string(k->max_n));
    toolchain::RunnerRequest q;
    q.op = toolchain::RunnerRequest::Op::Simulate;
    q.library = library;
    q.file = file;
    q.text = text;
    q.kernel = variant;
    q.run = request;
    q.options = options;
    q.device = options.device ? options.device->name : "";
    const toolchain::RunnerContext where{
        fs::path(file).filename().string() + ":" + std::to_string(k->line) + ": WS_KERNEL(" + variant + ")", library,
        file};
    const auto limits = toolchain::RunnerLimits::For(options);
    auto reply = toolchain::RunInRunner(q, where, options.control, limits);
    if (reply.stopped)
      throw toolchain::RunnerStopped(where.where + ": the description " + reply.error + " (a kernel file's runner may use " +
                                     std::to_string(limits.memory_bytes >> 20) + " MiB); warpscope goes on");
    if (!reply.error.empty()) throw BadRequest(reply.error);
    // The launch's shape is known once it ran (the runner cannot call back before it starts).
    if (options.before_launch) options.before_launch(reply.outcome.trace.shape);
    return std::move(reply.outcome);
  };
  return f;
}

}  // namespace

bool IsKernelFileRef(const std::string& id) {
  std::string file, kernel;
  SplitKernelFileRef(id, &file, &kernel);
  for (const char* ext : {".cu", ".cuh", ".cpp"}) {
    const std::string e = ext;
    if (file.size() > e.size() && file.compare(file.size() - e.size(), e.size(), e) == 0) return true;
  }
  return false;
}

void SplitKernelFileRef(const std::string& id, std::string* file, std::string* kernel) {
  // The last ':' after the last '/' separates a kernel name (a path may hold ':' elsewhere).
  const auto slash = id.rfind('/');
  const auto colon = id.rfind(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    *file = id.substr(0, colon);
    *kernel = id.substr(colon + 1);
  } else {
    *file = id;
    kernel->clear();
  }
}

LoadedKernelFile LoadKernelFile(const std::string& given) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto source = toolchain::ReadKernelFile(given);
  const auto build = toolchain::CompileForSimulator(source.file, given, source.text);
  // The library is loaded, and its WS_KERNELs read, by a runner: its global constructors are the
  // user's code too.
  toolchain::RunnerRequest q;
  q.library = build.output.string();
  q.file = source.file;
  q.text = source.text;
  const auto described = toolchain::RunInRunner(q, {given, q.library, source.file}, nullptr,
                                                toolchain::RunnerLimits::For(sim::LaunchOptions{}));
  if (!described.error.empty()) throw KernelFileError(given + ": " + described.error, {}, build.log);
  toolchain::CheckDescription(source.file, described.kernels, build.log);
  LoadedKernelFile out;
  out.reused = build.reused;
  out.warnings = build.warnings;
  std::lock_guard lock(Loaded().m);
  auto& reg = Loaded();
  reg.families.push_back(MakeFamily(source.file, q.library, source.text, described.kernels));
  reg.by_file[source.file] = &reg.families.back();
  reg.sources.push_back(source.text);
  reg.source_by_file[source.file] = &reg.sources.back();
  out.family = &reg.families.back();
  out.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

const FamilyEntry* LoadedKernelFamily(const std::string& file) {
  std::lock_guard lock(Loaded().m);
  auto it = Loaded().by_file.find(KernelFileKey(file));
  return it == Loaded().by_file.end() ? nullptr : it->second;
}

const std::string* KernelFileSource(const std::string& path) {
  std::lock_guard lock(Loaded().m);
  auto it = Loaded().source_by_file.find(path);
  return it == Loaded().source_by_file.end() ? nullptr : it->second;
}

VariantRef FindKernelFileVariant(const std::string& id) {
  std::string file, kernel;
  SplitKernelFileRef(id, &file, &kernel);
  const FamilyEntry* f = LoadedKernelFamily(file);
  if (!f) f = LoadKernelFile(file).family;
  if (kernel.empty()) {
    if (f->info.variants.size() == 1) return {f, &f->info.variants.front()};
    std::string names;
    for (const auto& v : f->info.variants) names += (names.empty() ? "" : ", ") + file + ":" + v.name;
    throw BadRequest(file + " has " + std::to_string(f->info.variants.size()) + " kernels: name one (" + names + ")");
  }
  std::string names;
  for (const auto& v : f->info.variants) {
    if (v.name == kernel) return {f, &v};
    names += (names.empty() ? "" : ", ") + v.name;
  }
  throw BadRequest(file + " has no kernel '" + kernel + "'; it has: " + names);
}

}  // namespace ws::kernels
