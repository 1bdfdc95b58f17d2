// Loading a compiled kernel file in the runner (toolchain/loader.h).
#include "toolchain/loader.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>

namespace ws::toolchain {

namespace {

struct Range {
  const char* name;
  uintptr_t begin = UINTPTR_MAX, end = 0;
};

int FindRange(dl_phdr_info* info, size_t, void* data) {
  auto* r = static_cast<Range*>(data);
  if (!info->dlpi_name || std::string(info->dlpi_name) != r->name) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    r->begin = std::min<uintptr_t>(r->begin, info->dlpi_addr + ph.p_vaddr);
    r->end = std::max<uintptr_t>(r->end, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
  }
  return 1;
}

}  // namespace

LoadedLibrary LoadLibrary(const std::string& library) {
  // Never closed: the runner ends after one request.
  void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw kernels::BadRequest(std::string("cannot load the compiled kernel: ") + dlerror());
  using Entry = const std::vector<kernels::DeclaredKernel>* (*)(int*);
  auto entry = reinterpret_cast<Entry>(dlsym(h, "warpscope_declared_kernels"));
  if (!entry) throw kernels::BadRequest("the compiled library lists no kernels");
  int version = 0;
  const auto* declared = entry(&version);
  if (version != kernels::kDeclaredKernelVersion) throw kernels::BadRequest("compiled for another warpscope version");
  LoadedLibrary out;
  out.kernels = *declared;
  Range r{library.c_str()};
  dl_iterate_phdr(FindRange, &r);
  if (r.end > r.begin) {
    out.begin = r.begin;
    out.end = r.end;
  }
  return out;
}

}  // namespace ws::toolchain
