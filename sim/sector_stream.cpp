// The recorded sector streams (sector_stream.h): the spill file, an unlinked temporary file; a
// warp's records encoded; and a wave's streams as they are recorded.
// Section index: spill file · a warp's records · a wave's streams
#include "sim/sector_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

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

// ---- a warp's records ---------------------------------------------------------------------
size_t EncodeRecord(WarpStream& w, uint32_t site, uint32_t op, int64_t trace_index, const uint64_t* s, int n) {
  uint8_t record[kMaxRecordBytes];
  uint8_t* p = PutVarint(record, (uint64_t(site) + 1) << 3 | uint64_t(op) << 1 | (trace_index >= 0));
  if (trace_index >= 0) p = PutVarint(p, uint64_t(trace_index));
  p = PutVarint(p, uint64_t(n));
  uint64_t& last = w.last[site % kSiteSlots];
  p = PutVarint(p, ZigZag(int64_t(s[0] - last)));
  last = s[0];
  for (int i = 1; i < n; ++i) p = PutVarint(p, s[i] - s[i - 1] - 1);
  auto& b = w.bytes;
  const size_t before = b.capacity();
  b.insert(b.end(), record, p);
  return b.capacity() - before;
}

size_t EncodeBarrier(WarpStream& w) {
  const size_t before = w.bytes.capacity();
  w.bytes.push_back(0);
  return w.bytes.capacity() - before;
}

// ---- a wave's streams ---------------------------------------------------------------------
void WaveStreams::Begin(uint64_t block, uint32_t sm, uint32_t warps) {
  BlockStream b;
  b.block = block;
  b.sm = sm;
  b.warps.resize(warps);
  blocks_.push_back(std::move(b));
}

void WaveStreams::Append(uint32_t warp, uint32_t site, uint32_t op, int64_t trace_index, const uint64_t* s, int n) {
  buffered_ += EncodeRecord(blocks_.back().warps[warp], site, op, trace_index, s, n);
  if (buffered_ > budget_) Spill();
}

void WaveStreams::Barrier() {
  for (auto& w : blocks_.back().warps) buffered_ += EncodeBarrier(w);
  if (buffered_ > budget_) Spill();
}

void WaveStreams::Adopt(std::vector<WarpStream>&& warps, std::vector<uint32_t> sites) {
  BlockStream& b = blocks_.back();
  b.warps = std::move(warps);
  // Where the other thread met the sites in the launch's order (most launches), the ids are the
  // launch's: no map, so the replay reads none at each turn (a load that missed the CPU's cache
  // at 16% of IssueRecord<true>'s samples).
  bool same = true;
  for (uint32_t i = 0; i < sites.size() && same; ++i) same = sites[i] == i;
  if (same) sites.clear();
  b.sites = std::move(sites);
  for (const WarpStream& w : b.warps) buffered_ += w.bytes.capacity();
  if (buffered_ > budget_) Spill();
}

void WaveStreams::Cut(uint32_t warp) {
  auto& cut = blocks_.back().cut;
  cut.resize(blocks_.back().warps.size(), 0);
  cut[warp] = 1;
}

void WaveStreams::Clear() {
  blocks_.clear();
  buffered_ = 0;
}

void WaveStreams::Spill() {
  if (!spill_.usable()) return;
  for (auto& b : blocks_)
    for (auto& w : b.warps) {
      if (w.bytes.empty()) continue;
      uint64_t offset = 0;
      if (!spill_.Append(w.bytes.data(), w.bytes.size(), &offset)) return;  // keep them here
      w.spilled.push_back({offset, w.bytes.size()});
      buffered_ -= w.bytes.capacity();
      std::vector<uint8_t>().swap(w.bytes);
    }
}

}  // namespace ws::sim
