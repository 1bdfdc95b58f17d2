// transpose/copy — the baseline. Each thread copies one element to the same place: reads and
// writes are both coalesced, and no transposing happens. This is the bandwidth to aim for.
// Picture: a warp reads one 128-byte line of `in` and writes one line of `out` (4 sectors each).
__global__ void copy_kernel(Global<const float> in, Global<float> out, int width, int height) {
  int x_index = blockIdx.x * tile_dim + threadIdx.x;
  int y_index = blockIdx.y * tile_dim + threadIdx.y;
  if (x_index < width && y_index < height) {
    int index = y_index * width + x_index;
    out[index] = in[index];
  }
}

WS_VARIANT(copy, .order = 1, .title = "Copy (baseline, no transpose)",
           .watch = "Reads and writes along rows: the bandwidth every transpose should approach.") {
  return RunTranspose(b, r, copy_kernel, tile_dim, tile_dim, kOnePerElement, /*copy=*/true);
}
