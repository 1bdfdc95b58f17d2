// Building a kernel file: finding the compilers and the one compile function both builds go
// through (g++ for the simulator's shared library, nvcc for the GPU's program), cached by content.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "toolchain/diagnostics.h"

namespace ws::toolchain {

enum class Compiler { Host, Nvcc };

// The host compiler: $WARPSCOPE_CXX, else the one that built warpscope, else g++. nvcc:
// $WARPSCOPE_NVCC, else the one that built warpscope, else /usr/local/cuda/bin/nvcc, else PATH's.
std::string CompilerPath(Compiler compiler);

// The host compiler's flags for every kernel file and for the precompiled header (a .gch is used
// only when they match).
const std::vector<std::string>& HostFlags();

// Runs the compiler (argv without argv[0]) with its output into `log`; its exit status. Throws
// BadRequest naming the variable that picks another compiler when it cannot be started (`given`:
// the file being built, for that message).
int RunCompiler(Compiler compiler, const std::vector<std::string>& args, const std::filesystem::path& log,
                const std::string& given);

struct CompileJob {
  Compiler compiler = Compiler::Host;
  std::string text;                // what is compiled: the user's text with what goes in front of it
  std::string source;              // the user's text alone (line 1 its first line), for AddDialectHints
  std::string file;                // the user's file as the text's #line names it: messages are read at its lines
  std::string given;               // the file as the user named it, for messages
  std::vector<std::string> flags;  // all but the input and -o: "-shared", "-arch=native", "-lineinfo", "-Xptxas", "-v", ...
  std::string suffix;              // the output's ending: ".so", "-gpu", ".cubin"
  std::string failure;             // the summary's words: "does not compile"
};

struct CompileResult {
  std::filesystem::path output;  // in the cache, named by the content key
  std::string log;               // what the compiler printed (kept beside the output: also for a reused build)
  bool reused = false;           // the same job was compiled before: no compiler run
  std::vector<Diagnostic> warnings;
};

// One compiler call: the job's content key (compiler, flags, text) names the output; when the
// cache has it, nothing runs. Otherwise the text is compiled and the output and its log are put
// into the cache atomically. Throws KernelFileError with the messages at their lines.
CompileResult Compile(const CompileJob& job);

// `text` with a #line in front, so that messages and the simulator's source locations name the
// user's file (`file`, absolute) and its own lines.
std::string AtUsersLines(const std::string& file, const std::string& text);

// The simulator's build: a shared library with toolchain/public/kernel_file.h in front.
CompileResult CompileForSimulator(const std::string& file, const std::string& given, const std::string& text);

// A GPU build's job without its architecture and output: toolchain/public/gpu_main.h in front of
// the user's text, the flags every GPU build of a kernel file shares.
CompileJob GpuJob(const std::string& file, const std::string& given, const std::string& text);

// The GPU's build: a program with toolchain/public/gpu_main.h in front, for the device's own
// architecture (a GPU build is only made where a device answers), with `extra_flags` after ours.
CompileResult CompileForGpu(const std::string& file, const std::string& given, const std::string& text,
                            const std::vector<std::string>& extra_flags = {});

}  // namespace ws::toolchain
