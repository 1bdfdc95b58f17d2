// The cache probe's micro-kernels (tools/probes/cache_probe.cu runs them): misses in flight,
// stores, DRAM granularity, code and constants, block placement and latencies. Every access is
// one instruction, in program order, so the clock readings around it time that access alone.
#pragma once

// ---- device helpers: every access is one instruction, in program order --------------------
__device__ __forceinline__ long long Clock() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
  return c;
}
__device__ __forceinline__ float Ld(const float* p) {
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ float LdCg(const float* p) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void St(float* p, float v) { asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory"); }
// Waits for v (the add needs it) before anything after it issues.
__device__ __forceinline__ float Use(float v) {
  asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(v)::"memory");
  return v;
}
// 0, but the compiler cannot know it and it depends on v: an address after it waits for v.
__device__ __forceinline__ int ZeroAfter(float v) {
  int z;
  asm volatile("{ .reg .pred p; setp.eq.f32 p, %1, 0f7FFFFFFF; selp.s32 %0, 1, 0, p; }" : "=r"(z) : "f"(v) : "memory");
  return z;
}
__device__ __forceinline__ void Spin(long long cycles) {
  const long long t0 = Clock();
  while (Clock() - t0 < cycles) {
  }
}
__device__ __forceinline__ unsigned SmId() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
__device__ __forceinline__ unsigned long long GlobalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// rec: per warp 8 slots (start, before the access, after it, smid, ...).
#define LANE (threadIdx.x % 32)
#define WARP (threadIdx.x / 32)

// ---- misses in flight ---------------------------------------------------------------------
// Two warps of one block read the same 4 sectors (a[lane]); warp 1 starts `delay` cycles later.
__global__ void probe_ld2(const float* a, float* sink, long long* rec, int delay) {
  const long long t0 = Clock();
  if (WARP == 1) Spin(delay);
  const long long t1 = Clock();
  float v = Use(Ld(a + LANE));
  const long long t2 = Clock();
  sink[threadIdx.x] = v;
  if (LANE == 0) {
    rec[WARP * 8 + 0] = t0, rec[WARP * 8 + 1] = t1, rec[WARP * 8 + 2] = t2, rec[WARP * 8 + 3] = SmId();
  }
}
// The same two warps after the sectors reached L2: block 0 (one warp) reads them first; block 1
// (two warps, another SM) waits `pre` cycles, then warp 0 reads, warp 1 `delay` cycles later.
__global__ void probe_ld2_l2(const float* a, float* sink, long long* rec, int pre, int delay) {
  const long long t0 = Clock();
  if (blockIdx.x == 1) Spin(pre + (WARP == 1 ? delay : 0));
  else if (WARP == 1) return;
  const long long t1 = Clock();
  float v = Use(Ld(a + LANE));
  const long long t2 = Clock();
  sink[blockIdx.x * 64 + threadIdx.x] = v;
  if (LANE == 0) {
    long long* r = rec + blockIdx.x * 16 + WARP * 8;
    r[0] = t0, r[1] = t1, r[2] = t2, r[3] = SmId();
  }
}
// One warp reads the same sectors twice: back to back (mode 0), or the second after the first
// arrived (mode 1).
__global__ void probe_ld_twice(const float* a, float* sink, long long* rec, int mode) {
  const long long t0 = Clock();
  float v = Ld(a + LANE);
  if (mode == 1) v = Use(v);
  const long long t1 = Clock();
  float w = Use(Ld(a + LANE + (mode == 1 ? ZeroAfter(v) : 0)));
  const long long t2 = Clock();
  sink[threadIdx.x] = Use(v) + w;
  if (LANE == 0) rec[0] = t0, rec[1] = t1, rec[2] = t2;
}
// k warps (blockDim.x / 32) of one block read the same 4 sectors at once.
__global__ void probe_ldk(const float* a, float* sink) { sink[threadIdx.x] = Use(Ld(a + LANE)); }
// How fast one warp issues 8 loads (mode 0: a line each; mode 1: 32 lines each, a float per line),
// and when the last arrives.
__global__ void probe_issue(const float* a, float* sink, long long* rec, int mode) {
  float v[8];
  const long long t0 = Clock();
#pragma unroll
  for (int k = 0; k < 8; ++k) v[k] = Ld(a + (mode ? LANE * 64 + k : k * 32 + LANE));
  const long long t1 = Clock();
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += Use(v[k]);
  const long long t2 = Clock();
  sink[LANE] = s;
  if (LANE == 0) rec[0] = t0, rec[1] = t1, rec[2] = t2;
}
// One warp per block, blocks on different SMs: block b reads the same 4 sectors `stagger` * b
// cycles after it starts; with `warm`, block 0 reads them first and the others 20000 cycles later
// (the sectors are in L2 by then).
__global__ void probe_xsm(const float* a, float* sink, long long* rec, int stagger, int warm) {
  const long long t0 = Clock();
  if (warm && blockIdx.x > 0) Spin(20000);
  Spin((long long)stagger * (warm ? blockIdx.x - 1 : blockIdx.x));
  const long long t1 = Clock();
  const float v = Use(Ld(a + LANE));
  const long long t2 = Clock();
  sink[blockIdx.x * 32 + LANE] = v;
  if (LANE == 0 && blockIdx.x < 64) {
    long long* r = rec + blockIdx.x * 4;
    r[0] = t1 - t0, r[1] = t2 - t1, r[2] = SmId();
  }
}

// ---- stores -------------------------------------------------------------------------------
// `a` is zeroed and cold; rows are `rs` floats apart (256 bytes: lines two apart).
constexpr int rs = 64;
__global__ void probe_st(float* a, float* sink, long long* rec, int pattern, int delay) {
  const int lane = LANE, w = WARP;
  const long long t0 = Clock();
  switch (pattern) {
    case 1:  // one warp, 4 stores: 8 lines, sector k of each in store k (shortcut v2's stores)
      for (int k = 0; k < 4; ++k) St(a + (lane / 4) * rs + k * 8 + lane % 4, 1.0f);
      break;
    case 2:  // one warp, the same 8 sectors twice (other words)
      St(a + (lane / 4) * rs + lane % 4, 1.0f);
      St(a + (lane / 4) * rs + 4 + lane % 4, 2.0f);
      break;
    case 3:  // one warp, 32 lines one word each, twice (the naive transpose's column, twice)
      St(a + lane * rs, 1.0f);
      St(a + lane * rs + 1, 2.0f);
      break;
    case 4:  // every warp of the block: 32 lines, word w (the naive transpose's store)
      St(a + lane * rs + w, 1.0f);
      break;
    case 5:  // two warps: 32 lines; warp 1 `delay` cycles later
      if (w == 1) Spin(delay);
      St(a + lane * rs + w, 1.0f);
      break;
    case 6:  // one warp, one whole line twice
      St(a + lane, 1.0f);
      St(a + lane, 2.0f);
      break;
    case 7:  // two warps, one whole line each the same; warp 1 `delay` cycles later
      if (w == 1) Spin(delay);
      St(a + lane, float(w));
      break;
    case 8: {  // warp 0 stores a line; warp 1 reads it `delay` cycles after the barrier
      if (w == 0) St(a + lane, 1.0f);
      __syncthreads();
      if (w == 1) {
        Spin(delay);
        sink[lane] = Use(Ld(a + lane));
      }
      break;
    }
    case 9: {  // one warp: load a line, then store to it
      float v = Use(Ld(a + lane));
      St(a + lane, v);
      break;
    }
    case 10: {  // one warp: load sector 0 of 4 lines, then store sector 1 of them
      float v = Use(Ld(a + (lane / 8) * rs + lane % 8));
      St(a + (lane / 8) * rs + 8 + lane % 8, v);
      break;
    }
    case 11: {  // one warp: store a line, `delay` cycles, then load it (and the next line's sector)
      St(a + lane, 1.0f);
      Spin(delay);
      sink[lane] = Use(Ld(a + lane));
      break;
    }
    case 12: {  // shortcut v2's stores exactly: 8x8 threads, 8x8 results each, n = 64
      const int ia = threadIdx.x % 8, ja = threadIdx.x / 8;
      for (int ib = 0; ib < 8; ++ib)
        for (int jb = 0; jb < 8; ++jb) St(a + 64 * (ib * 8 + ia) + jb * 8 + ja, 1.0f);
      break;
    }
    case 13: {  // shortcut v0's store: 16x16 threads, r[n*i + j], i = x, j = y, n = 64
      const int i = threadIdx.x % 16, j = threadIdx.x / 16;
      St(a + 64 * i + j, 1.0f);
      break;
    }
    case 14: {  // the naive transpose exactly (one 32x32 block, n = 64): a row read, a column written
      const int x = threadIdx.x % 32, y = threadIdx.x / 32;
      float v = Use(Ld(sink + 4096 + y * 64 + x));
      St(a + x * 64 + y, v);
      break;
    }
    case 15:  // 16 lines per store (two words each), every warp of the block: word 2w, 2w+1
      St(a + (lane % 16) * rs + 2 * w + lane / 16, 1.0f);
      break;
    case 16:  // every warp of the block: 32 lines, word w, after `delay` * w cycles (staggered)
      Spin((long long)delay * w);
      St(a + lane * rs + w, 1.0f);
      break;
    case 18:  // two warps at once, `delay` lines each (the same lines, other words)
      St(a + (lane % delay) * rs + w * 4 + lane / delay, 1.0f);
      break;
    case 19:  // one warp, `delay` lines twice
      St(a + (lane % delay) * rs + lane / delay, 1.0f);
      St(a + (lane % delay) * rs + 4 + lane / delay, 2.0f);
      break;
    case 20: {  // warp 0 stores half of a sector (4 floats) of 8 lines; warp 1 then loads 4 whole sectors
      if (w == 0 && lane < 8) St(a + lane * rs + 0, 1.0f), St(a + lane * rs + 1, 1.0f), St(a + lane * rs + 2, 1.0f),
                              St(a + lane * rs + 3, 1.0f);
      __syncthreads();
      if (w == 1) sink[lane] = Use(Ld(a + (lane / 8) * rs + lane % 8));  // 4 lines, the whole sector
      break;
    }
    case 21: {  // the same, warp 1 loads only the floats warp 0 wrote
      if (w == 0 && lane < 8) St(a + lane * rs + 0, 1.0f), St(a + lane * rs + 1, 1.0f), St(a + lane * rs + 2, 1.0f),
                              St(a + lane * rs + 3, 1.0f);
      __syncthreads();
      if (w == 1) sink[lane] = Use(Ld(a + (lane % 8) * rs + (lane / 8) % 4));
      break;
    }
    case 17:  // one warp, 32 lines twice, `delay` cycles between
      St(a + lane * rs, 1.0f);
      Spin(delay);
      St(a + lane * rs + 1, 2.0f);
      break;
  }
  const long long t1 = Clock();
  if (lane == 0 && w < 4) rec[w * 8 + 0] = t0, rec[w * 8 + 1] = t1, rec[w * 8 + 3] = SmId();
}

// ---- DRAM granularity ---------------------------------------------------------------------
// y[i] = x[i * stride + offset]: one float per lane, `stride` floats apart.
__global__ void probe_stride(const float* x, float* y, int n, int stride, int offset) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[size_t(i) * stride + offset];
}
// Each thread reads x[i * 32] (sector 0 of line i), then, once that has arrived, the float
// `second` floats further (sector 1: the same 64-byte pair; 2 or 3: the other pair).
__global__ void probe_pair(const float* x, float* y, int n, int second) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = Use(Ld(x + size_t(i) * 32));
  const float w = Ld(x + size_t(i) * 32 + second + ZeroAfter(v));
  y[i] = v + w;
}

