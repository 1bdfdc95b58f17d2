// Cache behaviour outside the lessons: every warp reading one row at once (misses in flight), a
// neighbour stencil in global memory, a column-sum that streams rows, a naive transpose of a tall
// matrix with 32x8 threads (stores rewriting lines other warps just wrote), a thread writing four
// sectors of its rows in turn, a scatter, and matrix products (naive, and tiled through shared
// memory: blocks of a row or column of tiles read the same sectors at about the same time).
// Kernel files whose cache counters the simulator must give within the bounds of
// docs/FIDELITY.md (tools/fidelity_ncu.sh, tools/fidelity_compare.py).

// Every thread of every block reads row r = i % 32 of a 32-float table, then its own element.
__global__ void shared_row(Global<const float> table, Global<const float> x, Global<float> y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = table[threadIdx.x % 32] * x[i];
}

__global__ void neighbours(Global<const float> x, Global<float> y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i < n - 1) y[i] = x[i - 1] + x[i] + x[i + 1];
}

// A thread per column sums its column: each row is read by consecutive warps, one line each.
__global__ void column_sum(Global<const float> a, Global<float> sum, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float s = 0;
  for (int r = 0; r < rows; ++r) s += a[r * cols + c];
  sum[c] = s;
}

// A 32x8 block moves a 32x32 tile, four rows per thread: out[x][y] = in[y][x].
__global__ void transpose_tall(Global<const float> in, Global<float> out, int rows, int cols) {
  int x = blockIdx.x * 32 + threadIdx.x;
  for (int k = 0; k < 32; k += 8) {
    int y = blockIdx.y * 32 + threadIdx.y + k;
    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
  }
}

// Each thread owns 4 floats in each of 4 sectors of 8 rows (shortcut v2's stores, out of their
// lesson): 8 threads a row, 4 consecutive floats each, the 4 sectors written one after another.
__global__ void rows_in_turn(Global<const float> x, Global<float> y, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 2, half = t % 2;
  for (int s = 0; s < 4; ++s) {
    int i = row * 32 + s * 8 + half * 4;
    for (int e = 0; e < 4; ++e)
      if (i + e < n) y[i + e] = 2 * x[i + e];
  }
}

// y[perm[i]] = x[i]: isolated sectors written and read (perm is a fixed scrambling of i).
__global__ void scatter(Global<const float> x, Global<float> y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[(i * 97) % n] = x[i];
}

// C = A B, n x n, a thread per element of C.
__global__ void matmul_naive(Global<const float> a, Global<const float> b, Global<float> c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

// The same through 16x16 tiles of A and B in shared memory (n a multiple of 16).
constexpr int kTile = 16;
__global__ void matmul_tiled(Global<const float> a, Global<const float> b, Global<float> c, int n) {
  __shared__ Shared<float[kTile][kTile]> as;
  __shared__ Shared<float[kTile][kTile]> bs;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float sum = 0;
  for (int t = 0; t < n / kTile; ++t) {
    as[ty][tx] = a[row * n + t * kTile + tx];
    bs[ty][tx] = b[(t * kTile + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

WS_KERNEL(shared_row, .title = "every warp reads one row of a table", .teaching_n = 65536, .timing_n = 65536) {
  auto table = k.Input<const float>("table", 32);
  auto x = k.Input<const float>("x", k.n);
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), shared_row, table, x, y, k.n);
}

WS_KERNEL(neighbours, .title = "y[i] = x[i-1] + x[i] + x[i+1] in global memory", .teaching_n = 65536,
          .timing_n = 65536) {
  auto x = k.Input<const float>("x", k.n);
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), neighbours, x, y, k.n);
}

WS_KERNEL(column_sum, .title = "column sums, a thread per column", .teaching_n = 512, .timing_n = 512) {
  auto a = k.Input<const float>("a", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto sum = k.Output<float>("sum", k.n);
  k.Launch(dim3(CeilDiv(k.n, 128)), dim3(128), column_sum, a, sum, k.n, k.n);
}

WS_KERNEL(transpose_tall, .title = "naive transpose of a 2n x n matrix, 32x8 threads", .teaching_n = 256,
          .timing_n = 256) {
  auto in = k.Input<const float>("in", int64_t(2 * k.n) * k.n, 0, 0, 2 * k.n, k.n);
  auto out = k.Output<float>("out", int64_t(2 * k.n) * k.n, k.n, 2 * k.n);
  k.Launch(dim3(CeilDiv(k.n, 32), CeilDiv(2 * k.n, 32)), dim3(32, 8), transpose_tall, in, out, 2 * k.n, k.n);
}

WS_KERNEL(rows_in_turn, .title = "each thread writes 4 sectors of its rows in turn", .teaching_n = 65536,
          .timing_n = 65536) {
  auto x = k.Input<const float>("x", k.n);
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n / 16, 64)), dim3(64), rows_in_turn, x, y, k.n);
}

WS_KERNEL(scatter, .title = "scatter to (97 i) mod n", .teaching_n = 65536, .timing_n = 65536) {
  auto x = k.Input<const float>("x", k.n);
  auto y = k.Output<float>("y", k.n);
  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), scatter, x, y, k.n);
}

WS_KERNEL(matmul_naive, .title = "C = A B, a thread per element, 16x16 blocks", .teaching_n = 256,
          .timing_n = 256) {
  auto a = k.Input<const float>("a", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto b = k.Input<const float>("b", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto c = k.Output<float>("c", int64_t(k.n) * k.n, k.n, k.n);
  k.Launch(dim3(CeilDiv(k.n, 16), CeilDiv(k.n, 16)), dim3(16, 16), matmul_naive, a, b, c, k.n);
}

WS_KERNEL(matmul_tiled, .title = "C = A B through 16x16 shared tiles", .teaching_n = 256, .timing_n = 256) {
  auto a = k.Input<const float>("a", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto b = k.Input<const float>("b", int64_t(k.n) * k.n, 0, 0, k.n, k.n);
  auto c = k.Output<float>("c", int64_t(k.n) * k.n, k.n, k.n);
  k.Launch(dim3(k.n / kTile, k.n / kTile), dim3(kTile, kTile), matmul_tiled, a, b, c, k.n);
}
