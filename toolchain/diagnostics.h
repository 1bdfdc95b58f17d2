// What a compiler said about a kernel file, read at the user's lines: the messages, the error that
// carries them, and the short summary a command line prints.
#pragma once
#include <string>
#include <vector>

#include "kernels/family.h"

namespace ws::toolchain {

// One compiler message at a line of the user's file (line 0: not at a line of that file).
struct Diagnostic {
  int line = 0, column = 0;
  std::string severity;  // "error", "warning"
  std::string message;
};

// A kernel file that does not compile or whose description is malformed. what() is a short
// summary ("my_kernel.cu:12: error: ..."); diagnostics() every message at its line; log() what the
// compiler printed.
class KernelFileError : public kernels::BadRequest {
 public:
  KernelFileError(const std::string& summary, std::vector<Diagnostic> diagnostics, std::string log)
      : BadRequest(summary), diagnostics_(std::move(diagnostics)), log_(std::move(log)) {}
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::string& log() const { return log_; }

 private:
  std::vector<Diagnostic> diagnostics_;
  std::string log_;
};

// Reads g++'s "file:line:col: error: message" and nvcc's "file(line): error: message" lines. A
// message in another file (a header) is placed at the user's line named in its context: the
// "required from here" before it (a template) or the "in expansion of macro" note after it
// (WS_KERNEL's fields). `file` is the user's file as the compiler names it.
std::vector<Diagnostic> ParseDiagnostics(const std::string& log, const std::string& file);

// Where an error is at a line written as CUDA writes it but the dialect does not, the dialect's
// form is added to its message in the user's own names: `extern __shared__ int s[];` gets "(in
// warpscope's dialect a shared array is written extern __shared__ Shared<int[]> s;)", and
// `volatile float* vs = sdata;` "... a pointer into a shared array is written Shared<volatile
// float*> vs = sdata;". `source` is the user's file as compiled (line 1 its first line).
void AddDialectHints(std::vector<Diagnostic>& diagnostics, const std::string& source);

// `what`, then the first three errors as "name.cu:line:col: error: message" and how many more.
std::string Summary(const std::string& file, const std::vector<Diagnostic>& diagnostics, const std::string& what);

}  // namespace ws::toolchain
