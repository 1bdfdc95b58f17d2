// transpose/shared_padded — the same tile with one extra column. A column of the tile now
// steps 33 words, so its 32 elements fall in 32 different banks.
// Picture: the shared read goes from 32-way to conflict-free (1 wavefront).
__global__ void transpose_SM_nobc_kernel(Global<const float> in, Global<float> out, int width, int height) {
  __shared__ Shared<float[tile_dim][tile_dim + 1]> tile;
  int x_tile_index = blockIdx.x * tile_dim;
  int y_tile_index = blockIdx.y * tile_dim;
  int x = x_tile_index + threadIdx.x, y = y_tile_index + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  int out_x = y_tile_index + threadIdx.x, out_y = x_tile_index + threadIdx.y;
  if (out_x < height && out_y < width)
    out[out_y * height + out_x] = tile[threadIdx.x][threadIdx.y];
}

WS_VARIANT(shared_padded, .order = 4, .title = "Shared-memory tile, padded",
           .watch = "tile[32][33]: the column read is conflict-free.") {
  return RunTranspose(b, r, transpose_SM_nobc_kernel, tile_dim, tile_dim, kOnePerElement);
}
