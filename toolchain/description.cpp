// Checking and running a kernel file's descriptions (toolchain/description.h).
#include "toolchain/description.h"

#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include "toolchain/description_guard.h"
#include "toolchain/diagnostics.h"

namespace ws::toolchain {

namespace fs = std::filesystem;
using kernels::BadRequest;

void CheckDescription(const std::string& file, const std::vector<kernels::DeclaredKernel>& kernels,
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
    if (!k.info.title || !*k.info.title) bad(k.line, "WS_KERNEL(" + name + "): .title is missing or empty");
    if (k.info.teaching_n <= 0) bad(k.line, "WS_KERNEL(" + name + "): .teaching_n must be positive");
    if (k.info.max_n < k.info.teaching_n)
      bad(k.line, "WS_KERNEL(" + name + "): .max_n (" + std::to_string(k.info.max_n) +
                      ") is below .teaching_n (" + std::to_string(k.info.teaching_n) + ")");
    if (k.info.timing_n <= 0) bad(k.line, "WS_KERNEL(" + name + "): .timing_n must be positive");
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
