// Reading a compiler's log into messages at the user's lines (toolchain/diagnostics.h).
#include "toolchain/diagnostics.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

namespace ws::toolchain {

namespace fs = std::filesystem;

std::vector<Diagnostic> ParseDiagnostics(const std::string& given_log, const std::string& file) {
  // nvcc's front end writes "file(12): error: message": read it as the host compiler's form.
  static const std::regex nvcc_re(R"(^(.*?)\((\d+)\): (error|warning)(.*)$)", std::regex::multiline);
  const std::string log = std::regex_replace(given_log, nvcc_re, "$1:$2:1: $3$4");
  static const std::regex line_re(R"(^(.*?):(\d+):(\d+): *(fatal error|error|warning|note|required from here|required from)(:?)(.*)$)");
  std::vector<Diagnostic> out;
  int ctx_line = 0, ctx_col = 0;  // the user's line named since the last message
  size_t pending = SIZE_MAX;      // a message still waiting for a line of the user's file
  std::istringstream in(log);
  std::string l;
  while (std::getline(in, l)) {
    std::smatch m;
    if (!std::regex_match(l, m, line_re)) continue;
    const bool ours = m[1].str() == file;
    const int line = std::stoi(m[2].str()), col = std::stoi(m[3].str());
    const std::string sev = m[4].str();
    if (sev != "error" && sev != "fatal error" && sev != "warning") {
      if (ours && pending != SIZE_MAX) {
        out[pending].line = line;
        out[pending].column = col;
        pending = SIZE_MAX;
      } else if (ours) {
        ctx_line = line;
        ctx_col = col;
      }
      continue;
    }
    Diagnostic d;
    d.severity = sev == "warning" ? "warning" : "error";
    d.line = ours ? line : ctx_line;
    d.column = ours ? col : ctx_col;
    d.message = m[6].str();
    if (!d.message.empty() && d.message.front() == ' ') d.message.erase(0, 1);
    if (!ours) d.message += " (in " + fs::path(m[1].str()).filename().string() + ")";
    pending = d.line == 0 ? out.size() : SIZE_MAX;
    ctx_line = ctx_col = 0;
    out.push_back(std::move(d));
  }
  return out;
}

std::string Summary(const std::string& file, const std::vector<Diagnostic>& diags, const std::string& what) {
  std::string s = what;
  int errors = 0;
  for (const auto& d : diags) {
    if (d.severity != "error") continue;
    if (errors++ < 3)
      s += "\n  " + fs::path(file).filename().string() + ":" + std::to_string(d.line) + ":" +
           std::to_string(d.column) + ": error: " + d.message;
  }
  if (errors > 3) s += "\n  (" + std::to_string(errors - 3) + " more)";
  return s;
}

// ---- hints: CUDA written where the dialect has its own form ----

namespace {

std::string Trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  return s;
}

// The dialect's form of a CUDA line the compiler refused, or "" where the line is not one of them.
std::string DialectForm(const std::string& line, const std::string& message) {
  std::smatch m;
  // CUDA's `extern __shared__ int s[];` / `__shared__ float t[32][33];`.
  static const std::regex shared_array(
      R"(^\s*((?:extern|static)\s+)?__shared__\s+(?!Shared\s*<)([A-Za-z_][\w:\s]*?)\s+(\w+)\s*((?:\[[^\]]*\]\s*)+);)");
  if (std::regex_search(line, m, shared_array)) {
    std::string dims = m[4].str();
    dims.erase(std::remove_if(dims.begin(), dims.end(), [](char c) { return c == ' ' || c == '\t'; }), dims.end());
    return "a shared array is written " + m[1].str() + "__shared__ Shared<" + Trim(m[2].str()) + dims + "> " +
           m[3].str() + ";";
  }
  // CUDA's `volatile float* vs = sdata;`: a pointer into a shared array.
  static const std::regex shared_pointer(R"(((?:volatile\s+|const\s+)*)([A-Za-z_]\w*)\s*\*\s*(\w+)\s*=\s*([^;]+);)");
  if (message.find("Shared<") != std::string::npos && std::regex_search(line, m, shared_pointer))
    return "a pointer into a shared array is written Shared<" + m[1].str() + m[2].str() + "*> " + m[3].str() +
           " = " + Trim(m[4].str()) + ";";
  return "";
}

}  // namespace

void AddDialectHints(std::vector<Diagnostic>& diagnostics, const std::string& source) {
  std::vector<std::string> lines;
  std::istringstream in(source);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  int hinted = 0;  // one hint a line
  for (auto& d : diagnostics) {
    if (d.severity != "error" || d.line <= 0 || d.line > int(lines.size()) || d.line == hinted) continue;
    const std::string form = DialectForm(lines[size_t(d.line - 1)], d.message);
    if (form.empty()) continue;
    d.message += " (in warpscope's dialect " + form + ")";
    hinted = d.line;
  }
}

}  // namespace ws::toolchain
