// Checking and running a kernel file's descriptions (toolchain/description.h).
#include "toolchain/description.h"

#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include "kernels/variant_name.h"
#include "toolchain/description_guard.h"
#include "toolchain/diagnostics.h"
#include "toolchain/memory_guard.h"

namespace ws::toolchain {

namespace fs = std::filesystem;
using kernels::BadRequest;

std::vector<KernelDescription> Describe(const std::vector<kernels::DeclaredKernel>& kernels) {
  std::vector<KernelDescription> out;
  auto text = [](const char* s) { return std::string(s ? s : ""); };
  for (const auto& k : kernels)
    out.push_back({text(k.name), text(k.info.title), text(k.info.watch), text(k.info.size_meaning),
                   text(k.info.family_title), k.info.teaching_n, k.info.timing_n, k.info.max_n, k.line});
  return out;
}

void CheckDescription(const std::string& file, const std::vector<KernelDescription>& kernels,
                      const std::string& log) {
  std::vector<Diagnostic> problems;
  auto bad = [&](int line, std::string msg) { problems.push_back({line, 1, "error", std::move(msg)}); };
  if (kernels.empty())
    bad(0, "the file declares no kernel: describe one with WS_KERNEL(name, .title = \"...\") { ... } "
           "(warpscope new writes an example)");
  std::map<std::string, int> seen;
  for (const auto& k : kernels) {
    const std::string name = k.name;
    if (seen.count(name)) bad(k.line, "a second WS_KERNEL named '" + name + "' (the first is at line " +
                                      std::to_string(seen[name]) + ")");
    seen[name] = k.line;
    if (name.size() > kernels::kMaxVariantName)
      bad(k.line, "WS_KERNEL(" + name + "): the name has " + std::to_string(name.size()) +
                      " characters; the toolbar shows at most " + std::to_string(kernels::kMaxVariantName) +
                      " (a longer wording belongs in .title)");
    if (k.title.empty()) bad(k.line, "WS_KERNEL(" + name + "): .title is missing or empty");
    if (k.teaching_n <= 0) bad(k.line, "WS_KERNEL(" + name + "): .teaching_n must be positive");
    if (k.max_n < k.teaching_n)
      bad(k.line, "WS_KERNEL(" + name + "): .max_n (" + std::to_string(k.max_n) +
                      ") is below .teaching_n (" + std::to_string(k.teaching_n) + ")");
    if (k.timing_n <= 0) bad(k.line, "WS_KERNEL(" + name + "): .timing_n must be positive");
  }
  if (!problems.empty())
    throw KernelFileError(Summary(file, problems, file + ": the description is malformed"), problems, log);
}

kernels::Check RunDescription(const kernels::DeclaredKernel& k, const std::string& file, sim::Engine& engine,
                              const kernels::RunRequest& request) {
  const std::string where = fs::path(file).filename().string() + ":" + std::to_string(k.line) + ": WS_KERNEL(" +
                            k.name + ")";
  kernels::Check check;
  std::optional<HostFault> fault;
  try {
    fault = RunGuarded([&] { check = k.simulate(engine, request); });
  } catch (const BadRequest&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw BadRequest(where + ": the description threw: " + e.what());
  } catch (...) {
    throw BadRequest(where + ": the description threw something that is not a std::exception");
  }
  if (fault) {
    if (auto why = ExplainHostFault(uintptr_t(fault->address)))
      throw BadRequest(where + ": the description's host code " + *why + "; warpscope stopped it and goes on");
    char addr[32];
    std::snprintf(addr, sizeof addr, "%p", fault->address);
    throw BadRequest(where + ": the description's host code " +
                     (fault->signo == SIGFPE ? std::string("divided an integer by zero")
                                             : std::string("faulted with ") +
                                                   (fault->signo == SIGBUS ? "SIGBUS" : "SIGSEGV") +
                                                   " (an invalid pointer: address " + addr + ")") +
                     "; warpscope stopped it and goes on (a kernel's own faults are findings)");
  }
  return check;
}

}  // namespace ws::toolchain
