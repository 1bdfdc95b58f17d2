// The spill file of the recorded sector streams (sector_stream.h): an unlinked temporary file.
#include "sim/sector_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ws::sim {

SpillFile::~SpillFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool SpillFile::Append(const uint8_t* p, size_t n, uint64_t* offset) {
  if (failed_ || (fd_ < 0 && !Open())) return false;
  *offset = end_;
  for (size_t done = 0; done < n;) {
    const ssize_t w = ::pwrite(fd_, p + done, n - done, off_t(end_ + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      failed_ = true;
      return false;
    }
    done += size_t(w);
  }
  end_ += n;
  return true;
}

void SpillFile::Read(uint64_t offset, uint8_t* p, size_t n) const {
  for (size_t done = 0; done < n;) {
    const ssize_t r = ::pread(fd_, p + done, n - done, off_t(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0)
      throw std::runtime_error(std::string("the cache model could not read back its temporary file: ") +
                               (r < 0 ? std::strerror(errno) : "it is shorter than written"));
    done += size_t(r);
  }
}

bool SpillFile::Open() {
  const char* env = std::getenv("TMPDIR");
  const std::string dir = env && *env ? env : "/tmp";
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0) {  // a file system without O_TMPFILE
    std::string name = dir + "/warpscope-replay-XXXXXX";
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd_ >= 0) ::unlink(name.c_str());
  }
  failed_ = fd_ < 0;
  return !failed_;
}

}  // namespace ws::sim
