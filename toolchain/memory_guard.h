// Memory errors the dialect cannot see, in the kernel-file runner: a local array indexed past its
// end (the compiler's bounds checks, -fsanitize=bounds), a block from new[] or malloc written or
// read past its end or after it was freed (each such block ends at a page the runner keeps
// inaccessible). Each stops the thread with a fault the engine or the description guard already
// contain; afterwards the fault is explained with its line. What stays unseen: README.md,
// "Your own kernel".
#pragma once
#include <signal.h>

#include <cstdint>
#include <optional>
#include <string>

#include "sim/trace.h"

namespace ws::toolchain {

// Turns the guard on; `library` and `user_file` are the compiled kernel file and the user's file,
// for lines. Call once, before the library is loaded, with RecordMemoryFault given to the
// description guard as its recorder.
void InstallMemoryGuard(const std::string& library, const std::string& user_file);

// Notes a fault at an address of the guard's (a description guard recorder, see above).
void RecordMemoryFault(int signo, siginfo_t* info, void* context);

// The library's address range once it is loaded (for mapping addresses to lines).
void SetLibraryRange(uintptr_t begin, uintptr_t end);

// Rewrites the trace's memory faults that were memory errors of these kinds: the kind
// (out-of-bounds), the message and the line.
void ExplainMemoryFaults(sim::Trace& trace);

// The words for a fault in the description's host code at `address`, when it was one of these
// errors ("wrote past the end of a 16-byte block from new[] (line 9) at line 12").
std::optional<std::string> ExplainHostFault(uintptr_t address);

}  // namespace ws::toolchain
