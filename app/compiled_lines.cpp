// Finding a simulated variant's kernel in nvcc's listing and comparing the two (compiled_lines.h).
#include "app/compiled_lines.h"

#include <set>
#include <sstream>

#include "kernels/user_file.h"
#include "toolchain/compiled.h"

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

CompilerView CompareWithNvcc(const kernels::VariantRef& v, const sim::Trace& t, const std::string& arch_flag) {
  CompilerView out;
  const std::string& file = v.variant->source;
  toolchain::CompiledFile built;
  try {
    out.arch = toolchain::TargetArch(arch_flag);
    if (v.family->from_file)
      built = toolchain::CompileForListing(file, file, kernels::KernelSource(file), out.arch);
    else
      built = toolchain::CatalogListing(out.arch);
  } catch (const std::exception& e) {
    out.status = std::string("no compiled code to compare with: ") + e.what();
    return out;
  }
  const auto& m = built.module;
  out.tool = m.tool;
  const sim::CompiledKernel* k = KernelOf(m, file, t);
  if (!k) {
    out.status = "no compiled code to compare with: the " + std::string(sim::ToString(m.kind)) + " by " + m.tool +
                 " has no function with code from " + file +
                 (m.kind == sim::ListingKind::Sass ? "" : " (the listing has no source lines)");
    return out;
  }
  out.available = true;
  out.kernel = *k;
  for (const auto& msg : m.messages)
    if (msg.function.empty() || msg.function == k->name) out.messages.push_back(msg);
  out.comparison = sim::CompareWithCompiled(t, *k, file);
  out.status = "as compiled by nvcc for " + m.arch + " (" + sim::ToString(m.kind) + " by " + m.tool + ")";
  if (!built.note.empty()) out.status += "; " + built.note;
  return out;
}

}  // namespace ws::app
