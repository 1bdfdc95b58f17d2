// Reading PTX as `nvcc -ptx -lineinfo` writes it: entries and functions, their instructions with
// the .loc lines they came from, branches and loops. Used where no disassembler is installed:
// PTX is what nvcc handed to ptxas, before ptxas' own optimisations (sim/compiled.h).
#include <map>
#include <regex>
#include <sstream>

#include "sim/compiled.h"

namespace ws::sim {

void ClassifyPtx(const std::string& opcode, MemSpace* space, Op* op, uint8_t* width) {
  *space = MemSpace::None;
  *op = Op::Load;
  *width = 0;
  std::vector<std::string> parts;
  std::istringstream in(opcode);
  for (std::string p; std::getline(in, p, '.');) parts.push_back(p);
  if (parts.empty()) return;
  const std::string& head = parts[0];
  if (head == "ld" || head == "ldu") *op = Op::Load;
  else if (head == "st") *op = Op::Store;
  else if (head == "atom") *op = Op::Atomic;
  else if (head == "red") *op = Op::Reduction;
  else if (head == "cp" && parts.size() > 1 && parts[1] == "async") *op = Op::Load;
  else return;
  MemSpace s = MemSpace::Generic;
  int vector = 1, scalar = 0;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& m = parts[i];
    if (m == "global") s = MemSpace::Global;
    else if (m == "shared" || m.rfind("shared::", 0) == 0) s = MemSpace::Shared;
    else if (m == "local") s = MemSpace::Local;
    else if (m == "param" || m == "const") return;  // kernel arguments and constants: not counted
    else if (m == "v2") vector = 2;
    else if (m == "v4") vector = 4;
    else if (m == "v8") vector = 8;
    else if (m == "b128") scalar = 16;
    else if (m == "f64" || m == "b64" || m == "u64" || m == "s64") scalar = 8;
    else if (m == "f32" || m == "b32" || m == "u32" || m == "s32" || m == "f16x2" || m == "bf16x2") scalar = 4;
    else if (m == "f16" || m == "bf16" || m == "b16" || m == "u16" || m == "s16") scalar = 2;
    else if (m == "b8" || m == "u8" || m == "s8") scalar = 1;
  }
  // cp.async.ca.shared.global: a global read whose destination is shared memory.
  if (head == "cp") s = MemSpace::Global;
  *space = s;
  *width = uint8_t(std::min(16, vector * (scalar ? scalar : 4)));
}

std::vector<CompiledKernel> ParsePtx(const std::string& text) {
  std::vector<CompiledKernel> out;
  std::map<int, std::string> files;  // .file index -> path
  static const std::regex file_re(R"re(^\s*\.file\s+(\d+)\s+"([^"]*)")re");
  static const std::regex func_re(R"(^\s*(?:\.(?:visible|weak|extern)\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$]*))");
  static const std::regex loc_re(R"(^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(.*)$)");
  static const std::regex inlined_re(R"(inlined_at\s+(\d+)\s+(\d+))");
  static const std::regex label_re(R"(^\s*(\$?[\w$]+):\s*$)");
  std::map<std::string, uint32_t> labels;
  std::vector<std::string> targets;
  std::vector<SourceLine> chain;
  int depth = 0;        // braces inside the current function
  bool in_body = false, pending = false;  // pending: a function's header was read, its body not yet
  int parens = 0;
  auto finish = [&] {
    ResolveBranches(out.back(), labels, targets);  // a PTX instruction's offset is its index
    labels.clear();
    targets.clear();
    chain.clear();
  };
  std::istringstream in(text);
  std::smatch m;
  for (std::string l; std::getline(in, l);) {
    if (const auto c = l.find("//"); c != std::string::npos) l.resize(c);
    if (!in_body) {
      if (std::regex_search(l, m, file_re)) {  // anywhere outside a function, usually at the end
        files[std::stoi(m[1].str())] = m[2].str();
        continue;
      }
      if (std::regex_search(l, m, func_re)) {
        out.emplace_back();
        out.back().name = m[2].str();
        out.back().is_entry = m[1].str() == "entry";
        pending = true;
        parens = 0;
      }
      if (!pending) continue;
      // The header's parameter lists, then either the body's '{' or, for a prototype
      // (.extern .func vprintf(...);), a ';' outside them.
      bool body = false;
      for (char ch : l) {
        if (ch == '(') ++parens;
        else if (ch == ')') --parens;
        else if (ch == '{' && parens == 0) { body = true; break; }
        else if (ch == ';' && parens == 0) { out.pop_back(); pending = false; break; }
      }
      if (!body) continue;
      in_body = true;
      pending = false;
      depth = 0;
    }
    for (char ch : l) depth += ch == '{' ? 1 : ch == '}' ? -1 : 0;
    CompiledKernel& k = out.back();
    if (std::regex_search(l, m, loc_re)) {
      // Files by index for now: nvcc writes the .file table after the functions.
      chain.assign(1, {m[1].str(), uint32_t(std::stoul(m[2].str()))});
      const std::string tail = m[3].str();
      for (std::sregex_iterator it(tail.begin(), tail.end(), inlined_re), end; it != end; ++it)
        chain.push_back({(*it)[1].str(), uint32_t(std::stoul((*it)[2].str()))});
    } else if (std::regex_match(l, m, label_re)) {
      labels[m[1].str()] = uint32_t(k.instructions.size());
    } else if (const auto semi = l.find(';'); semi != std::string::npos) {
      std::string body = l.substr(0, semi);
      const size_t a = body.find_first_not_of(" \t{}");
      if (a != std::string::npos && body[a] != '.') {
        body = body.substr(a);
        CompiledInstruction ins;
        ins.offset = uint32_t(k.instructions.size());
        if (body[0] == '@') {
          const size_t sp = body.find_first_of(" \t");
          ins.predicate = body.substr(0, sp);
          body = sp == std::string::npos ? "" : body.substr(body.find_first_not_of(" \t", sp));
        }
        ins.text = (ins.predicate.empty() ? "" : ins.predicate + " ") + body;
        ins.opcode = body.substr(0, body.find_first_of(" \t"));
        ClassifyPtx(ins.opcode, &ins.space, &ins.op, &ins.width);
        ins.where = chain;
        std::string target;
        if (ins.opcode.rfind("bra", 0) == 0) {
          target = body.substr(ins.opcode.size());
          target.erase(0, target.find_first_not_of(" \t"));
          target.erase(target.find_last_not_of(" \t") + 1);
        }
        targets.push_back(target);
        k.instructions.push_back(std::move(ins));
      }
    }
    if (depth <= 0 && l.find('}') != std::string::npos) {
      in_body = false;
      finish();
    }
  }
  if (in_body) finish();
  for (auto& k : out)
    for (auto& ins : k.instructions)
      for (auto& w : ins.where) w.file = files[std::atoi(w.file.c_str())];
  return out;
}

}  // namespace ws::sim
