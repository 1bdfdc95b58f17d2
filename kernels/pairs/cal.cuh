// pairs: the work done for one pair (a[i], b[j]), shared by every variant, and the seed's
// tile length: each thread handles N_ITERATIONS elements of b, a block is that many threads.
constexpr int kIterations = 32;

__device__ inline float cal(float a, float b) { return fabsf(a - b); }
