// Micro-kernels that measure what the cache model needs to know about the GPU it models: which
// stores the L1 counts as hits, how long a miss stays in flight and whether other warps' misses
// merge with it, the DRAM read granularity, code and constant traffic, block placement, and the
// latencies of an L1 hit, an L2 hit and a DRAM read. A plain CUDA program (it needs clock64 and
// %smid, which kernel files do not have); tools/probes/measure_caches.sh runs it plain (the
// clock readings) and under Nsight Compute (the counters of each launch, in launch order).
//
// usage: cache_probe OUT_DIR [--ncu]   (--ncu: only the profiled launches, no L2 flushes between)
//        cache_probe --check            (exit 0 when it runs and finds a CUDA device)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cache_probe_kernels.cuh"
#include "check.cuh"

// ---- host ---------------------------------------------------------------------------------
struct Ctx {
  bool ncu = false;
  FILE* labels = nullptr;  // one line per profiled launch, in order
  FILE* clocks = nullptr;
  float* flush = nullptr;
  size_t flush_bytes = size_t(256) << 20;
  float *a = nullptr, *sink = nullptr, *big = nullptr, *y = nullptr;
  long long* rec = nullptr;
  size_t big_floats = size_t(64) << 20;  // 256 MiB
};

void Flush(Ctx& c) {
  if (c.ncu) return;  // Nsight Compute flushes the caches before each profiled launch
  CHECK(cudaMemset(c.flush, int(c.flush_bytes & 0xff) + 1, c.flush_bytes));
  CHECK(cudaDeviceSynchronize());
}
void Fresh(Ctx& c) {
  CHECK(cudaMemset(c.a, 0, size_t(1) << 20));
  CHECK(cudaMemset(c.rec, 0, 4096));
  Flush(c);
}
void Done(Ctx& c, const char* label) {
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::fprintf(c.labels, "%s\n", label);
  std::fflush(c.labels);
  if (c.ncu) return;
  long long r[64];
  CHECK(cudaMemcpy(r, c.rec, sizeof r, cudaMemcpyDeviceToHost));
  std::fprintf(c.clocks, "%s", label);
  for (int w = 0; w < 4; ++w) {
    if (!r[w * 8] && !r[w * 8 + 1]) continue;
    std::fprintf(c.clocks, " | w%d start %lld access %lld back %lld sm %lld", w, r[w * 8 + 1] - r[w * 8],
                 r[w * 8 + 2] ? r[w * 8 + 2] - r[w * 8 + 1] : -1, r[w * 8 + 2] ? r[w * 8 + 2] - r[0] : -1, r[w * 8 + 3]);
  }
  std::fprintf(c.clocks, "\n");
  std::fflush(c.clocks);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cache_probe OUT_DIR [--ncu]\n");
    return 2;
  }
  if (std::strcmp(argv[1], "--check") == 0) {  // runs here, and finds a device
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0 ? 0 : 1;
  }
  const std::string out = argv[1];
  Ctx c;
  c.ncu = argc > 2 && std::strcmp(argv[2], "--ncu") == 0;
  c.labels = std::fopen((out + (c.ncu ? "/labels_ncu.txt" : "/labels.txt")).c_str(), "w");
  c.clocks = std::fopen((out + "/clocks.txt").c_str(), c.ncu ? "a" : "w");
  if (!c.labels || !c.clocks) return 2;

  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  if (!c.ncu) {
    int clock_khz = 0, mem_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
    std::fprintf(c.clocks,
                 "device %s: %d SMs, L2 %d bytes, shared per SM %zu, per block optin %zu, regs per SM %d, "
                 "clock %d kHz, memory clock %d kHz, bus %d bits, persisting L2 max %d\n",
                 p.name, p.multiProcessorCount, p.l2CacheSize, p.sharedMemPerMultiprocessor,
                 p.sharedMemPerBlockOptin, p.regsPerMultiprocessor, clock_khz, mem_khz, p.memoryBusWidth,
                 p.persistingL2CacheMaxSize);
  }
  CHECK(cudaMalloc(&c.flush, c.flush_bytes));
  CHECK(cudaMalloc(&c.a, size_t(1) << 20));
  CHECK(cudaMalloc(&c.sink, size_t(1) << 20));
  CHECK(cudaMalloc(&c.rec, 4096));
  CHECK(cudaMalloc(&c.big, c.big_floats * 4 + 4096));
  CHECK(cudaMalloc(&c.y, size_t(8) << 20));
  CHECK(cudaMemset(c.big, 0x3f, c.big_floats * 4 + 4096));
  CHECK(cudaMemset(c.sink, 0x3f, size_t(1) << 20));
  char label[160];

  // Misses in flight, from DRAM: warp 1 `delay` cycles after warp 0.
  for (int d : {0, 50, 100, 200, 300, 400, 500, 600, 700, 800, 1000, 1500, 2000, 4000}) {
    Fresh(c);
    probe_ld2<<<1, 64>>>(c.a, c.sink, c.rec, d);
    std::snprintf(label, sizeof label, "ld2 dram delay=%d", d);
    Done(c, label);
  }
  // From L2: block 0 brings the sectors to L2, block 1's two warps read them 20000 cycles later.
  for (int d : {0, 50, 100, 150, 200, 300, 400, 600, 1000}) {
    Fresh(c);
    probe_ld2_l2<<<2, 64>>>(c.a, c.sink, c.rec, 20000, d);
    std::snprintf(label, sizeof label, "ld2 l2 delay=%d", d);
    CHECK(cudaDeviceSynchronize());
    if (!c.ncu) {
      long long r[32];
      CHECK(cudaMemcpy(r, c.rec, sizeof r, cudaMemcpyDeviceToHost));
      std::fprintf(c.clocks, "%s | block0 sm %lld lat %lld | block1 sm %lld w0 lat %lld w1 lat %lld\n", label, r[3],
                   r[2] - r[1], r[16 + 3], r[16 + 2] - r[16 + 1], r[24 + 2] - r[24 + 1]);
    }
    std::fprintf(c.labels, "%s\n", label);
  }
  for (int mode : {0, 1}) {
    Fresh(c);
    probe_ld_twice<<<1, 32>>>(c.a, c.sink, c.rec, mode);
    std::snprintf(label, sizeof label, "ld twice mode=%d", mode);
    Done(c, label);
  }
  for (int warps : {2, 4, 8, 32}) {
    Fresh(c);
    probe_ldk<<<1, 32 * warps>>>(c.a, c.sink);
    std::snprintf(label, sizeof label, "ldk warps=%d", warps);
    Done(c, label);
  }

  for (int mode : {0, 1}) {
    Fresh(c);
    probe_issue<<<1, 32>>>(c.a, c.sink, c.rec, mode);
    std::snprintf(label, sizeof label, "issue 8 loads mode=%d", mode);
    Done(c, label);
  }
  // Misses of other SMs to the same sectors: blocks * 32 threads, block b `stagger` * b later.
  for (int warm : {0, 1})
    for (int blocks : {2, 8, 32})
      for (int stagger : {0, 100, 200, 400, 800, 1600}) {
        if (warm && blocks == 32) continue;
        Fresh(c);
        probe_xsm<<<blocks + warm, 32>>>(c.a, c.sink, c.rec, stagger, warm);
        std::snprintf(label, sizeof label, "xsm %s blocks=%d stagger=%d", warm ? "l2" : "dram", blocks, stagger);
        CHECK(cudaDeviceSynchronize());
        if (!c.ncu) {
          long long r[4 * 33];
          CHECK(cudaMemcpy(r, c.rec, sizeof r, cudaMemcpyDeviceToHost));
          std::fprintf(c.clocks, "%s |", label);
          for (int b = 0; b < std::min(blocks + warm, 33); ++b) std::fprintf(c.clocks, " b%d sm%lld wait %lld lat %lld;", b, r[4 * b + 2], r[4 * b], r[4 * b + 1]);
          std::fprintf(c.clocks, "\n");
        }
        std::fprintf(c.labels, "%s\n", label);
      }

  // Stores: (pattern, threads, delay).
  struct S { int pattern, threads, delay; const char* what; };
  const S stores[] = {
      {1, 32, 0, "v2-like: 8 lines, sectors 0..3 in 4 stores"},
      {2, 32, 0, "8 sectors twice"},
      {3, 32, 0, "32 lines twice, one warp"},
      {4, 64, 0, "32 lines, 2 warps at once"},
      {4, 256, 0, "32 lines, 8 warps at once"},
      {4, 1024, 0, "32 lines, 32 warps at once"},
      {5, 64, 250, "32 lines, warp 1 250 later"},
      {5, 64, 500, "32 lines, warp 1 500 later"},
      {5, 64, 1000, "32 lines, warp 1 1000 later"},
      {5, 64, 2000, "32 lines, warp 1 2000 later"},
      {5, 64, 4000, "32 lines, warp 1 4000 later"},
      {5, 64, 10000, "32 lines, warp 1 10000 later"},
      {6, 32, 0, "one line twice, one warp"},
      {7, 64, 0, "one line, 2 warps at once"},
      {7, 64, 2000, "one line, warp 1 2000 later"},
      {8, 64, 0, "store then other warp loads"},
      {8, 64, 2000, "store then other warp loads 2000 later"},
      {9, 32, 0, "load then store"},
      {10, 32, 0, "load sector 0, store sector 1"},
      {11, 32, 0, "store then load, same warp"},
      {11, 32, 2000, "store then load 2000 later, same warp"},
      {12, 64, 0, "shortcut v2 stores (8x8 threads, n=64)"},
      {13, 256, 0, "shortcut v0 store (16x16 threads, n=64)"},
      {14, 1024, 0, "naive transpose, one 32x32 block, n=64"},
      {15, 1024, 0, "16 lines per store, 32 warps"},
      {15, 256, 0, "16 lines per store, 8 warps"},
      {16, 1024, 100, "32 lines, 32 warps, 100 apart"},
      {16, 1024, 500, "32 lines, 32 warps, 500 apart"},
      {16, 256, 2000, "32 lines, 8 warps, 2000 apart"},
      {17, 32, 500, "32 lines twice, 500 between"},
      {17, 32, 2000, "32 lines twice, 2000 between"},
      {17, 32, 10000, "32 lines twice, 10000 between"},
      {5, 64, 25, "32 lines, warp 1 25 later"},
      {5, 64, 50, "32 lines, warp 1 50 later"},
      {5, 64, 75, "32 lines, warp 1 75 later"},
      {5, 64, 100, "32 lines, warp 1 100 later"},
      {5, 64, 150, "32 lines, warp 1 150 later"},
      {5, 64, 200, "32 lines, warp 1 200 later"},
      {16, 1024, 50, "32 lines, 32 warps, 50 apart"},
      {16, 1024, 200, "32 lines, 32 warps, 200 apart"},
      {16, 1024, 300, "32 lines, 32 warps, 300 apart"},
      {18, 64, 8, "8 lines, 2 warps at once"},
      {18, 64, 16, "16 lines, 2 warps at once"},
      {18, 64, 17, "17 lines, 2 warps at once"},
      {18, 64, 20, "20 lines, 2 warps at once"},
      {18, 64, 24, "24 lines, 2 warps at once"},
      {18, 64, 28, "28 lines, 2 warps at once"},
      {18, 64, 32, "32 lines, 2 warps at once (by lane % 32)"},
      {19, 32, 12, "12 lines twice, one warp"},
      {19, 32, 16, "16 lines twice, one warp"},
      {19, 32, 17, "17 lines twice, one warp"},
      {19, 32, 24, "24 lines twice, one warp"},
      {19, 32, 32, "32 lines twice, one warp (by lane % 32)"},
      {20, 64, 0, "half a sector stored, then the whole sector loaded"},
      {21, 64, 0, "half a sector stored, then that half loaded"},
  };
  for (const S& s : stores) {
    Fresh(c);
    probe_st<<<1, s.threads>>>(c.a, c.sink, c.rec, s.pattern, s.delay);
    std::snprintf(label, sizeof label, "st p%d t%d d%d: %s", s.pattern, s.threads, s.delay, s.what);
    Done(c, label);
  }

  // DRAM granularity: 1 Mi floats read at each stride (the last from 256 MiB).
  const int n = 1 << 20;
  struct G { int stride, offset; };
  const G gs[] = {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {64, 0}, {32, 8}, {32, 16}, {32, 24}, {64, 8}, {64, 16}, {16, 8}};
  for (const G& g : gs) {
    Flush(c);
    probe_stride<<<n / 256, 256>>>(c.big, c.y, n, g.stride, g.offset);
    std::snprintf(label, sizeof label, "stride %d offset %d (n=%d)", g.stride, g.offset, n);
    Done(c, label);
  }
  for (int second : {8, 16, 24, 1}) {
    Flush(c);
    probe_pair<<<n / 256, 256>>>(c.big, c.y, n, second);
    std::snprintf(label, sizeof label, "pair second=%d (n=%d)", second, n);
    Done(c, label);
  }

  // Code, constants and pages.
  Flush(c);
  probe_empty<<<1, 32>>>();
  Done(c, "empty 1x32");
  Flush(c);
  probe_empty<<<132, 32>>>();
  Done(c, "empty 132x32");
  Flush(c);
  probe_empty<<<1056, 256>>>();
  Done(c, "empty 1056x256");
  Flush(c);
  probe_code<256><<<1, 32>>>(c.y, 1.0001f, 0.5f);
  Done(c, "code 256 ops 1x32");
  Flush(c);
  probe_code<1024><<<1, 32>>>(c.y, 1.0001f, 0.5f);
  Done(c, "code 1024 ops 1x32");
  Flush(c);
  probe_code<4096><<<1, 32>>>(c.y, 1.0001f, 0.5f);
  Done(c, "code 4096 ops 1x32");
  Flush(c);
  probe_code<4096><<<132, 32>>>(c.y, 1.0001f, 0.5f);
  Done(c, "code 4096 ops 132x32");
  for (int pages : {1, 16, 64, 127}) {
    Flush(c);
    probe_pages<<<1, 128>>>(c.big, c.y, pages);
    std::snprintf(label, sizeof label, "pages %d", pages);
    Done(c, label);
  }
  std::fclose(c.labels);
  if (c.ncu) return 0;

  // Placement: which SM each block ran on (blocks of `threads`, `shared` bytes of dynamic shared
  // memory to limit residency), and when it started.
  FILE* pf = std::fopen((out + "/placement.txt").c_str(), "w");
  unsigned *sm, *ticket;
  unsigned long long* when;
  long long* clk;
  CHECK(cudaMalloc(&sm, 4 * 8192));
  CHECK(cudaMalloc(&ticket, 4 * 8192));
  CHECK(cudaMalloc(&when, 8 * 8192));
  CHECK(cudaMalloc(&clk, 8 * 8192));
  CHECK(cudaFuncSetAttribute(place_blocks, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  struct P { int grid, threads, shared, spin; };
  const P ps[] = {{16, 256, 0, 20000}, {4, 1024, 0, 20000}, {132, 256, 0, 20000}, {256, 64, 0, 20000},
                  {256, 64, 22 * 1024, 20000}, {1056, 256, 0, 20000}, {2048, 1024, 0, 2000}, {512, 128, 0, 20000}, {64, 32, 0, 20000}, {264, 32, 0, 20000}};
  for (const P& q : ps) {
    CHECK(cudaMemset(ticket, 0, 4 * 8192));
    place_blocks<<<q.grid, q.threads, q.shared>>>(sm, when, clk, ticket, q.spin, q.shared);
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> s(q.grid), k(q.grid);
    std::vector<unsigned long long> t(q.grid);
    std::vector<long long> ck(q.grid);
    CHECK(cudaMemcpy(s.data(), sm, 4 * q.grid, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(k.data(), ticket, 4 * q.grid, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(t.data(), when, 8 * q.grid, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ck.data(), clk, 8 * q.grid, cudaMemcpyDeviceToHost));
    const unsigned long long t0 = *std::min_element(t.begin(), t.end());
    const long long c0 = *std::min_element(ck.begin(), ck.end());
    std::fprintf(pf, "grid %d threads %d shared %d: block:sm:ticket@ns:clock", q.grid, q.threads, q.shared);
    for (int b = 0; b < q.grid; ++b) std::fprintf(pf, " %d:%u:%u@%llu:%lld", b, s[b], k[b], t[b] - t0, ck[b] - c0);
    std::fprintf(pf, "\n");
  }
  std::fclose(pf);

  // Latencies (cycles per dependent load): L1 hit (8 KiB chased twice), L2 hit (.cg over 8 MiB),
  // an L1 miss that hits L2 (.ca over 8 MiB), DRAM (a cold chase over 1 GiB... 256 MiB here).
  std::mt19937 rng(1);
  auto chase = [&](size_t span_floats, size_t stride_floats, size_t count) {
    std::vector<unsigned> order(count);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin() + 1, order.end(), rng);
    std::vector<unsigned> next(span_floats, 0);
    for (size_t k = 0; k < count; ++k) next[order[k] * stride_floats] = unsigned(order[(k + 1) % count] * stride_floats);
    return next;
  };
  unsigned* dnext;
  CHECK(cudaMalloc(&dnext, c.big_floats * 4));
  long long* dout;
  CHECK(cudaMalloc(&dout, 64));
  struct L { const char* what; size_t span, stride, count; int cg; int steps; bool cold; };
  const L ls[] = {{"L1 hit (8 KiB, 32 B apart)", 2048, 8, 256, 0, 4096, false},
                  {"L2 hit .cg (8 MiB, 128 B apart)", size_t(2) << 20, 32, 65536, 1, 4096, false},
                  {"L1 miss, L2 hit .ca (8 MiB)", size_t(2) << 20, 32, 65536, 0, 4096, false},
                  {"DRAM cold (64 MiB, 4 KiB apart)", size_t(16) << 20, 1024, 16384, 0, 4096, true},
                  {"DRAM cold (256 MiB, 64 KiB apart)", size_t(64) << 20, 16384, 4096, 0, 4096, true}};
  for (const L& l : ls) {
    auto next = chase(l.span, l.stride, l.count);
    CHECK(cudaMemcpy(dnext, next.data(), next.size() * 4, cudaMemcpyHostToDevice));
    long long r[2];
    if (l.cold) {
      Flush(c);
      lat_cold<<<1, 1>>>(dnext, std::min<int>(l.steps, int(l.count)), dout);
    } else {
      lat_chase<<<1, 1>>>(dnext, l.steps, l.cg, dout);
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    const int steps = l.cold ? std::min<int>(l.steps, int(l.count)) : l.steps;
    std::fprintf(c.clocks, "latency %s: %.1f cycles per load\n", l.what, double(r[0]) / steps);
  }
  std::fclose(c.clocks);
  return 0;
}
