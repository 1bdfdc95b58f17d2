// The textbook kernels of tests/textbook.cuh compiled by nvcc through kernels/dialect_cuda.h:
// the same source must be CUDA (ctest Dialect.TextbookCompilesWithNvcc, where nvcc is found).
#include <type_traits>

#include "kernels/dialect_cuda.h"

namespace textbook {
using namespace ::ws::dialect;
#include "tests/textbook.cuh"

template __global__ void atomic_counts<int>(int*, int*, int*, int*);
template __global__ void atomic_counts<unsigned>(unsigned*, unsigned*, unsigned*, unsigned*);
template __global__ void atomic_counts<unsigned long long>(unsigned long long*, unsigned long long*,
                                                           unsigned long long*, unsigned long long*);
template __global__ void atomic_counts<float>(float*, float*, float*, float*);
template __global__ void atomic_counts<double>(double*, double*, double*, double*);
template __global__ void atomic_ops<int, true, true, false>(const int*, int*, int*);
template __global__ void atomic_ops<unsigned, true, true, true>(const unsigned*, unsigned*, unsigned*);
template __global__ void atomic_ops<unsigned long long, true, false, false>(const unsigned long long*,
                                                                            unsigned long long*,
                                                                            unsigned long long*);
template __global__ void atomic_ops<float, false, false, false>(const float*, float*, float*);
}  // namespace textbook
