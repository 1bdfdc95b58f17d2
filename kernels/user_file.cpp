// Kernel files in the catalog (kernels/user_file.h): the families made from loaded files, by path.
#include "kernels/user_file.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "toolchain/build.h"
#include "toolchain/description.h"
#include "toolchain/loader.h"

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

FamilyEntry MakeFamily(const std::string& file, std::shared_ptr<const toolchain::Library> lib) {
  FamilyEntry f;
  f.from_file = true;
  auto& info = f.info;
  info.name = file;
  info.title = fs::path(file).filename().string();
  info.story = "Your own kernel file, compiled at run time (" + file + ").";
  const auto& first = lib->kernels.front().info;
  info.teaching_n = first.teaching_n;
  info.timing_n = first.timing_n;
  info.size_meaning = first.size_meaning ? first.size_meaning : "n";
  for (const auto& k : lib->kernels) {
    info.max_sim_n = std::max(info.max_sim_n, k.info.max_n);
    if (k.info.family_title && *k.info.family_title && info.title == fs::path(file).filename().string())
      info.title = k.info.family_title;
    info.variants.push_back({k.name, k.info.title, k.info.watch ? k.info.watch : "", file, ""});
    info.variants.back().teaching_n = k.info.teaching_n;
    info.variants.back().timing_n = k.info.timing_n;
  }
  f.simulate = [lib, file](sim::Engine& engine, const std::string& variant, const RunRequest& request) -> Check {
    for (const auto& k : lib->kernels) {
      if (variant != k.name) continue;
      if (request.n > k.info.max_n)
        throw BadRequest("size n=" + std::to_string(request.n) + " is over " + variant + "'s .max_n of " +
                         std::to_string(k.info.max_n));
      return toolchain::RunDescription(k, file, engine, request);
    }
    throw BadRequest("the file has no kernel '" + variant + "'");
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
  const auto lib = toolchain::LoadLibrary(build, source.file, given);
  LoadedKernelFile out;
  out.reused = build.reused;
  out.warnings = build.warnings;
  std::lock_guard lock(Loaded().m);
  auto& reg = Loaded();
  reg.families.push_back(MakeFamily(source.file, lib));
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
