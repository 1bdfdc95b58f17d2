// The textbook kernels of tests/textbook.cuh on the GPU (ctest label "gpu"): the same source
// as the simulator runs in tests/test_dialect.cpp, with CUDA's own semantics, checked against
// the same CPU results. Skipped, with the reason, where no device is.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <type_traits>
#include <vector>

#include "kernels/dialect_cuda.h"

namespace textbook {
using namespace ::ws::dialect;
#include "tests/textbook.cuh"
}  // namespace textbook

namespace {

#define WS_CHECK(call) ASSERT_EQ((call), cudaSuccess) << #call << ": " << cudaGetErrorString(cudaGetLastError())

// A device copy of a host vector, freed on scope exit.
template <class T>
struct Device {
  T* p = nullptr;
  size_t n = 0;
  explicit Device(const std::vector<T>& host) : n(host.size()) {
    cudaMalloc(&p, n * sizeof(T));
    cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~Device() { cudaFree(p); }
  std::vector<T> Get() const {
    std::vector<T> v(n);
    cudaDeviceSynchronize();
    cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
    return v;
  }
};

bool HaveDevice() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}
#define WS_NEED_DEVICE() \
  if (!HaveDevice()) GTEST_SKIP() << "no CUDA device"

template <class T>
std::vector<T> Sorted(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<int> SignedInput() {  // as tests/test_dialect.cpp: 666 of 1000 positive
  std::mt19937 rng(7);
  std::vector<int> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = (i % 3 == 0 ? -1 : 1) * int(1 + rng() % 1000);
  return v;
}
std::vector<int> Positive(const std::vector<int>& v) {
  std::vector<int> p;
  for (int x : v)
    if (x > 0) p.push_back(x);
  return p;
}

}  // namespace

TEST(TextbookGpu, HistogramsSharedAndGlobal) {
  WS_NEED_DEVICE();
  const long n = 10000;
  std::mt19937 rng(9);
  std::vector<unsigned char> bytes(n);
  std::vector<unsigned> want(256, 0);
  for (auto& x : bytes) { x = (unsigned char)(rng() & 0xff); ++want[x]; }
  Device<unsigned char> buffer(bytes);
  Device<unsigned> h1(std::vector<unsigned>(256, 0)), h2(std::vector<unsigned>(256, 0));
  textbook::histo_shared<<<4, 256>>>(buffer.p, n, h1.p);
  textbook::histo_global<<<4, 256>>>(buffer.p, n, h2.p);
  WS_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(h1.Get(), want);
  EXPECT_EQ(h2.Get(), want);
}

TEST(TextbookGpu, StencilWithExternShared) {
  WS_NEED_DEVICE();
  const int n = 1024, r = 3;
  std::mt19937 rng(3);
  std::vector<int> padded(n + 2 * r), want(n, 0);
  for (auto& x : padded) x = int(rng() % 1999) - 999;
  for (int i = 0; i < n; ++i)
    for (int o = -r; o <= r; ++o) want[i] += padded[i + r + o];
  Device<int> in(padded), out(std::vector<int>(n, -1));
  textbook::stencil_1d<<<n / 256, 256, (256 + 2 * r) * sizeof(int)>>>(in.p + r, out.p);
  WS_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(out.Get(), want);
}

TEST(TextbookGpu, ShuffleAndBlockReductions) {
  WS_NEED_DEVICE();
  std::mt19937 rng(5);
  std::vector<float> host(1000);
  double sum = 0;
  for (auto& x : host) { x = float(1 + rng() % 9); sum += x; }
  Device<float> in(host), out(std::vector<float>{0.0f}), partial(std::vector<float>(2, -1.0f));
  textbook::reduce_warp_atomic<<<2, 128>>>(in.p, out.p, 1000);
  textbook::reduce_block<<<2, 128>>>(in.p, partial.p, 1000);
  WS_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(out.Get()[0], float(sum));
  const auto p = partial.Get();
  EXPECT_EQ(double(p[0]) + p[1], sum);
}

TEST(TextbookGpu, BallotAndAggregatedCompaction) {
  WS_NEED_DEVICE();
  const auto host = SignedInput();
  Device<int> in(host), out(std::vector<int>(1000, 0)), dst(std::vector<int>(1000, 0)),
      nres(std::vector<int>{0});
  Device<unsigned> count(std::vector<unsigned>{0});
  textbook::compact_ballot<<<8, 128>>>(in.p, out.p, count.p, 1000);
  textbook::filter_aggregated<<<8, 128>>>(dst.p, nres.p, in.p, 1000);
  WS_CHECK(cudaDeviceSynchronize());
  ASSERT_EQ(count.Get()[0], 666u);
  ASSERT_EQ(nres.Get()[0], 666);
  auto a = out.Get(), b = dst.Get();
  a.resize(666);
  b.resize(666);
  EXPECT_EQ(Sorted(a), Sorted(Positive(host)));
  EXPECT_EQ(Sorted(b), Sorted(Positive(host)));
}

namespace {
template <class T>
void AtomicCounts() {
  Device<T> g(std::vector<T>{T(0)}), g_olds(std::vector<T>(64)), s_olds(std::vector<T>(64)),
      s_final(std::vector<T>(1));
  textbook::atomic_counts<T><<<1, 64>>>(g.p, g_olds.p, s_olds.p, s_final.p);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<T> seq(64);
  for (int i = 0; i < 64; ++i) seq[i] = T(i);
  EXPECT_EQ(Sorted(g_olds.Get()), seq);
  EXPECT_EQ(Sorted(s_olds.Get()), seq);
  EXPECT_EQ(g.Get()[0], T(64));
  EXPECT_EQ(s_final.Get()[0], T(64));
}

template <class T, bool kInts, bool kSub, bool kIncDec>
void AtomicOps(bool with_negative) {
  std::mt19937 rng(11);
  std::vector<T> vals(64);
  for (auto& x : vals) {
    const int m = int(1 + rng() % 5000);
    x = with_negative && (rng() & 1) ? T(-m) : T(m);
  }
  std::vector<T> init = {T(100000), T(500), T(7), T(0), T(0x1000), T(0x5a5a), T(0), T(0), T(0), T(40)};
  if constexpr (kInts) init[3] = T(~T(0) ^ T(0x50));
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
    if constexpr (kIncDec) {
      want[7] = want[7] >= T(5) ? T(0) : T(want[7] + 1);
      want[8] = (want[8] == T(0) || want[8] > T(5)) ? T(5) : T(want[8] - 1);
    }
  }
  Device<T> v(vals), g(init), s_out(std::vector<T>(9));
  textbook::atomic_ops<T, kInts, kSub, kIncDec><<<1, 64>>>(v.p, g.p, s_out.p);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto got = g.Get(), sh = s_out.Get();
  for (int w : {0, 1, 2, 3, 4, 5, 7, 8}) {
    EXPECT_EQ(got[w], want[w]) << "global word " << w;
    EXPECT_EQ(sh[w], want[w]) << "shared word " << w;
  }
  EXPECT_EQ(got[9], want[9]);
  EXPECT_NE(std::find(vals.begin(), vals.end(), got[6]), vals.end());
  EXPECT_NE(std::find(vals.begin(), vals.end(), sh[6]), vals.end());
}
}  // namespace

