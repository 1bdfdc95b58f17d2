// NAME.cu — a kernel for warpscope: `warpscope open NAME.cu` shows how its warps touch memory;
// the program recompiles it on every save. The kernel is CUDA with three differences:
//   const float* p              ->  Global<const float> p        (a pointer to global memory)
//   __shared__ float s[32][33]; ->  __shared__ Shared<float[32][33]> s;
//   reinterpret_cast<float4*>   ->  global_cast<float4>(p)
// No #include is needed. A file may hold several kernels, each with its own WS_KERNEL below;
// name one on the command line as NAME.cu:kernel_name.

// Each thread reads one float of x at a stride and writes it, scaled, to y.
// Try stride 1 (coalesced: a warp's 32 floats are 4 sectors) against 2 or 32.
__global__ void NAME(Global<float> y, Global<const float> x, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[(i * stride) % n];
}

// The description: what warpscope allocates, how it launches the kernel, and (optionally) what
// the CPU says the result must be. It runs on the host with `k` in scope; k.n is the size.
// Fields of WS_KERNEL, in this order, all but .title optional:
//   .title, .watch (what to look at), .teaching_n (n for pictures), .timing_n (n on the GPU),
//   .max_n (largest n simulated), .size_meaning, .family_title
WS_KERNEL(NAME, .title = "Scaled copy at a stride",
          .watch = "stride 1: 32 lanes read 4 sectors; stride 2: 8 sectors for the same 128 bytes",
          .teaching_n = 1000, .timing_n = 1 << 24, .max_n = 1 << 24, .size_meaning = "n floats") {
  const int n = k.n;
  const int stride = 2;
  auto x = k.Input<const float>("x", n);   // random floats in [0.25, 4), never zero
  auto y = k.Output<float>("y", n);        // filled with NaN before the launch
  const int block = 256;
  k.Launch(dim3((n + block - 1) / block), dim3(block), NAME, y, x, n, stride);

  // The CPU reference (optional): the run passes when y holds exactly this.
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) want[i] = 2.0f * k.Host(x)[(i * stride) % n];
  k.Expect(y, want);
}
