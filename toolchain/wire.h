// The byte format between warpscope and its kernel-file runner: variable-length integers, strings,
// and a reader that checks every length and value against what is left, so that bytes from a
// process that may have gone wrong can never make the reader overrun or allocate without bound.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ws::toolchain::wire {

// Bytes that do not read as what was expected; what() says what and where.
struct BadBytes : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Writer {
 public:
  void U64(uint64_t v) {  // LEB128
    while (v >= 0x80) {
      out_ += char(uint8_t(v) | 0x80);
      v >>= 7;
    }
    out_ += char(v);
  }
  void I64(int64_t v) { U64((uint64_t(v) << 1) ^ uint64_t(v >> 63)); }  // zigzag
  void Bool(bool b) { out_ += char(b ? 1 : 0); }
  void F64(double d) {
    uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    for (int i = 0; i < 8; ++i) out_ += char(uint8_t(u >> (8 * i)));
  }
  void Str(std::string_view s) {
    U64(s.size());
    out_.append(s);
  }
  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}
  uint64_t U64() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) Fail("ends inside a number");
      const uint8_t b = uint8_t(*p_++);
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    Fail("holds a number longer than 64 bits");
  }
  // A number that must lie in [lo, hi]; `what` names it in the error.
  uint64_t U64(uint64_t lo, uint64_t hi, const char* what) {
    const uint64_t v = U64();
    if (v < lo || v > hi) Fail(std::string(what) + " " + std::to_string(v) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
    return v;
  }
  uint32_t U32(const char* what) { return uint32_t(U64(0, UINT32_MAX, what)); }
  int64_t I64() {
    const uint64_t u = U64();
    return int64_t(u >> 1) ^ -int64_t(u & 1);
  }
  bool Bool() {
    if (p_ == end_) Fail("ends inside a flag");
    const uint8_t b = uint8_t(*p_++);
    if (b > 1) Fail("holds a flag that is neither 0 nor 1");
    return b == 1;
  }
  double F64() {
    if (end_ - p_ < 8) Fail("ends inside a floating-point number");
    uint64_t u = 0;
    for (int i = 0; i < 8; ++i) u |= uint64_t(uint8_t(*p_++)) << (8 * i);
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
  }
  std::string Str() {
    const uint64_t n = U64();
    if (n > uint64_t(end_ - p_)) Fail("holds a text longer than what is left");
    std::string s(p_, n);
    p_ += n;
    return s;
  }
  // A count of items each at least `min_bytes` long: never more than what is left can hold, so
  // that a vector is never sized from a number alone.
  size_t Count(size_t min_bytes, const char* what) {
    const uint64_t n = U64();
    if (min_bytes == 0) min_bytes = 1;
    if (n > uint64_t(end_ - p_) / min_bytes) Fail(std::string(what) + ": " + std::to_string(n) + " items cannot fit in what is left");
    return size_t(n);
  }
  bool AtEnd() const { return p_ == end_; }
  [[noreturn]] void Fail(const std::string& why) const { throw BadBytes("a message between warpscope and its runner " + why); }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace ws::toolchain::wire
