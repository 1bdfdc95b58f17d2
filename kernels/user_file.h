// Kernel files opened at run time (`warpscope open my_kernel.cu`) in the catalog: a file built and
// loaded by the toolchain (toolchain/) becomes a family named by the file's path, its WS_KERNELs
// its variants. `warpscope new` writes the template (toolchain/new_file.h).
#pragma once
#include <string>
#include <vector>

#include "kernels/catalog.h"
#include "toolchain/diagnostics.h"
#include "toolchain/source.h"

namespace ws::kernels {

// What loading a file throws and reports, and the key it is known by (the toolchain's).
using toolchain::Diagnostic;
using toolchain::KernelFileError;
using toolchain::KernelFileKey;

// True for a catalog id that names a file: "path.cu", "path.cu:kernel" (also .cuh, .cpp).
bool IsKernelFileRef(const std::string& id);

// Splits "path.cu:kernel" into the file and the kernel name (empty when none is named).
void SplitKernelFileRef(const std::string& id, std::string* file, std::string* kernel);

struct LoadedKernelFile {
  const FamilyEntry* family = nullptr;  // lives as long as the program
  bool reused = false;                  // the same text was compiled before: no compiler run
  double compile_seconds = 0;
  std::vector<Diagnostic> warnings;
};

// Compiles and loads the file's current text and makes it the family FindVariant returns for it.
// On failure throws KernelFileError and leaves the last good build in place.
LoadedKernelFile LoadKernelFile(const std::string& file);

// The family of a file loaded before (nullptr if none): no compiler run.
const FamilyEntry* LoadedKernelFamily(const std::string& file);

// The variant a file reference names: loads the file the first time it is asked for.
VariantRef FindKernelFileVariant(const std::string& id);

// The text of a loaded kernel file as it was compiled (empty if the path is not one).
const std::string* KernelFileSource(const std::string& path);

}  // namespace ws::kernels
