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
#include "tests/textbook_cpu.h"

namespace textbook {
using namespace ::ws::dialect;
#include "tests/textbook.cuh"
}  // namespace textbook

namespace {
using namespace ::textbook_cpu;

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

}  // namespace

TEST(TextbookGpu, HistogramsSharedAndGlobal) {
  WS_NEED_DEVICE();
  const long n = 10000;
  std::vector<unsigned> want;
  Device<unsigned char> buffer(HistogramInput(n, 9, &want));
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
  std::vector<int> want;
  Device<int> in(StencilInput(n, r, &want)), out(std::vector<int>(n, -1));
  textbook::stencil_1d<<<n / 256, 256, (256 + 2 * r) * sizeof(int)>>>(in.p + r, out.p);
  WS_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(out.Get(), want);
}

TEST(TextbookGpu, ShuffleAndBlockReductions) {
  WS_NEED_DEVICE();
  double sum = 0;
  Device<float> in(Digits(1000, 5, &sum)), out(std::vector<float>{0.0f}), partial(std::vector<float>(2, -1.0f));
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
  const auto vals = AtomicOperands<T>(with_negative);
  const auto init = AtomicInit<T, kInts>();
  const auto want = AtomicWant<T, kInts, kSub, kIncDec>(init, vals);
  Device<T> v(vals), g(init), s_out(std::vector<T>(9));
  textbook::atomic_ops<T, kInts, kSub, kIncDec><<<1, 64>>>(v.p, g.p, s_out.p);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ExpectAtomicWords(vals, want, g.Get(), s_out.Get());
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
  const auto in = BitWords();
  Device<unsigned> g_in(in);
  Device<int> out(std::vector<int>(6 * 64, 7));
  textbook::bit_intrinsics<<<1, 64>>>(g_in.p, out.p);
  WS_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(out.Get(), BitResults(in));
}
