// `warpscope sass FILE.cu[:kernel]|FAMILY/VARIANT`: what nvcc made of each kernel of a file (or of
// a catalog variant, as this program's GPU build has it), source line by source line (memory instructions first, with width and predicate; --all every instruction),
// with ptxas' resource usage and messages; --json the same as data.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

namespace ws::app {

// Prints the listing of `what` for `arch_flag` (--arch; empty: toolchain::TargetArch's choice);
// the exit status: 1 where a kernel exceeds a limit of the GPU. Bad input throws kernels::BadRequest.
int Sass(const std::string& what, const std::string& arch_flag, bool all, bool json, std::ostream& out);

// The bytes of SASS (sim::CodeBytes) of the catalog variant `variant_id`'s kernels as this
// program's GPU build has them for `arch` (toolchain::CatalogListing, read once per process); 0
// where they are not known (no cuobjdump, no GPU code for `arch`, not a catalog variant).
uint32_t CatalogCodeBytes(const std::string& variant_id, const std::string& arch);

}  // namespace ws::app