// ---- code, constants, pages ---------------------------------------------------------------
__global__ void probe_empty() {}
// `reps` straight-line FMAs per thread (the code grows with the template argument), one store.
template <int kOps>
__global__ void probe_code(float* y, float a, float b) {
  float v = a;
#pragma unroll
  for (int i = 0; i < kOps; ++i) v = v * a + b + float(i);
  if (threadIdx.x == 0 && blockIdx.x == 0) y[0] = v;
}
// One float in each of `pages` 2 MiB pages.
__global__ void probe_pages(const float* x, float* y, int pages) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pages) y[i] = x[size_t(i) * (2 << 20) / 4];
}

// ---- placement (not profiled) ---------------------------------------------------------------
// Records each block's SM, its start (global timer, ns; and the SM's clock) and the order in which
// blocks started (a ticket).
__global__ void place_blocks(unsigned* sm, unsigned long long* when, long long* clk, unsigned* ticket, int spin,
                             int shared) {
  extern __shared__ float pad[];
  if (threadIdx.x == 0) {
    when[blockIdx.x] = GlobalTimer();
    clk[blockIdx.x] = Clock();
    sm[blockIdx.x] = SmId();
    ticket[blockIdx.x] = atomicAdd(ticket + 8191, 1u);
    if (shared) pad[0] = 0;
  }
  Spin(spin);
}

