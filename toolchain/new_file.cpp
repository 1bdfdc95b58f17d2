// A new kernel file from the template (toolchain/new_file.h). The template names its kernel NAME
// and itself NAME.cu; both are replaced by the new file's.
#include "toolchain/new_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "kernels/family.h"

namespace ws::toolchain {

const std::vector<std::pair<std::string, std::string>>& EmbeddedTemplate();  // generated

namespace fs = std::filesystem;
using kernels::BadRequest;

void WriteKernelTemplate(const std::string& file) {
  std::error_code ec;
  if (fs::exists(file, ec)) throw BadRequest(file + " exists; warpscope new never overwrites a file (open it with "
                                             "warpscope open " + file + ")");
  const std::string name = [&] {
    std::string s = fs::path(file).stem().string(), out;
    for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "k_" + out;
    return out;
  }();
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
}

}  // namespace ws::toolchain
