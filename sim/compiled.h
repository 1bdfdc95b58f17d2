// What nvcc made of a kernel, read from the compiler's own text: its SASS (or, where no
// disassembler is installed, its PTX) with each instruction's source line and the loop it sits
// in, ptxas' resource usage and ptxas' messages. Parsing only; running the tools is toolchain/'s.
// Parsers: sim/sass_text.cpp (nvdisasm, cuobjdump), sim/ptx_text.cpp, sim/ptxas_text.cpp.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/trace.h"

namespace ws::sim {

// A place in a source file as the compiler's line table names it.
struct SourceLine {
  std::string file;
  uint32_t line = 0;
  bool operator==(const SourceLine&) const = default;
};

// Where an instruction's memory access goes. Generic: LD/ST/ATOM through a generic pointer (global
// or shared, decided at run time); Local: a thread's own stack (local arrays, spills).
enum class MemSpace : uint8_t { None, Global, Shared, Local, Generic };
const char* ToString(MemSpace s);

struct CompiledInstruction {
  uint32_t offset = 0;    // byte offset in the function (SASS) or the instruction's index (PTX)
  std::string text;       // as the tool printed it, predicate included, without offset and ';'
  std::string opcode;     // with its modifiers: "LDS.128", "LDG.E.128.CONSTANT", "ld.shared.v4.f32"
  std::string predicate;  // "@!P2", "@%p1"; empty when the instruction always runs
  MemSpace space = MemSpace::None;
  Op op = Op::Load;       // where space != None: Load, Store, Atomic (result used) or Reduction
  uint8_t width = 0;      // bytes per lane, where space != None
  // The source lines it came from, innermost first: an inlined function's own line, then each line
  // it was inlined at. Empty where the line table says nothing.
  std::vector<SourceLine> where;
  int loop = -1;          // the innermost loop it sits in (CompiledKernel::loops), -1: none
  int32_t branch_target = -1;  // a branch: the index of the instruction it jumps to, else -1

  bool IsMemory() const { return space != MemSpace::None; }
  // "LDS.128 ×1"-style name used in notes and listings: the opcode's first word and its width.
  std::string MemoryName() const;
};

// A loop: instructions [first, last] (indices), closed by a branch back from `last` to `first`.
struct CompiledLoop {
  uint32_t first = 0, last = 0;
  int parent = -1;  // the innermost loop that contains this one
};

// ptxas' figures for one function (`ptxas -v`); -1 where ptxas did not say.
struct ResourceUsage {
  int registers = -1;
  int barriers = -1;
  int64_t stack_bytes = -1;        // the stack frame: local arrays and spills
  int64_t spill_store_bytes = -1;
  int64_t spill_load_bytes = -1;
  int64_t shared_bytes = -1;       // static shared memory
  int64_t local_bytes = -1;        // "lmem" (older ptxas) 
  int64_t constant_bytes = -1;     // cmem[0]: the kernel's parameters and constants
  bool Known() const { return registers >= 0; }
};

// A message of ptxas (or nvcc) about the build: severity "error" or "warning"; `function` the
// (mangled) function it names, empty when none.
struct CompilerMessage {
  std::string severity;
  std::string function;
  std::string text;
};

struct CompiledKernel {
  std::string name;       // mangled, as in the cubin: "_Z7reduce4PKfPfj"
  std::string demangled;  // "reduce4(float const*, float*, unsigned int)"
  bool is_entry = true;   // a __global__ function (false: a device function not inlined)
  std::vector<CompiledInstruction> instructions;
  std::vector<CompiledLoop> loops;
  ResourceUsage usage;
};

// Which text the instructions were read from.
enum class ListingKind : uint8_t { Sass, SassNoLines, Ptx };
const char* ToString(ListingKind k);  // "SASS", "SASS without line information", "PTX"

struct CompiledModule {
  std::string arch;      // "sm_90"
  ListingKind kind = ListingKind::Sass;
  std::string tool;      // what produced the listing: "nvdisasm", "cuobjdump", "nvcc -ptx"
  std::vector<CompiledKernel> kernels;
  std::vector<CompilerMessage> messages;
  const CompiledKernel* Find(const std::string& mangled) const;
};

// ---- parsers (pure: text in, data out; never throw on malformed text, they skip what they do not know)

// `nvdisasm -c -gi` (or -g) output: functions, instructions, line table comments, labels.
std::vector<CompiledKernel> ParseNvdisasm(const std::string& text);
// `cuobjdump -sass` output: functions and instructions, no source lines.
std::vector<CompiledKernel> ParseCuobjdump(const std::string& text);
// `nvcc -ptx -lineinfo` output: entries and functions, instructions with their .loc lines.
std::vector<CompiledKernel> ParsePtx(const std::string& text);
// `ptxas -v` output (as nvcc -Xptxas -v prints it): per function its usage, and every
// error and warning. Fills `usage` by mangled name.
struct PtxasReport {
  std::vector<std::pair<std::string, ResourceUsage>> usage;
  std::vector<CompilerMessage> messages;
};
PtxasReport ParsePtxasOutput(const std::string& text);
// `cuobjdump -res-usage` output ("Function NAME:" then "REG:32 STACK:0 SHARED:5248 LOCAL:0
// CONSTANT[0]:552 ..."): per function its registers, stack, static shared, local and constant
// bytes (no spills or barriers: -1).
std::vector<std::pair<std::string, ResourceUsage>> ParseResUsage(const std::string& text);

// Classifies one SASS opcode ("LDG.E.128", "ATOMS.ADD", "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU"):
// its space, op and width (bytes per lane). Non-memory opcodes: space None.
void ClassifySass(const std::string& opcode, MemSpace* space, Op* op, uint8_t* width);
// The same for a PTX opcode ("ld.global.nc.v4.f32", "atom.shared.add.u32", "red.global.add.f32").
void ClassifyPtx(const std::string& opcode, MemSpace* space, Op* op, uint8_t* width);

// The bytes of a kernel's SASS through its last instruction that is not padding (the NOPs after
// the final BRA that align the function to 128 bytes): what the SMs fetch. 0 for a PTX listing
// (no byte offsets) or no instructions.
uint32_t CodeBytes(const CompiledKernel& k, ListingKind kind);

// Finds the loops from the branches (a branch to an earlier instruction closes one) and sets
// each instruction's innermost loop. The parsers call it; exposed for tests.
void FindLoops(CompiledKernel& k);

// Completes a parsed kernel, for every listing kind: each instruction's branch target, named
// (target_names[i], "" for none) by a label (`labels`: label -> index of the instruction after
// it) or by an offset ("0x1a0", cuobjdump's), becomes an instruction index (-1 where it names
// none); then the kernel's demangled name and its loops (FindLoops).
void ResolveBranches(CompiledKernel& k, const std::map<std::string, uint32_t>& labels,
                     const std::vector<std::string>& target_names);

// "reduce4(float const*, float*, unsigned int)" from "_Z7reduce4PKfPfj"; the name itself when
// it is not a mangled C++ name.
std::string Demangle(const std::string& mangled);
// The function's own name without parameters or namespaces: "reduce4", "reduce6<128u>".
std::string ShortName(const std::string& demangled);

}  // namespace ws::sim