// ---- latencies (not profiled) ---------------------------------------------------------------
// A pointer chase: next[i] holds the index of the next float; `steps` dependent loads.
__global__ void lat_chase(const unsigned* next, int steps, int cg, long long* out) {
  unsigned i = 0;
  for (int s = 0; s < steps; ++s) i = cg ? __float_as_uint(LdCg(reinterpret_cast<const float*>(next) + i))
                                         : __float_as_uint(Ld(reinterpret_cast<const float*>(next) + i));
  const long long t0 = Clock();
  for (int s = 0; s < steps; ++s) i = cg ? __float_as_uint(LdCg(reinterpret_cast<const float*>(next) + i))
                                         : __float_as_uint(Ld(reinterpret_cast<const float*>(next) + i));
  const long long t1 = Clock();
  out[0] = t1 - t0;
  out[1] = i;
}
// The first pass only: every load a cold line (after an L2 flush), so each is a DRAM read.
__global__ void lat_cold(const unsigned* next, int steps, long long* out) {
  unsigned i = 0;
  const long long t0 = Clock();
  for (int s = 0; s < steps; ++s) i = __float_as_uint(Ld(reinterpret_cast<const float*>(next) + i));
  const long long t1 = Clock();
  out[0] = t1 - t0;
  out[1] = i;
}
