// `warpscope sass` (see sass_command.h).
#include "app/sass_command.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <vector>

#include "app/compiled_lines.h"
#include "kernels/catalog.h"
#include "kernels/user_file.h"
#include "toolchain/cache.h"
#include "toolchain/compiled.h"

namespace ws::app {

namespace {

namespace fs = std::filesystem;
using sim::CompiledInstruction;
using sim::CompiledKernel;

// The line table's `name` is `file`: the same path, or (a catalog variant's source, built in
// another folder) one that ends in "/" + file.
bool IsFile(const std::string& name, const std::string& file) {
  return name == file || (name.size() > file.size() && name.compare(name.size() - file.size(), file.size(), file) == 0 &&
                          name[name.size() - file.size() - 1] == '/');
}

// The instruction's line in `file` (the innermost of its inlining chain there), 0 when none.
uint32_t LineIn(const CompiledInstruction& ins, const std::string& file) {
  for (const auto& w : ins.where)
    if (IsFile(w.file, file)) return w.line;
  return 0;
}

// "4 B load global" for a memory instruction, "" for another.
std::string MemoryText(const CompiledInstruction& ins) {
  if (!ins.IsMemory()) return "";
  return std::to_string(ins.width) + " B " + sim::ToString(ins.op) + " " + sim::ToString(ins.space);
}

// The kernels of the module `kernel` names (by its name without parameters or template
// arguments); all entries when it is empty. A name that fits none throws, naming those there are.
std::vector<const CompiledKernel*> Selected(const sim::CompiledModule& m, const std::string& kernel,
                                            const std::string& given) {
  std::vector<const CompiledKernel*> out;
  std::string known;
  for (const auto& k : m.kernels) {
    if (!k.is_entry) continue;
    std::string s = sim::ShortName(k.demangled);
    const std::string plain = s.substr(0, s.find('<'));
    known += (known.empty() ? "" : ", ") + s;
    if (kernel.empty() || kernel == s || kernel == plain || kernel == k.name) out.push_back(&k);
  }
  if (out.empty())
    throw kernels::BadRequest(given + " has no __global__ function " + (kernel.empty() ? "" : "'" + kernel + "'") +
                              (known.empty() ? "" : "; there are: " + known));
  return out;
}

// The catalog's functions with code from `file` (a variant's .cuh); none where the listing has no
// source lines.
std::vector<const CompiledKernel*> WithCodeFrom(const sim::CompiledModule& m, const std::string& file) {
  std::vector<const CompiledKernel*> out;
  for (const auto& k : m.kernels) {
    if (!k.is_entry) continue;
    for (const auto& ins : k.instructions)
      if (LineIn(ins, file)) {
        out.push_back(&k);
        break;
      }
  }
  return out;
}

// The same, or an error that says why there are none.
std::vector<const CompiledKernel*> FromFile(const sim::CompiledModule& m, const std::string& file, const std::string& id) {
  std::vector<const CompiledKernel*> out = WithCodeFrom(m, file);
  if (out.empty())
    throw kernels::BadRequest("the GPU build has no function with code from " + file + " (" + id +
                              (m.kind == sim::ListingKind::Sass ? ")" : "; the listing has no source lines)"));
  return out;
}

nlohmann::json InstructionJson(const CompiledInstruction& ins, const std::string& file) {
  nlohmann::json j{{"offset", ins.offset}, {"text", ins.text}, {"opcode", ins.opcode}, {"line", LineIn(ins, file)}};
  if (!ins.predicate.empty()) j["predicate"] = ins.predicate;
  if (ins.IsMemory()) {
    j["space"] = sim::ToString(ins.space);
    j["op"] = sim::ToString(ins.op);
    j["width"] = ins.width;
  }
  if (ins.loop >= 0) j["loop"] = ins.loop;
  return j;
}

nlohmann::json UsageJson(const sim::ResourceUsage& u) {
  return {{"registers", u.registers},         {"barriers", u.barriers},
          {"stack_bytes", u.stack_bytes},     {"spill_store_bytes", u.spill_store_bytes},
          {"spill_load_bytes", u.spill_load_bytes}, {"shared_bytes", u.shared_bytes},
          {"local_bytes", u.local_bytes},     {"constant_bytes", u.constant_bytes}};
}

}  // namespace

int Sass(const std::string& what, const std::string& arch_flag, bool all, bool json, std::ostream& out) {
  std::string given, kernel, file, text;
  toolchain::CompiledFile built;
  std::vector<const CompiledKernel*> chosen;
  if (kernels::IsKernelFileRef(what)) {
    kernels::SplitKernelFileRef(what, &given, &kernel);
    std::error_code ec;
    if (fs::is_directory(given, ec)) throw kernels::BadRequest(given + " is a folder, not a kernel file");
    file = fs::absolute(given).lexically_normal().string();
    text = toolchain::ReadText(file);
    built = toolchain::CompileForListing(file, given, text, toolchain::TargetArch(arch_flag));
    chosen = Selected(built.module, kernel, given);
  } else {  // a catalog variant: this program's own GPU build of it
    const auto v = kernels::FindVariant(what);
    given = file = v.variant->source;
    text = kernels::KernelSource(file);
    built = toolchain::CatalogListing(toolchain::TargetArch(arch_flag));
    chosen = FromFile(built.module, file, v.Id());
  }
  const auto& m = built.module;

  std::vector<std::string> source;  // the file's lines, for the listing
  {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) source.push_back(l);
  }
  auto source_line = [&](uint32_t line) {
    if (line == 0 || line > source.size()) return std::string();
    std::string s = source[line - 1];
    s.erase(0, s.find_first_not_of(" \t"));
    return s;
  };

