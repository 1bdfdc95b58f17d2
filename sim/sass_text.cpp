// Reading SASS as the disassemblers print it (nvdisasm -c -gi, cuobjdump -sass): functions,
// instructions, the line table's comments, branches and the loops they close; and the names and
// classification every listing shares (sim/compiled.h).
#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

#include "sim/compiled.h"

namespace ws::sim {

const char* ToString(MemSpace s) {
  switch (s) {
    case MemSpace::None: return "none";
    case MemSpace::Global: return "global";
    case MemSpace::Shared: return "shared";
    case MemSpace::Local: return "local";
    case MemSpace::Generic: return "generic";
  }
  return "?";
}

const char* ToString(ListingKind k) {
  switch (k) {
    case ListingKind::Sass: return "SASS";
    case ListingKind::SassNoLines: return "SASS without line information";
    case ListingKind::Ptx: return "PTX";
  }
  return "?";
}

const CompiledKernel* CompiledModule::Find(const std::string& mangled) const {
  for (const auto& k : kernels)
    if (k.name == mangled) return &k;
  return nullptr;
}

std::string CompiledInstruction::MemoryName() const {
  const std::string base = opcode.substr(0, opcode.find('.'));
  if (space == MemSpace::None) return base;
  // PTX spells the width in its type; SASS only where it is not 4 bytes. Both read as "LDS.128".
  std::string name = base;
  for (auto& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (width != 4) name += "." + std::to_string(width * 8);
  return name;
}

std::string Demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

std::string ShortName(const std::string& demangled) {
  // The parameter list: the '(' that matches the last ')'.
  std::string s = demangled;
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') ++depth;
      else if (s[i] == '(' && --depth == 0) { s.resize(i); break; }
    }
  }
  // The return type (templates spell it): the last space outside <...>; then the namespaces.
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    else if (s[i] == '>') --depth;
    else if (depth == 0 && s[i] == ' ') start = i + 1;
    else if (depth == 0 && s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') start = i + 2;
  }
  return s.substr(start);
}

void ClassifySass(const std::string& opcode, MemSpace* space, Op* op, uint8_t* width) {
  *space = MemSpace::None;
  *op = Op::Load;
  *width = 0;
  std::vector<std::string> parts;
  std::istringstream in(opcode);
  for (std::string p; std::getline(in, p, '.');) parts.push_back(p);
  if (parts.empty()) return;
  // The SASS opcodes of memory instructions (CUDA Binary Utilities, "Instruction Set Reference"):
  // LD/ST/ATOM/RED go through a generic address; Hopper's REDG names global reductions.
  static const std::map<std::string, std::pair<MemSpace, Op>> kOps = {
      {"LDG", {MemSpace::Global, Op::Load}},      {"STG", {MemSpace::Global, Op::Store}},
      {"LDS", {MemSpace::Shared, Op::Load}},      {"STS", {MemSpace::Shared, Op::Store}},
      {"LDL", {MemSpace::Local, Op::Load}},       {"STL", {MemSpace::Local, Op::Store}},
      {"LD", {MemSpace::Generic, Op::Load}},      {"ST", {MemSpace::Generic, Op::Store}},
      {"ATOMG", {MemSpace::Global, Op::Atomic}},  {"REDG", {MemSpace::Global, Op::Reduction}},
      {"ATOM", {MemSpace::Generic, Op::Atomic}},  {"RED", {MemSpace::Generic, Op::Reduction}},
      {"ATOMS", {MemSpace::Shared, Op::Atomic}},  {"LDSM", {MemSpace::Shared, Op::Load}},
      {"LDGSTS", {MemSpace::Global, Op::Load}},   // cp.async: a global read into shared memory
  };
  auto it = kOps.find(parts[0]);
  if (it == kOps.end()) return;
  *space = it->second.first;
  *op = it->second.second;
  *width = 4;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& m = parts[i];
    if (m == "U8" || m == "S8") *width = 1;
    else if (m == "U16" || m == "S16") *width = 2;
    else if (m == "64" || m == "F64" || m == "U64" || m == "S64") *width = 8;
    else if (m == "128") *width = 16;
    else if (parts[0] == "LDSM" && m == "x2") *width = 8;   // ldmatrix: 4 bytes per lane per matrix
    else if (parts[0] == "LDSM" && m == "x4") *width = 16;
  }
}

