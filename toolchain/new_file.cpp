// A new kernel file from the template (toolchain/new_file.h). The template names its kernel NAME
// and itself NAME.cu; both are replaced by the new file's.
#include "toolchain/new_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <utility>
#include <vector>

#include "kernels/family.h"
#include "toolchain/headers.h"

namespace ws::toolchain {

const std::vector<std::pair<std::string, std::string>>& EmbeddedTemplate();  // generated

namespace fs = std::filesystem;
using kernels::BadRequest;

namespace {

bool IdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The identifiers of C++ text outside its comments and string literals.
void AddIdentifiers(const std::string& text, std::set<std::string>& out) {
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) break;
      i += 2;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (IdentifierChar(c) && !std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < text.size() && IdentifierChar(text[j])) ++j;
      out.insert(text.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
}

// Names the kernel cannot take: C++'s keywords and main, and every identifier the template's code
// or the headers a kernel file is compiled with use (x, n, k, block, stride, Global, dim3, ...),
// any of which the kernel's name would hide or be hidden by.
const std::set<std::string>& TakenNames() {
  static const std::set<std::string> names = [] {
    std::set<std::string> s = {
        "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
        "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
        "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
        "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
        "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
        "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
        "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
        "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
        "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "main"};
    std::string code = EmbeddedTemplate().front().second;
    for (size_t p; (p = code.find("NAME")) != std::string::npos;) code.replace(p, 4, " ");
    AddIdentifiers(code, s);
    for (const auto& [path, text] : EmbeddedHeaders()) AddIdentifiers(text, s);
    return s;
  }();
  return names;
}

}  // namespace

std::string KernelNameFor(const std::string& file, std::string* taken) {
  std::string out;
  for (char c : fs::path(file).stem().string()) out += IdentifierChar(c) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "k_" + out;
  if (taken) taken->clear();
  if (TakenNames().count(out)) {
    if (taken) *taken = out;
    out += "_kernel";
  }
  return out;
}

std::string WriteKernelTemplate(const std::string& file) {
  std::error_code ec;
  if (fs::exists(file, ec)) throw BadRequest(file + " exists; warpscope new never overwrites a file (open it with "
                                             "warpscope open " + file + ")");
  const std::string name = KernelNameFor(file);
  std::string t = EmbeddedTemplate().front().second;
  for (size_t p; (p = t.find("NAME")) != std::string::npos;) t.replace(p, 4, name);
  // The file's own name in the comments, as given.
  const std::string base = fs::path(file).filename().string();
  for (size_t p = 0; (p = t.find(name + ".cu", p)) != std::string::npos; p += base.size()) t.replace(p, name.size() + 3, base);
  // Created exclusively: a file that appears between the check and here is not overwritten.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) throw BadRequest("cannot create " + file + ": " + std::strerror(errno));
  const ssize_t w = ::write(fd, t.data(), t.size());
  ::close(fd);
  if (w != ssize_t(t.size())) throw BadRequest("cannot write " + file);
  return name;
}

}  // namespace ws::toolchain
