// transpose/naive — out[x][y] = in[y][x], one element per thread. Reads run along a row
// (coalesced); writes run down a column, `height` floats apart.
// Picture: the load covers 4 sectors; the store covers 32 sectors in 32 lines (ideal 4).
__global__ void transpose_naive_kernel(Global<const float> in, Global<float> out, int width, int height) {
  int x_index = blockIdx.x * tile_dim + threadIdx.x;
  int y_index = blockIdx.y * tile_dim + threadIdx.y;
  if (x_index < width && y_index < height) {
    int in_index = y_index * width + x_index;
    int out_index = x_index * height + y_index;
    out[out_index] = in[in_index];
  }
}

WS_VARIANT(naive, .order = 2, .title = "Naive transpose",
           .watch = "Reads along rows, writes down columns: each store touches 32 sectors in 32 lines.") {
  return RunTranspose(b, r, transpose_naive_kernel, tile_dim, tile_dim, kOnePerElement);
}
