// Textbook CUDA kernels in the dialect, one or more per construct group: shared-memory atomics
// and a loaded value as a subscript (the histogram of "CUDA by Example", ch. 9), extern
// __shared__ (the 1-D stencil of NVIDIA's "CUDA C/C++ Basics"), __shfl_down_sync (the warp
// reduction of "Faster Parallel Reductions on Kepler"), __ballot_sync/__popc/__ffs and
// __activemask (stream compaction, "Optimized Filtering with Warp-Aggregated Atomics"), every
// atomic on global and shared memory, the integer intrinsics and votes. tests/test_dialect.cpp
// runs them in the simulator; tests/dialect_nvcc.cu compiles the same file with nvcc.
// No includes: the including file provides the dialect (sim/dialect.h or kernels/dialect_cuda.h).

// ---- histogram -------------------------------------------------------------------------------
constexpr int kHistoBins = 256;

// CUDA by Example's histo_kernel: a block of 256 threads counts into its own shared histogram
// with shared atomics, then adds it to the global one.
__global__ void histo_shared(Global<const unsigned char> buffer, long size, Global<unsigned> histo) {
  __shared__ Shared<unsigned[kHistoBins]> temp;
  temp[threadIdx.x] = 0;
  __syncthreads();
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int offset = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&temp[buffer[i]], 1);
    i += offset;
  }
  __syncthreads();
  atomicAdd(&histo[threadIdx.x], temp[threadIdx.x]);
}

// The same with global atomics only: histo[buffer[i]], a loaded value as the subscript.
__global__ void histo_global(Global<const unsigned char> buffer, long size, Global<unsigned> histo) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&histo[buffer[i]], 1);
    i += stride;
  }
}

// ---- 1-D stencil -----------------------------------------------------------------------------
#define RADIUS 3

// out[i] = the sum of in[i - RADIUS .. i + RADIUS]; `in` points RADIUS elements into a padded
// array. The block's window (blockDim.x + 2 * RADIUS ints) is dynamic shared memory.
__global__ void stencil_1d(Global<const int> in, Global<int> out) {
  extern __shared__ Shared<int[]> temp;
  int gindex = threadIdx.x + blockIdx.x * blockDim.x;
  int lindex = threadIdx.x + RADIUS;
  temp[lindex] = in[gindex];
  if (threadIdx.x < RADIUS) {
    temp[lindex - RADIUS] = in[gindex - RADIUS];
    temp[lindex + blockDim.x] = in[gindex + blockDim.x];
  }
  __syncthreads();
  int result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++)
    result += temp[lindex + offset];
  out[gindex] = result;
}

#undef RADIUS

// ---- warp reduction with shuffles ------------------------------------------------------------
__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

// One partial sum per warp in a shared array declared inside the helper (static __shared__, as
// the article writes it), then the first warp reduces those.
__inline__ __device__ float blockReduceSum(float val) {
  static __shared__ Shared<float[32]> shared;
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  val = warpReduceSum(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  // 0.0f where the article has 0: the dialect refuses `c ? shared[lane] : 0` (README, "The dialect").
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
  if (wid == 0)
    val = warpReduceSum(val);
  return val;
}

__global__ void reduce_block(Global<const float> in, Global<float> out, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}

// A grid-stride sum per thread, a shuffle reduction per warp, one atomicAdd per warp.
__global__ void __launch_bounds__(256) reduce_warp_atomic(Global<const float> __restrict__ in,
                                                          Global<float> out, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += __ldg(&in[i]);
  sum = warpReduceSum(sum);
  if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(out, sum);
}

// ---- stream compaction -----------------------------------------------------------------------
// Keeps the positive elements: a ballot says which lanes keep theirs, the first of them reserves
// the warp's places with one atomicAdd, a shuffle hands out the base, and each lane's place is
// the number of keeping lanes below it. Blocks are whole warps.
__global__ void compact_ballot(Global<const int> in, Global<int> out, Global<unsigned> count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int v = 0;
  if (i < n)
    v = in[i];
  bool keep = v > 0;
  unsigned ballot = __ballot_sync(0xffffffff, keep);
  int leader = __ffs(ballot) - 1;
  unsigned base = 0;
  if (lane == leader)
    base = atomicAdd(&count[0], __popc(ballot));
  base = __shfl_sync(0xffffffff, base, leader);
  if (keep)
    out[base + __popc(ballot & ((1u << lane) - 1))] = v;
}

// The warp-aggregated increment: the lanes that call it (__activemask) share one atomicAdd.
template <class P>
__device__ __forceinline__ int atomicAggInc(P ctr) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int change = __popc(active);
  unsigned rank = __popc(active & ((1u << (threadIdx.x % warpSize)) - 1));
  int warp_res = 0;
  if (rank == 0)
    warp_res = atomicAdd(ctr, change);
  warp_res = __shfl_sync(active, warp_res, leader);
  return warp_res + rank;
}

