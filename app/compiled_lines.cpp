// Finding a simulated variant's kernel in nvcc's listing and comparing the two (compiled_lines.h).
#include "app/compiled_lines.h"

#include <set>
#include <sstream>

#include "kernels/user_file.h"
#include "toolchain/compiled.h"
#include "toolchain/diagnostics.h"

namespace ws::app {

std::string UsageText(const sim::ResourceUsage& u) {
  if (!u.Known()) return "ptxas gave no resource usage";
  auto bytes = [](int64_t b) { return b < 0 ? std::string("?") : std::to_string(b) + " B"; };
  std::ostringstream o;
  o << u.registers << " registers per thread, stack " << bytes(u.stack_bytes);
  if (u.spill_store_bytes >= 0) o << ", spill stores " << bytes(u.spill_store_bytes);
  if (u.spill_load_bytes >= 0) o << ", spill loads " << bytes(u.spill_load_bytes);
  o << ", static shared " << bytes(u.shared_bytes < 0 ? 0 : u.shared_bytes);
  if (u.barriers >= 0) o << ", " << u.barriers << " barriers";
  return o.str();
}

const sim::CompiledKernel* KernelOf(const sim::CompiledModule& m, const std::string& file, const sim::Trace& t) {
  std::set<uint32_t> counted;
  for (const auto& [line, c] : t.per_line) counted.insert(line);
  const sim::CompiledKernel* best = nullptr;
  int best_score = -1;
  for (const auto& k : m.kernels) {
    if (!k.is_entry) continue;
    std::set<uint32_t> lines, memory_lines;
    for (const auto& ins : k.instructions)
      for (const auto& w : ins.where)
        if (sim::IsSameFile(w.file, file)) {
          lines.insert(w.line);
          if (ins.IsMemory()) memory_lines.insert(w.line);
          break;
        }
    if (lines.empty()) continue;
    int score = 0;
    for (uint32_t l : memory_lines) score += counted.count(l) ? 2 : -1;
    if (score > best_score) best = &k, best_score = score;
  }
  return best;
}

CompiledListing ListingFor(const kernels::VariantRef& v, const std::string& arch_flag) {
  CompiledListing out;
  out.file = v.variant->source;
  toolchain::CompiledFile built;
  try {
    out.arch = toolchain::TargetArch(arch_flag);
    if (v.family->from_file)
      built = toolchain::CompileForListing(out.file, out.file, kernels::KernelSource(out.file), out.arch);
    else
      built = toolchain::CatalogListing(out.arch);
  } catch (const toolchain::KernelFileError& e) {
    // nvcc or ptxas refused the file for the GPU (the simulator's build took it): ptxas' errors.
    for (const auto& m : sim::ParsePtxasOutput(e.log()).messages)
      if (m.severity == "error") out.refusals.push_back(m);
    out.status = std::string("nvcc refuses it for ") + out.arch + ": " +
                 (out.refusals.empty() ? std::string(e.what()) : out.refusals.front().text);
    return out;
  } catch (const std::exception& e) {
    out.status = std::string("no compiled code to compare with: ") + e.what();
    return out;
  }
  out.available = true;
  out.module = std::move(built.module);
  out.note = built.note;
  out.status = "as compiled by nvcc for " + out.module.arch + " (" + sim::ToString(out.module.kind) + " by " +
               out.module.tool + ")" + (out.note.empty() ? "" : "; " + out.note);
  return out;
}

namespace {

// The variant's kernel without a trace: the only entry with code from the file, else the one
// whose name is the variant's.
const sim::CompiledKernel* KernelWithoutTrace(const CompiledListing& l, const kernels::VariantRef& v) {
  std::vector<const sim::CompiledKernel*> from_file;
  for (const auto& k : l.module.kernels) {
    if (!k.is_entry) continue;
    bool here = false;
    for (const auto& ins : k.instructions)
      for (const auto& w : ins.where) here |= sim::IsSameFile(w.file, l.file);
    if (here) from_file.push_back(&k);
  }
  if (from_file.size() == 1) return from_file.front();
  for (const auto* k : from_file) {
    const std::string s = sim::ShortName(k->demangled);
    if (s == v.variant->name || s.substr(0, s.find('<')) == v.variant->name) return k;
  }
  return nullptr;
}

// The first line of `file` a kernel's code comes from (its opening line), 0 when none.
uint32_t FirstLine(const sim::CompiledKernel& k, const std::string& file) {
  uint32_t first = 0;
  for (const auto& ins : k.instructions)
    for (const auto& w : ins.where)
      if (sim::IsSameFile(w.file, file) && w.line && (!first || w.line < first)) first = w.line;
  return first;
}

// The line of `text` that declares the __global__ function `name`, 0 when none.
uint32_t DeclarationLine(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  uint32_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    const size_t at = line.find(name);
    if (at == std::string::npos || line.find("__global__") == std::string::npos) continue;
    const size_t after = line.find_first_not_of(" \t", at + name.size());
    if (after != std::string::npos && line[after] == '(') return n;
  }
  return 0;
}

}  // namespace

