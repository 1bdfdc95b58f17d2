// What nvcc made of a simulated variant, line by line: the variant's kernel found in the compiled
// listing (a file's own build, or the catalog as this program's GPU build has it) and compared
// with the simulated trace (sim/compiled_notes.h); ptxas' registers for the launch, and its
// refusals as findings. The CLI's stats, trace and table and the GUI's worker (off the UI thread:
// a compile takes seconds) call it in one order: ListingFor, the launch configured with
// ListingRegisters (ConfigureCaches), the simulation, Compare, AddCompilerFindings.
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
  sim::Counters as_compiled;  // the launch's counters as the compiled code runs it (sim::AsCompiled)
  std::vector<sim::CompilerMessage> messages;  // ptxas' errors and warnings about this kernel
};

// A variant's compiled listing, built before it is simulated.
struct CompiledListing {
  bool available = false;
  std::string status;  // as CompilerView::status
  std::string arch, file;  // file: the variant's source as the line table names it
  sim::CompiledModule module;
  std::string note;    // the listing's caveat (no source lines), "" when none
  // Where nvcc or ptxas refused the file: their errors (no module then).
  std::vector<sim::CompilerMessage> refusals;
};

// The compiled listing of `v`'s source for `arch_flag` (toolchain::TargetArch's choice when empty).
// Never throws for a missing or failing toolchain: `status` says why there is none.
CompiledListing ListingFor(const kernels::VariantRef& v, const std::string& arch_flag = "");

// The registers per thread ptxas gave `v`'s kernel (before any trace: the file's only kernel with
// code from its source, or the one named as the variant), 0 when not known.
uint32_t ListingRegisters(const CompiledListing& l, const kernels::VariantRef& v);

// The listing compared with `t`, the simulated trace.
CompilerView Compare(const CompiledListing& l, const kernels::VariantRef& v, const sim::Trace& t);

// ListingFor and Compare in one, for a trace already simulated.
CompilerView CompareWithNvcc(const kernels::VariantRef& v, const sim::Trace& t, const std::string& arch_flag = "");

// What a GPU refuses and the simulator does not check, as error findings (launch-limit) at the
// kernel's line in `t`: ptxas' errors (too much shared data, ...) and a stack frame over the 512 KiB
// of local memory a thread may have. Returns how many were added.
int AddCompilerFindings(const CompiledListing& l, const CompilerView& view, sim::Trace& t);

// The listing's kernel whose code comes from `file` and whose memory instructions sit at the
// lines the trace counted (the most in common); null when none has code from the file.
const sim::CompiledKernel* KernelOf(const sim::CompiledModule& m, const std::string& file, const sim::Trace& t);

// "18 registers per thread, stack 0 B, spill stores 0 B, spill loads 0 B, static shared 1024 B";
// "ptxas gave no resource usage" when unknown.
std::string UsageText(const sim::ResourceUsage& u);

}  // namespace ws::app