__global__ void filter_aggregated(Global<int> dst, Global<int> nres, Global<const int> src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0)
    dst[atomicAggInc(nres)] = src[i];
}

// ---- atomics ---------------------------------------------------------------------------------
// Every thread adds 1 to one global and one shared word and keeps the old values: they must be
// 0, 1, .., blockDim.x - 1 in some order (the literal 1 converts to T, as in CUDA).
template <class T>
__global__ void atomic_counts(Global<T> g, Global<T> g_olds, Global<T> s_olds, Global<T> s_final) {
  __shared__ Shared<T[1]> counter;
  unsigned t = threadIdx.x;
  if (t == 0)
    counter[0] = 0;
  __syncthreads();
  g_olds[t] = atomicAdd(&g[0], 1);
  s_olds[t] = atomicAdd(&counter[0], 1);
  __syncthreads();
  if (t == 0)
    s_final[0] = counter[0];
}

// The Programming Guide's read-compare-and-swap loop, as a template helper.
template <class P, class T>
__device__ T cas_add(P address, T val) {
  T old = *address, assumed;
  do {
    assumed = old;
    old = atomicCAS(address, assumed, assumed + val);
  } while (assumed != old);
  return old;
}

// Each thread applies the atomics CUDA has for T to words 0-8 of g and of a shared copy, with
// its own operand vals[t]: sub, min, max, and, or, xor (whose results do not depend on the
// order), exch (leaves one thread's operand), inc and dec with a bound of 5; and cas_add(1) to
// g[9].
// kInts: T is an integer type with sub/min/max/and/or/xor; kSub: it has atomicSub; kIncDec:
// unsigned. The shared words are copied to s_out at the end.
template <class T, bool kInts, bool kSub, bool kIncDec>
__global__ void atomic_ops(Global<const T> vals, Global<T> g, Global<T> s_out) {
  __shared__ Shared<T[9]> s;
  unsigned t = threadIdx.x;
  if (t < 9)
    s[t] = g[t];
  __syncthreads();
  T v = vals[t];
  if constexpr (kSub) {
    atomicSub(&g[0], v);
    atomicSub(&s[0], v);
  }
  if constexpr (kInts) {
    atomicMin(&g[1], v);
    atomicMin(&s[1], v);
    atomicMax(&g[2], v);
    atomicMax(&s[2], v);
    atomicAnd(&g[3], v);
    atomicAnd(&s[3], v);
    atomicOr(&g[4], v);
    atomicOr(&s[4], v);
    atomicXor(&g[5], v);
    atomicXor(&s[5], v);
  }
  atomicExch(&g[6], v);
  atomicExch(&s[6], v);
  if constexpr (kIncDec) {
    atomicInc(&g[7], 5);
    atomicInc(&s[7], 5);
    atomicDec(&g[8], 5);
    atomicDec(&s[8], 5);
  }
  if constexpr (kInts)
    cas_add(g + 9, T(1));
  __syncthreads();
  if (t < 9)
    s_out[t] = s[t];
}

// ---- integer intrinsics and votes ------------------------------------------------------------
// Six results per thread: __popc, __ffs, __clz of its word, whether any lane of the warp holds
// 0, whether all hold a non-zero word, and __activemask() in the lanes with an odd word (-1 in
// the others).
__global__ void bit_intrinsics(Global<const unsigned> in, Global<int> out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = in[i];
  out[6 * i + 0] = __popc(x);
  out[6 * i + 1] = __ffs(int(x));
  out[6 * i + 2] = __clz(int(x));
  out[6 * i + 3] = __any_sync(0xffffffff, x == 0);
  out[6 * i + 4] = __all_sync(0xffffffff, x != 0);
  int mask = -1;
  if (x & 1)
    mask = int(__activemask());
  out[6 * i + 5] = mask;
}