uint32_t CodeBytes(const CompiledKernel& k, ListingKind kind) {
  if (kind == ListingKind::Ptx) return 0;
  const auto& ins = k.instructions;
  size_t last = ins.size();
  while (last > 0 && ins[last - 1].opcode.rfind("NOP", 0) == 0) --last;
  if (last == 0) return 0;
  // It ends where the next instruction starts (every instruction is 16 bytes from sm_70 on).
  return last < ins.size() ? ins[last].offset : ins[last - 1].offset + 16;
}

void FindLoops(CompiledKernel& k) {
  k.loops.clear();
  std::map<uint32_t, uint32_t> by_header;  // first -> last branch back to it
  for (uint32_t i = 0; i < k.instructions.size(); ++i) {
    const int32_t t = k.instructions[i].branch_target;
    // A branch to itself is the trap after the last EXIT, not a loop.
    if (t < 0 || uint32_t(t) >= i) continue;
    auto [it, fresh] = by_header.emplace(uint32_t(t), i);
    if (!fresh) it->second = std::max(it->second, i);
  }
  for (const auto& [first, last] : by_header) k.loops.push_back({first, last, -1});
  // Outer loops first (by start, then by length, longest first), so a parent precedes its children.
  std::sort(k.loops.begin(), k.loops.end(), [](const CompiledLoop& a, const CompiledLoop& b) {
    return a.first != b.first ? a.first < b.first : a.last > b.last;
  });
  for (size_t i = 0; i < k.loops.size(); ++i)
    for (size_t j = i; j-- > 0;)
      if (k.loops[j].first <= k.loops[i].first && k.loops[i].last <= k.loops[j].last) {
        k.loops[i].parent = int(j);
        break;
      }
  for (uint32_t i = 0; i < k.instructions.size(); ++i) {
    int best = -1;
    for (size_t l = 0; l < k.loops.size(); ++l)
      if (k.loops[l].first <= i && i <= k.loops[l].last &&
          (best < 0 || k.loops[l].last - k.loops[l].first < k.loops[best].last - k.loops[best].first))
        best = int(l);
    k.instructions[i].loop = best;
  }
}

