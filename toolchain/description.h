// A kernel file's descriptions (its WS_KERNELs): checked when the library is loaded, and run, each
// problem or fault named by the file and its WS_KERNEL's line.
#pragma once
#include <string>
#include <vector>

#include "toolchain/public/kernel_file.h"
#include "toolchain/runner_protocol.h"

namespace ws::toolchain {

// What the runner read from a compiled library's WS_KERNELs.
std::vector<KernelDescription> Describe(const std::vector<kernels::DeclaredKernel>& kernels);

// Checks what the file declares (a kernel at all, names, titles, sizes); throws KernelFileError
// with every problem at the line of its WS_KERNEL (`log`: the compiler's, kept in the error).
void CheckDescription(const std::string& file, const std::vector<KernelDescription>& kernels,
                      const std::string& log);

// Runs a kernel's description, and through it the simulation, behind the description guard (in
// the runner); a fault or an exception in the user's host code becomes a BadRequest naming the
// kernel and its WS_KERNEL line.
kernels::Check RunDescription(const kernels::DeclaredKernel& k, const std::string& file, sim::Engine& engine,
                              const kernels::RunRequest& request);

}  // namespace ws::toolchain