uint32_t ListingRegisters(const CompiledListing& l, const kernels::VariantRef& v) {
  if (!l.available) return 0;
  const auto* k = KernelWithoutTrace(l, v);
  return k && k->usage.registers > 0 ? uint32_t(k->usage.registers) : 0;
}

CompilerView Compare(const CompiledListing& l, const kernels::VariantRef& v, const sim::Trace& t) {
  CompilerView out;
  out.status = l.status;
  out.arch = l.arch;
  if (!l.available) {
    out.messages = l.refusals;
    return out;
  }
  const auto& m = l.module;
  out.tool = m.tool;
  const sim::CompiledKernel* k = KernelOf(m, l.file, t);
  if (!k) k = KernelWithoutTrace(l, v);
  if (!k) {
    out.status = "no compiled code to compare with: the " + std::string(sim::ToString(m.kind)) + " by " + m.tool +
                 " has no function with code from " + l.file +
                 (m.kind == sim::ListingKind::Sass ? "" : " (the listing has no source lines)");
    return out;
  }
  out.available = true;
  out.kernel = *k;
  for (const auto& msg : m.messages)
    if (msg.function.empty() || msg.function == k->name) out.messages.push_back(msg);
  out.comparison = sim::CompareWithCompiled(t, *k, l.file);
  sim::AsCompiled(t, out.comparison, &out.as_compiled);
  return out;
}

CompilerView CompareWithNvcc(const kernels::VariantRef& v, const sim::Trace& t, const std::string& arch_flag) {
  return Compare(ListingFor(v, arch_flag), v, t);
}

int AddCompilerFindings(const CompiledListing& l, const CompilerView& view, sim::Trace& t) {
  // A limit the simulator found itself (static shared memory over the block's) is said once.
  for (const auto& f : t.findings)
    if (f.kind == sim::FindingKind::LaunchLimit) return 0;
  std::vector<std::pair<uint32_t, std::string>> add;  // line, message
  for (const auto& msg : l.refusals) {
    const uint32_t line =
        msg.function.empty() ? 0 : DeclarationLine(kernels::KernelSource(l.file), sim::ShortName(sim::Demangle(msg.function)));
    add.push_back({line, "nvcc refuses the kernel for " + l.arch + " (ptxas: " + msg.text +
                             "): a GPU cannot run it, whatever the simulator shows"});
  }
  if (view.available)
    for (const auto& msg : view.messages)
      if (msg.severity == "error")
        add.push_back({FirstLine(view.kernel, l.file), msg.text + " (ptxas' figure for " + l.arch +
                                                            "): a GPU refuses the launch, whatever the simulator shows"});
  for (const auto& [line, text] : add) {
    sim::Finding f;
    f.kind = sim::FindingKind::LaunchLimit;
    f.scope = sim::FindingScope::Launch;
    f.message = text;
    if (line) {
      t.sites.push_back({l.file, line, 0});
      f.site = int(t.sites.size() - 1);
    }
    t.findings.push_back(std::move(f));
  }
  return int(add.size());
}

}  // namespace ws::app