namespace {

// "@!P2 LDS R3, [R7]" -> predicate "@!P2", opcode "LDS"; "@PT" is no predicate.
void SplitSass(const std::string& body, CompiledInstruction* ins) {
  std::string rest = body;
  if (!rest.empty() && rest[0] == '@') {
    const size_t sp = rest.find(' ');
    ins->predicate = rest.substr(0, sp);
    rest = sp == std::string::npos ? "" : rest.substr(rest.find_first_not_of(' ', sp));
    if (ins->predicate == "@PT") ins->predicate.clear();
  }
  ins->opcode = rest.substr(0, rest.find(' '));
  ClassifySass(ins->opcode, &ins->space, &ins->op, &ins->width);
}

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

constexpr const char* kBlanks = " \t\n\v\f\r";  // what a pattern's \s matches
bool Blank(char c) { return c != '\0' && std::strchr(kBlanks, c) != nullptr; }

// An instruction's line, "  /*0070*/  @P0 BRA `(.L_x_1) ;": its offset's hex digits and the text
// before the first ';' (trailing blanks dropped). False for any other line. What the pattern
// ^\s*/\*([0-9a-fA-F]+)\*/\s*(.*?)\s*; matched, by hand.
bool InstructionLine(const std::string& l, std::string* offset, std::string* text) {
  size_t i = 0;
  while (i < l.size() && Blank(l[i])) ++i;
  if (l.compare(i, 2, "/*") != 0) return false;
  const size_t digits = i + 2;
  for (i = digits; i < l.size() && std::isxdigit(static_cast<unsigned char>(l[i])); ++i) {}
  if (i == digits || l.compare(i, 2, "*/") != 0) return false;
  *offset = l.substr(digits, i - digits);
  for (i += 2; i < l.size() && Blank(l[i]); ++i) {}
  const size_t semicolon = l.find(';', i);
  if (semicolon == std::string::npos) return false;
  size_t end = semicolon;
  while (end > i && Blank(l[end - 1])) --end;
  if (l.find_first_of("\n\r", i) < end) return false;  // '.' does not match a line's end
  *text = l.substr(i, end - i);
  return true;
}

// `"name", line 12` at `at` in l: the name and the digits, and where it ends; npos if not there.
size_t QuotedFileLine(const std::string& l, size_t at, std::string* file, std::string* digits) {
  if (at >= l.size() || l[at] != '"') return std::string::npos;
  const size_t close = l.find('"', at + 1);
  if (close == std::string::npos || l.compare(close, 8, "\", line ") != 0) return std::string::npos;
  size_t end = close + 8;
  while (end < l.size() && std::isdigit(static_cast<unsigned char>(l[end]))) ++end;
  if (end == close + 8) return std::string::npos;
  *file = l.substr(at + 1, close - at - 1);
  *digits = l.substr(close + 8, end - close - 8);
  return end;
}

// A line-table comment, `//## File "a.cu", line 75 inlined at "b.cu", line 96`: its location,
// then the chain it is inlined into. False for any other line. What the patterns
// ^\s*//## File "([^"]*)", line (\d+)(.*)$ and inlined at "([^"]*)", line (\d+) matched, by hand.
bool FileLine(const std::string& l, std::vector<SourceLine>* where) {
  size_t i = l.find_first_not_of(kBlanks);
  if (i == std::string::npos || l.compare(i, 10, "//## File ") != 0) return false;
  std::string file, digits;
  size_t end = QuotedFileLine(l, i + 10, &file, &digits);
  if (end == std::string::npos || l.find_first_of("\n\r", end) != std::string::npos) return false;
  where->push_back({file, uint32_t(std::stoul(digits))});
  static const std::string kInlined = "inlined at ";
  for (size_t at = l.find(kInlined, end); at != std::string::npos; at = l.find(kInlined, at + 1)) {
    const size_t after = QuotedFileLine(l, at + kInlined.size(), &file, &digits);
    if (after == std::string::npos) continue;
    where->push_back({file, uint32_t(std::stoul(digits))});
    at = after - 1;
  }
  return true;
}

// The target a BRA names: "`(.L_x_28)" or "0x1a0".
std::string BranchTarget(const CompiledInstruction& ins, const std::string& body) {
  if (ins.opcode.rfind("BRA", 0) != 0) return "";
  static const std::regex label(R"(`\(([^)]+)\))"), offset(R"(\b(0x[0-9a-fA-F]+)\b)");
  std::smatch m;
  if (std::regex_search(body, m, label)) return m[1].str();
  if (std::regex_search(body, m, offset)) return m[1].str();
  return "";
}

}  // namespace

void ResolveBranches(CompiledKernel& k, const std::map<std::string, uint32_t>& labels,
                     const std::vector<std::string>& target_names) {
  std::map<uint32_t, uint32_t> index_of_offset;
  for (uint32_t i = 0; i < k.instructions.size(); ++i) index_of_offset[k.instructions[i].offset] = i;
  for (uint32_t i = 0; i < k.instructions.size(); ++i) {
    const std::string& t = target_names[i];
    if (t.empty()) continue;
    if (auto it = labels.find(t); it != labels.end()) {
      k.instructions[i].branch_target = it->second < k.instructions.size() ? int32_t(it->second) : -1;
    } else if (t.rfind("0x", 0) == 0) {
      auto o = index_of_offset.find(uint32_t(std::strtoul(t.c_str(), nullptr, 16)));
      if (o != index_of_offset.end()) k.instructions[i].branch_target = int32_t(o->second);
    }
  }
  k.demangled = Demangle(k.name);
  FindLoops(k);
}

