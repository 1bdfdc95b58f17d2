// What nvcc made of a simulated variant, line by line: the variant's kernel found in the compiled
// listing (a file's own build, or the catalog as this program's GPU build has it) and compared
// with the simulated trace (sim/compiled_notes.h). The CLI's stats, trace and table and the GUI
// read it; the GUI calls it off the UI thread (a compile takes seconds).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "sim/compiled.h"
#include "sim/compiled_notes.h"

namespace ws::app {

struct CompilerView {
  bool available = false;
  // One line: "as compiled by nvcc for sm_90 (SASS by nvdisasm)", or why there is no listing
  // ("no nvcc: ..."), or the listing's own caveat (no source lines).
  std::string status;
  std::string arch, tool;
  sim::CompiledKernel kernel;  // the variant's __global__ function
  sim::CompiledComparison comparison;
  std::vector<sim::CompilerMessage> messages;  // ptxas' errors and warnings about this kernel
};

// The compiled listing of `v`'s source for `arch_flag` (toolchain::TargetArch's choice when empty)
// compared with `t`, the simulated trace. Never throws for a missing or failing toolchain: the
// view is then unavailable and `status` says why.
CompilerView CompareWithNvcc(const kernels::VariantRef& v, const sim::Trace& t, const std::string& arch_flag = "");

// The listing's kernel whose code comes from `file` and whose memory instructions sit at the
// lines the trace counted (the most in common); null when none has code from the file.
const sim::CompiledKernel* KernelOf(const sim::CompiledModule& m, const std::string& file, const sim::Trace& t);

// "18 registers per thread, stack 0 B, spill stores 0 B, spill loads 0 B, static shared 1024 B";
// "ptxas gave no resource usage" when unknown.
std::string UsageText(const sim::ResourceUsage& u);

}  // namespace ws::app
