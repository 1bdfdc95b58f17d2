// Reading `ptxas -v` as nvcc prints it (-Xptxas -v): each function's registers, stack, spills,
// shared and constant bytes, and ptxas' errors and warnings with the function they name.
#include <regex>
#include <sstream>

#include "sim/compiled.h"

namespace ws::sim {

namespace {

ResourceUsage& UsageOf(PtxasReport& r, const std::string& name) {
  for (auto& [n, u] : r.usage)
    if (n == name) return u;
  r.usage.emplace_back(name, ResourceUsage{});
  return r.usage.back().second;
}

// "Used 14 registers, used 1 barriers, 512 bytes smem, 352 bytes cmem[0], 16 bytes lmem" and
// "0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads": each figure by its words.
void ReadFigures(const std::string& list, ResourceUsage& u) {
  static const std::regex figure(R"((\d+)\s+(bytes\s+)?([A-Za-z][A-Za-z\[\]0-9 ]*))");
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    std::smatch m;
    if (!std::regex_search(item, m, figure)) continue;
    const int64_t v = std::stoll(m[1].str());
    std::string what = m[3].str();
    while (!what.empty() && what.back() == ' ') what.pop_back();
    if (what == "registers") u.registers = int(v);
    else if (what == "barriers") u.barriers = int(v);
    else if (what == "smem") u.shared_bytes = v;
    else if (what == "lmem") u.local_bytes = v;
    else if (what == "cmem[0]") u.constant_bytes = v;
    else if (what == "stack frame") u.stack_bytes = v;
    else if (what == "spill stores") u.spill_store_bytes = v;
    else if (what == "spill loads") u.spill_load_bytes = v;
  }
}

}  // namespace

PtxasReport ParsePtxasOutput(const std::string& text) {
  PtxasReport r;
  static const std::regex compiling(R"(Compiling (?:entry )?function '([^']+)')");
  static const std::regex properties(R"(Function properties for (\S+))");
  static const std::regex used(R"(Used (\d+ registers.*)$)");
  static const std::regex message(R"(^\s*ptxas\s+(error|warning|fatal)\s*:\s*(.*?)\s*$)");
  static const std::regex quoted(R"('([^']+)')"), entry_word(R"(\bentry (\S+))");
  std::string current;
  bool expect_frame = false;  // "Function properties" puts the stack figures on the next line
  std::istringstream in(text);
  std::smatch m;
  for (std::string l; std::getline(in, l);) {
    if (expect_frame) {
      expect_frame = false;
      if (l.find("stack frame") != std::string::npos) {
        ReadFigures(l, UsageOf(r, current));
        continue;
      }
    }
    if (std::regex_search(l, m, message)) {
      CompilerMessage msg;
      msg.severity = m[1].str() == "warning" ? "warning" : "error";
      msg.text = m[2].str();
      if (std::regex_search(msg.text, m, quoted) || std::regex_search(msg.text, m, entry_word))
        msg.function = m[1].str();
      r.messages.push_back(std::move(msg));
    } else if (std::regex_search(l, m, compiling)) {
      current = m[1].str();
      UsageOf(r, current);
    } else if (std::regex_search(l, m, properties)) {
      current = m[1].str();
      expect_frame = true;
    } else if (std::regex_search(l, m, used) && !current.empty()) {
      ReadFigures(m[1].str(), UsageOf(r, current));
    }
  }
  return r;
}

}  // namespace ws::sim

namespace ws::sim {

std::vector<std::pair<std::string, ResourceUsage>> ParseResUsage(const std::string& text) {
  static const std::regex function(R"(^\s*Function\s+([^:\s]+):)");
  static const std::regex figure(R"(([A-Z]+(?:\[\d+\])?):(\d+))");
  std::vector<std::pair<std::string, ResourceUsage>> out;
  std::istringstream in(text);
  bool expect_figures = false;
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_search(l, m, function)) {
      out.emplace_back(m[1].str(), ResourceUsage{});
      expect_figures = true;
      continue;
    }
    if (!expect_figures) continue;
    expect_figures = false;
    ResourceUsage& u = out.back().second;
    for (auto it = std::sregex_iterator(l.begin(), l.end(), figure); it != std::sregex_iterator(); ++it) {
      const std::string what = (*it)[1].str();
      const int64_t v = std::stoll((*it)[2].str());
      if (what == "REG") u.registers = int(v);
      else if (what == "STACK") u.stack_bytes = v;
      else if (what == "SHARED") u.shared_bytes = v;
      else if (what == "LOCAL") u.local_bytes = v;
      else if (what == "CONSTANT[0]") u.constant_bytes = v;
    }
  }
  return out;
}

}  // namespace ws::sim
