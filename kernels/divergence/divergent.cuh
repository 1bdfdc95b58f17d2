// divergence/divergent — a grid-stride loop that doubles even values and halves odd ones. The
// branch depends on the data, so the lanes of a warp split: the even ones run the first
// branch while the odd ones wait, then the other way round. (The seed declares it __device__;
// it is launched here as a kernel.)
// Picture: the branch stores run with 16 of 32 lanes each (even lanes, then odd lanes). The
// simulator also shows the reread of array[i] in each branch; nvcc keeps the value from the
// test in a register, and may turn the branch into predicated instructions.
__global__ void divergent(Global<int> array, int nNumbers) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  for (int i = idx; i < nNumbers; i += blockDim.x*gridDim.x) {
    if (array[i] % 2 == 0)
      array[i] *= 2;
    else
      array[i] /= 2;
  }
}

WS_VARIANT(divergent, .order = 1, .title = "Branch on the value's parity",
           .watch = "Even lanes run one branch, odd lanes the other: each branch store has 16 of 32 "
                    "lanes active.") {
  return RunDivergence(b, r, divergent);
}
