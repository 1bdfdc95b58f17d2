// transpose/shared — stage a 32x32 tile in shared memory, so that both the global read and the
// global write run along rows. The tile is read down a column: every lane of a warp hits the
// same bank.
// Picture: global loads and stores 4 sectors each; the shared read is a 32-way bank conflict.
__global__ void transpose_SM_kernel(Global<const float> in, Global<float> out, int width, int height) {
  __shared__ Shared<float[tile_dim][tile_dim]> tile;
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

WS_VARIANT(shared, .order = 3, .title = "Shared-memory tile",
           .watch = "Both global sides coalesced; the tile is read down a column: a 32-way bank conflict.") {
  return RunTranspose(b, r, transpose_SM_kernel, tile_dim, tile_dim, kOnePerElement);
}
