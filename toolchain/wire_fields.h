// The two directions of a byte format (toolchain/wire.h) that is written once: a function of
// fields, templated on its Io, run with Out to write and with In to read (toolchain/trace_codec.cpp
// and toolchain/runner_protocol.cpp describe theirs this way).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "sim/trace.h"
#include "toolchain/wire.h"

namespace ws::toolchain::wire {

// Counters are all 64-bit counts: written word by word, so a new counter travels without a change here.
static_assert(std::is_trivially_copyable_v<sim::Counters> && sizeof(sim::Counters) % sizeof(uint64_t) == 0);
inline constexpr size_t kCounterWords = sizeof(sim::Counters) / sizeof(uint64_t);

// A format is written once, as a function of fields that both directions run: Out writes each
// value, In reads it back into the same field and checks it against the bounds given beside it
// (the bounds mean nothing to Out). Checks that span fields are `if constexpr (Io::kIn)`.
struct Out {
  static constexpr bool kIn = false;
  Writer& w;
  template <class V>
  void Num(const V& v, uint64_t = 0, uint64_t = UINT64_MAX, const char* = "") { w.U64(uint64_t(v)); }
  template <class V>
  void U32(const V& v, const char*) { w.U64(uint64_t(v)); }
  template <class V>
  void Signed(const V& v) { w.I64(int64_t(v)); }
  void Int(const int& v, const char*) { w.I64(v); }
  void Flag(const bool& b) { w.Bool(b); }
  void Real(const double& d) { w.F64(d); }
  void Text(const std::string& s) { w.Str(s); }
  // A vector's length; In sizes the vector from it (each item at least `min_bytes` on the wire).
  template <class Vec>
  void Size(const Vec& v, size_t, const char*) { w.U64(v.size()); }
  // An index into a vector of `size` or -1 (written as index + 1).
  template <class V>
  void Index(const V& i, size_t, const char*) { w.U64(uint64_t(int64_t(i) + 1)); }
  template <class D>
  void Dim(const D& d, const char*) { w.U64(d.x), w.U64(d.y), w.U64(d.z); }
  void Counters(const sim::Counters& c) {
    uint64_t words[kCounterWords];
    std::memcpy(words, &c, sizeof words);
    for (uint64_t v : words) w.U64(v);
  }
};

struct In {
  static constexpr bool kIn = true;
  Reader& r;
  template <class V>
  void Num(V& v, uint64_t lo = 0, uint64_t hi = UINT64_MAX, const char* what = "") {
    v = V(lo == 0 && hi == UINT64_MAX ? r.U64() : r.U64(lo, hi, what));
  }
  template <class V>
  void U32(V& v, const char* what) { v = V(r.U32(what)); }
  template <class V>
  void Signed(V& v) { v = V(r.I64()); }
  // An int written as a signed number, refused outside the range of an int.
  void Int(int& v, const char* what) {
    const int64_t x = r.I64();
    if (x < INT32_MIN || x > INT32_MAX) r.Fail(std::string("holds ") + what + " outside the range of an int");
    v = int(x);
  }
  void Flag(bool& b) { b = r.Bool(); }
  void Real(double& d) { d = r.F64(); }
  void Text(std::string& s) { s = r.Str(); }
  template <class Vec>
  void Size(Vec& v, size_t min_bytes, const char* what) { v.resize(r.Count(min_bytes, what)); }
  template <class V>
  void Index(V& i, size_t size, const char* what) { i = V(int64_t(r.U64(0, size, what)) - 1); }
  template <class D>
  void Dim(D& d, const char* what) { d.x = r.U32(what), d.y = r.U32(what), d.z = r.U32(what); }
  void Counters(sim::Counters& c) {
    uint64_t words[kCounterWords];
    for (uint64_t& v : words) v = r.U64();
    std::memcpy(&c, words, sizeof words);
  }
  void Check(bool ok, const std::string& why) const {
    if (!ok) r.Fail(why);
  }
};

}  // namespace ws::toolchain::wire
