// Kernel files opened at run time (`warpscope open my_kernel.cu`): compiled by the host compiler
// into a shared library with the headers warpscope carries, loaded, and added to the catalog as
// a family named by the file's path. `warpscope new` writes the template.
#pragma once
#include <string>
#include <vector>

#include "kernels/catalog.h"

namespace ws::kernels {

// One compiler message at a line of the user's file (line 0: not at a line of that file).
struct Diagnostic {
  int line = 0, column = 0;
  std::string severity;  // "error", "warning"
  std::string message;
};

// A kernel file that does not compile or whose description is malformed. what() is a short
// summary ("my_kernel.cu:12: error: ..."); diagnostics() every message at its line; log() what the
// compiler printed.
class KernelFileError : public BadRequest {
 public:
  KernelFileError(const std::string& summary, std::vector<Diagnostic> diagnostics, std::string log)
      : BadRequest(summary), diagnostics_(std::move(diagnostics)), log_(std::move(log)) {}
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::string& log() const { return log_; }

 private:
  std::vector<Diagnostic> diagnostics_;
  std::string log_;
};

// True for a catalog id that names a file: "path.cu", "path.cu:kernel" (also .cuh, .cpp).
bool IsKernelFileRef(const std::string& id);

// Splits "path.cu:kernel" into the file and the kernel name (empty when none is named).
void SplitKernelFileRef(const std::string& id, std::string* file, std::string* kernel);

// The absolute, normal form of a file's path: the key a loaded file is known by.
std::string KernelFileKey(const std::string& file);

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

// Builds the file for the GPU with nvcc (kernels/user_gpu_main.h in front: a program that times
// each kernel and prints JSON lines) and returns the program's path, cached by content. Throws
// KernelFileError with nvcc's messages at their lines, or BadRequest when there is no nvcc.
std::string BuildKernelFileForGpu(const std::string& file);

// Runs a program with stdout and stderr into the file `log`; its exit status (128 + signal when
// a signal ended it).
int RunKernelFileProgram(const std::vector<std::string>& argv, const std::string& log);

// Writes the commented template for a new kernel file; refuses (BadRequest) when the file exists.
void WriteKernelTemplate(const std::string& file);

// Where compiled kernel files and the headers they need are kept: $WARPSCOPE_CACHE, else
// $XDG_CACHE_HOME/warpscope, else ~/.cache/warpscope.
std::string KernelCacheDir();

}  // namespace ws::kernels