TEST(TextbookGpu, EveryAtomicAsInTheSimulator) {
  WS_NEED_DEVICE();
  AtomicCounts<int>();
  AtomicCounts<unsigned>();
  AtomicCounts<unsigned long long>();
  AtomicCounts<float>();
  AtomicCounts<double>();
  AtomicOps<int, true, true, false>(true);
  AtomicOps<unsigned, true, true, true>(false);
  AtomicOps<unsigned long long, true, false, false>(false);
  AtomicOps<float, false, false, false>(true);
}

TEST(TextbookGpu, IntegerIntrinsicsVotesAndActivemask) {
  WS_NEED_DEVICE();
  std::mt19937 rng(12);
  std::vector<unsigned> in(64);
  for (auto& x : in) x = rng() | 1u << (rng() % 32);
  in[5] = 0;
  in[40] = 0x80000000u;
  Device<unsigned> g_in(in);
  Device<int> out(std::vector<int>(6 * 64, 7));
  textbook::bit_intrinsics<<<1, 64>>>(g_in.p, out.p);
  WS_CHECK(cudaDeviceSynchronize());
  const auto got = out.Get();
  for (int i = 0; i < 64; ++i) {
    const unsigned x = in[i];
    const int warp = i / 32;
    unsigned odd = 0;
    for (int l = 0; l < 32; ++l) odd |= (in[32 * warp + l] & 1u) << l;
    EXPECT_EQ(got[6 * i + 0], __builtin_popcount(x)) << i;
    EXPECT_EQ(got[6 * i + 1], x ? __builtin_ctz(x) + 1 : 0) << i;
    EXPECT_EQ(got[6 * i + 2], x ? __builtin_clz(x) : 32) << i;
    EXPECT_EQ(got[6 * i + 3], warp == 0 ? 1 : 0) << i;
    EXPECT_EQ(got[6 * i + 4], warp == 0 ? 0 : 1) << i;
    EXPECT_EQ(got[6 * i + 5], (x & 1) ? int(odd) : -1) << i;
  }
}
