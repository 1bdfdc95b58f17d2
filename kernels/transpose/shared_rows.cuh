// transpose/shared_rows — the padded tile, but a block of 32x4 threads moves the whole 32x32
// tile: each thread copies 8 elements, 4 rows apart. Eight independent loads per thread keep
// more bytes in flight, and an eighth of the threads share the index arithmetic and barrier.
// Picture: each of the 8 loads and 8 stores is one line (4 sectors); shared reads conflict-free.
__global__ void transpose_rows_kernel(Global<const float> in, Global<float> out, int width, int height) {
  __shared__ Shared<float[tile_dim][tile_dim + 1]> tile;
  int x = blockIdx.x * tile_dim + threadIdx.x;
  int y = blockIdx.y * tile_dim + threadIdx.y;
  for (int j = 0; j < tile_dim; j += block_rows)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * tile_dim + threadIdx.x;
  y = blockIdx.x * tile_dim + threadIdx.y;
  for (int j = 0; j < tile_dim; j += block_rows)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

WS_VARIANT(shared_rows, .order = 5, .title = "Padded tile, 32x4 threads, 8 elements each",
           .watch = "An eighth of the threads move the same tile: eight independent loads per thread keep "
                    "more bytes in flight. Every access as in the padded tile; near the copy's bandwidth.") {
  return RunTranspose(b, r, transpose_rows_kernel, tile_dim, block_rows,
                      "32x4 threads move a 32x32 tile, 8 elements each");
}