  if (json) {
    nlohmann::json j{{"file", given}, {"arch", m.arch}, {"listing", sim::ToString(m.kind)}, {"tool", m.tool},
                     {"cached", built.reused}, {"all", all}};
    if (!built.note.empty()) j["note"] = built.note;
    j["messages"] = nlohmann::json::array();
    for (const auto& msg : m.messages)
      j["messages"].push_back({{"severity", msg.severity}, {"function", msg.function}, {"text", msg.text}});
    j["kernels"] = nlohmann::json::array();
    for (const auto* k : chosen) {
      nlohmann::json jk{{"name", k->name}, {"demangled", k->demangled}, {"usage", UsageJson(k->usage)}};
      jk["instructions"] = nlohmann::json::array();
      for (const auto& ins : k->instructions)
        if (all || ins.IsMemory()) jk["instructions"].push_back(InstructionJson(ins, file));
      j["kernels"].push_back(std::move(jk));
    }
    out << j.dump(1) << "\n";
    for (const auto& msg : m.messages)
      if (msg.severity == "error") return 1;
    return 0;
  }

  out << given << " for " << m.arch << ": " << sim::ToString(m.kind) << " by " << m.tool
      << (built.reused ? " (cached)" : "") << "\n";
  if (!built.note.empty()) out << "note: " << built.note << "\n";
  bool refused = false;
  for (const auto& msg : m.messages) {
    out << msg.severity << ": " << msg.text << "\n";
    refused |= msg.severity == "error";
  }
  for (const auto* k : chosen) {
    out << "\n" << k->demangled << "\n  " << UsageText(k->usage) << "\n";
    if (!all) {
      // Memory instructions grouped by source line, lines in order.
      std::map<uint32_t, std::vector<const CompiledInstruction*>> by_line;
      for (const auto& ins : k->instructions)
        if (ins.IsMemory()) by_line[LineIn(ins, file)].push_back(&ins);
      if (by_line.empty()) out << "  no memory instructions\n";
      for (const auto& [line, list] : by_line) {
        out << "  line " << line;
        if (line == 0) out << " (outside " << given << ")";
        else out << ": " << source_line(line);
        out << "\n";
        for (const auto* ins : list)
          out << "    " << std::left << std::setw(44) << ins->text << " " << MemoryText(*ins)
              << (ins->predicate.empty() ? "" : ", predicated") << (ins->loop >= 0 ? ", in a loop" : "") << "\n";
      }
      continue;
    }
    uint32_t last = ~0u;
    for (const auto& ins : k->instructions) {
      const uint32_t line = LineIn(ins, file);
      if (line != last && line != 0) out << "  line " << line << ": " << source_line(line) << "\n";
      if (line != 0) last = line;
      out << "    /*" << std::hex << std::setw(4) << std::setfill('0') << std::right << ins.offset << std::dec
          << std::setfill(' ') << "*/ " << std::left << std::setw(44) << ins.text << " " << MemoryText(ins) << "\n";
    }
  }
  return refused ? 1 : 0;
}

uint32_t CatalogCodeBytes(const std::string& variant_id, const std::string& arch) {
  // The catalog's listing is the same for the whole process (it is this executable's code): each
  // variant's figure is worked out once. A GUI's two simulation lanes may ask at once.
  static std::mutex mutex;
  static std::map<std::string, uint32_t> known;  // arch + " " + variant id -> bytes
  static std::map<std::string, std::shared_ptr<const toolchain::CompiledFile>> listings;
  std::lock_guard lock(mutex);
  const std::string key = arch + " " + variant_id;
  if (auto it = known.find(key); it != known.end()) return it->second;
  uint32_t bytes = 0;
  if (kernels::IsKernelFileRef(variant_id)) return 0;  // a user's file: compiled for the host only
  try {
    const auto v = kernels::FindVariant(variant_id);
    if (!v.family->from_file) {
      auto& listing = listings[arch];
      if (!listing) listing = std::make_shared<const toolchain::CompiledFile>(toolchain::CatalogListing(arch));
      for (const auto* k : WithCodeFrom(listing->module, v.variant->source))
        bytes += sim::CodeBytes(*k, listing->module.kind);
    }
  } catch (const std::exception&) {
    bytes = 0;  // no cuobjdump, or no code for arch: the code is not known
  }
  known[key] = bytes;
  return bytes;
}

}  // namespace ws::app
