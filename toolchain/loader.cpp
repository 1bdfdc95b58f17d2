// Loading a kernel file's compiled library (toolchain/loader.h).
#include "toolchain/loader.h"

#include <dlfcn.h>

#include <map>
#include <mutex>

#include "toolchain/description.h"

namespace ws::toolchain {

std::shared_ptr<const Library> LoadLibrary(const CompileResult& build, const std::string& file,
                                           const std::string& given) {
  static std::mutex m;
  static std::map<std::string, std::shared_ptr<const Library>> loaded;  // by the output's path (its content key)
  const std::string key = build.output.string();
  {
    std::lock_guard lock(m);
    if (auto it = loaded.find(key); it != loaded.end()) return it->second;
  }
  void* h = dlopen(build.output.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw KernelFileError(given + ": cannot load the compiled kernel: " + dlerror(), {}, build.log);
  using Entry = const std::vector<kernels::DeclaredKernel>* (*)(int*);
  auto entry = reinterpret_cast<Entry>(dlsym(h, "warpscope_declared_kernels"));
  if (!entry) throw KernelFileError(given + ": the compiled library lists no kernels", {}, build.log);
  int version = 0;
  const auto* declared = entry(&version);
  if (version != kernels::kDeclaredKernelVersion)
    throw KernelFileError(given + ": compiled for another warpscope version", {}, build.log);
  CheckDescription(file, *declared, build.log);
  auto lib = std::make_shared<Library>();
  lib->handle = h;
  lib->kernels = *declared;
  std::lock_guard lock(m);
  return loaded.emplace(key, std::move(lib)).first->second;
}

}  // namespace ws::toolchain