std::vector<CompiledKernel> ParseNvdisasm(const std::string& text) {
  std::vector<CompiledKernel> out;
  std::map<std::string, uint32_t> labels;  // label -> index of the instruction after it
  std::vector<std::string> targets;
  std::vector<SourceLine> chain;           // the line table's current location, innermost first
  bool chain_open = false;                 // the comments just read start a new chain
  static const std::regex section(R"(^\s*\.section\s+\.text\.([^,\s]+))");
  static const std::regex label_line(R"(^\s*(\.L[\w.$]*):\s*$)");
  auto close = [&] {
    if (!out.empty()) ResolveBranches(out.back(), labels, targets);
    labels.clear();
    targets.clear();
    chain.clear();
  };
  std::istringstream in(text);
  std::smatch m;
  // Each pattern is tried only on a line holding its fixed text, and the lines met most often
  // (instructions, the line table's comments) are read by hand: std::regex is slow (the catalog's
  // listing, parsed by each stats command, took 15 ms, then 9; a stats command at n = 16 took
  // 23.9 ms, now 18.1 ms, perf stat -r 10).
  const auto has = [](const std::string& l, const char* s) { return l.find(s) != std::string::npos; };
  for (std::string l; std::getline(in, l);) {
    if (has(l, ".section") && std::regex_search(l, m, section)) {
      close();
      out.emplace_back();
      out.back().name = m[1].str();
      out.back().is_entry = false;
      continue;
    }
    if (out.empty()) continue;
    CompiledKernel& k = out.back();
    if (l.find("STO_CUDA_ENTRY") != std::string::npos) {
      k.is_entry = true;
      continue;
    }
    if (std::vector<SourceLine> where; FileLine(l, &where)) {
      if (!chain_open) {
        chain.clear();
        chain_open = true;
      }
      // -gi prints "line 75 inlined at B, line 96" and then "B, line 96" itself: one chain.
      if (chain.empty() || !(chain.back() == where[0])) chain.push_back(where[0]);
      chain.insert(chain.end(), where.begin() + 1, where.end());
      continue;
    }
    if (has(l, ".L") && std::regex_match(l, m, label_line)) {
      labels[m[1].str()] = uint32_t(k.instructions.size());
      continue;
    }
    if (std::string offset, text; InstructionLine(l, &offset, &text)) {
      CompiledInstruction ins;
      ins.offset = uint32_t(std::stoul(offset, nullptr, 16));
      ins.text = Trim(text);
      SplitSass(ins.text, &ins);
      ins.where = chain;
      chain_open = false;
      targets.push_back(BranchTarget(ins, ins.text));
      k.instructions.push_back(std::move(ins));
    }
  }
  close();
  return out;
}

std::vector<CompiledKernel> ParseCuobjdump(const std::string& text) {
  std::vector<CompiledKernel> out;
  std::vector<std::string> targets;
  static const std::regex function(R"(^\s*Function\s*:\s*(\S+))");
  static const std::regex instruction(R"(^\s*/\*([0-9a-fA-F]{4,})\*/\s*(.*?)\s*;)");
  auto close = [&] {
    if (!out.empty()) ResolveBranches(out.back(), {}, targets);
    targets.clear();
  };
  std::istringstream in(text);
  std::smatch m;
  for (std::string l; std::getline(in, l);) {
    if (std::regex_search(l, m, function)) {
      close();
      out.emplace_back();
      out.back().name = m[1].str();
      continue;
    }
    if (out.empty() || !std::regex_search(l, m, instruction)) continue;
    CompiledInstruction ins;
    ins.offset = uint32_t(std::stoul(m[1].str(), nullptr, 16));
    ins.text = Trim(m[2].str());
    SplitSass(ins.text, &ins);
    targets.push_back(BranchTarget(ins, ins.text));
    out.back().instructions.push_back(std::move(ins));
  }
  close();
  return out;
}

}  // namespace ws::sim
