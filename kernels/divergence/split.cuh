// divergence/split — the seed's fix: one loop over the even indices, one over the odd ones, so
// no branch depends on the data. The price: each loop reads every second element.
// Picture: all 32 lanes active, but each request spans 256 bytes (8 sectors, 2 lines) for
// 128 bytes of data. (It does the same work as `divergent` only when a value's parity is
// its index's, which is how this family makes its inputs.)
__global__ void split(Global<int> array, int nNumbers) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  idx *= 2; // All even numbers
  for (int i = idx; i < nNumbers; i += blockDim.x*gridDim.x*2)
    array[i] *= 2;
  idx++; // All uneven numbers
  for (int i = idx; i < nNumbers; i += blockDim.x*gridDim.x*2)
    array[i] /= 2;
}

WS_VARIANT(split, .order = 2, .title = "Two loops, by index parity",
           .watch = "No divergence; each request reads every second int: 8 sectors for 4 sectors of data.") {
  return RunDivergence(b, r, split);
}
