// The inputs of the textbook kernels (tests/textbook.cuh) and what the CPU says they must give:
// shared by the simulator's tests (tests/test_dialect.cpp) and the GPU's (tests/textbook_gpu.cu),
// so that both back ends are held to the same answers. C++ and GoogleTest, also compiled by nvcc.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace textbook_cpu {

template <class T>
std::vector<T> Sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// n random bytes and their histogram of 256 bins.
inline std::vector<unsigned char> HistogramInput(long n, unsigned seed, std::vector<unsigned>* want) {
  std::mt19937 rng(seed);
  std::vector<unsigned char> bytes(n);
  want->assign(256, 0);
  for (auto& x : bytes) {
    x = (unsigned char)(rng() & 0xff);
    ++(*want)[x];
  }
  return bytes;
}

// n + 2 r random ints (the padded input of the stencil) and, in want, the n sums of 2 r + 1.
inline std::vector<int> StencilInput(int n, int r, std::vector<int>* want) {
  std::mt19937 rng(3);
  std::vector<int> padded(n + 2 * r);
  for (auto& x : padded) x = int(rng() % 1999) - 999;
  want->assign(n, 0);
  for (int i = 0; i < n; ++i)
    for (int o = -r; o <= r; ++o) (*want)[i] += padded[i + r + o];
  return padded;
}

// Random integers 1..9 as floats: every sum is exact in any order.
inline std::vector<float> Digits(int n, unsigned seed, double* sum) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  *sum = 0;
  for (auto& x : v) {
    x = float(1 + rng() % 9);
    *sum += x;
  }
  return v;
}

// 1000 elements, negative where i % 3 == 0 (334 of them), positive elsewhere: 666 kept.
inline std::vector<int> SignedInput() {
  std::mt19937 rng(7);
  std::vector<int> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = (i % 3 == 0 ? -1 : 1) * int(1 + rng() % 1000);
  return v;
}
inline std::vector<int> Positive(const std::vector<int>& v) {
  std::vector<int> p;
  for (int x : v)
    if (x > 0) p.push_back(x);
  return p;
}

// atomic_ops<T, kInts, kSub, kIncDec>: 64 operands of 1..5000 (half negated where asked), the
// initial words 0-9, and what the words hold after every thread's atomics (word 6, exch, holds
// one of the operands: not predicted).
template <class T>
std::vector<T> AtomicOperands(bool with_negative) {
  std::mt19937 rng(11);
  std::vector<T> v(64);
  for (auto& x : v) {
    const int m = int(1 + rng() % 5000);
    x = with_negative && (rng() & 1) ? T(-m) : T(m);
  }
  return v;
}
template <class T, bool kInts>
std::vector<T> AtomicInit() {
  std::vector<T> init = {T(100000), T(500), T(7), T(0), T(0x1000), T(0x5a5a), T(0), T(0), T(0), T(40)};
  if constexpr (kInts) init[3] = T(~T(0) ^ T(0x50));  // and: clears bits the operands lack
  return init;
}
template <class T, bool kInts, bool kSub, bool kIncDec>
std::vector<T> AtomicWant(const std::vector<T>& init, const std::vector<T>& vals) {
  std::vector<T> want = init;
  for (T x : vals) {
    if constexpr (kSub) want[0] = T(want[0] - x);
    if constexpr (kInts) {
      want[1] = std::min(want[1], x);
      want[2] = std::max(want[2], x);
      want[3] = T(want[3] & x);
      want[4] = T(want[4] | x);
      want[5] = T(want[5] ^ x);
      want[9] = T(want[9] + 1);
    }
    if constexpr (kIncDec) {  // CUDA's atomicInc and atomicDec with a bound of 5
      want[7] = want[7] >= T(5) ? T(0) : T(want[7] + 1);
      want[8] = (want[8] == T(0) || want[8] > T(5)) ? T(5) : T(want[8] - 1);
    }
  }
  return want;
}

// Words 0-9 of global memory (`got`) and 0-8 of shared memory (`sh`) after atomic_ops.
template <class T>
void ExpectAtomicWords(const std::vector<T>& vals, const std::vector<T>& want, const std::vector<T>& got,
                       const std::vector<T>& sh) {
  for (int w : {0, 1, 2, 3, 4, 5, 7, 8}) {
    EXPECT_EQ(got[w], want[w]) << "global word " << w;
    EXPECT_EQ(sh[w], want[w]) << "shared word " << w;
  }
  EXPECT_EQ(got[9], want[9]);
  // atomicExch leaves one thread's operand.
  EXPECT_NE(std::find(vals.begin(), vals.end(), got[6]), vals.end());
  EXPECT_NE(std::find(vals.begin(), vals.end(), sh[6]), vals.end());
}

// bit_intrinsics: two warps of random words, a 0 in warp 0 (lane 5) and 0x80000000 in warp 1
// (lane 8); and the six results thread i must write.
inline std::vector<unsigned> BitWords() {
  std::mt19937 rng(12);
  std::vector<unsigned> in(64);
  for (auto& x : in) x = rng() | 1u << (rng() % 32);
  in[5] = 0;
  in[40] = 0x80000000u;
  return in;
}
inline std::vector<int> BitResults(const std::vector<unsigned>& in) {
  std::vector<int> want(6 * in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const unsigned x = in[i];
    const size_t warp = i / 32;
    unsigned odd = 0;
    for (int l = 0; l < 32; ++l) odd |= (in[32 * warp + l] & 1u) << l;
    want[6 * i + 0] = __builtin_popcount(x);
    want[6 * i + 1] = x ? __builtin_ctz(x) + 1 : 0;    // __ffs
    want[6 * i + 2] = x ? __builtin_clz(x) : 32;       // __clz
    want[6 * i + 3] = warp == 0 ? 1 : 0;               // any lane holds 0: warp 0 only
    want[6 * i + 4] = warp == 0 ? 0 : 1;               // all non-zero: warp 1 only
    want[6 * i + 5] = (x & 1) ? int(odd) : -1;         // __activemask() in the odd lanes
  }
  return want;
}

}  // namespace textbook_cpu
