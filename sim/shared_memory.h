// Shared memory as the engine lays it out for a block: static arrays placed in the order of their
// first use, the extern arrays all at one address after them, and each named after its variable.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine.h"

namespace ws::sim::detail {

class SharedLayout {
 public:
  // At launch: the dynamic shared memory's bytes (the third <<<>>> argument), zeroed, with a
  // shadow word per byte.
  void SetDynamicBytes(uint64_t bytes);
  // Gives an array of `bytes` its offset, 16-byte aligned after the arrays placed so far;
  // `dynamic`: an extern array, at the address every extern array shares.
  uint64_t Place(uint64_t bytes, bool dynamic);
  uint64_t bytes() const { return bytes_; }  // per block, static and dynamic
  uint64_t static_bytes() const { return bytes_ - (dynamic_base_ == ~0ull ? 0 : dynamic_bytes_); }
  uint64_t dynamic_bytes() const { return dynamic_bytes_; }
  DynamicSharedArea DynamicArea();

 private:
  struct alignas(16) Bytes16 { unsigned char b[16]; };
  std::vector<Bytes16> dynamic_data_;
  std::vector<uint64_t> dynamic_shadow_;
  uint64_t bytes_ = 0, dynamic_bytes_ = 0;
  uint64_t dynamic_base_ = ~0ull;  // the extern arrays' address, ~0 until the first is used
};

// The variable a subscript belongs to, in the source text: `column` is the closing ']' of its
// last subscript (where the compiler puts the access's source_location). Empty if none.
std::string SharedNameAt(const std::string& text, uint32_t line, uint32_t column);

}  // namespace ws::sim::detail
