// The kernel dialect, simulator side: compiled by the host compiler, every global and shared
// access goes through these wrappers and is recorded. kernels/dialect.h explains the dialect
// to kernel authors; kernels/dialect_cuda.h is the same vocabulary for nvcc.
// Its parts, in the order they build on each other: sim/dialect_builtins.h (keywords, built-in
// variables, vector types), sim/dialect_global.h (Global<T>), sim/dialect_shared.h (Shared<T>),
// sim/dialect_functions.h (atomics, barriers, warp-level operations, intrinsics).
#pragma once
#include "sim/dialect_builtins.h"
#include "sim/dialect_global.h"
#include "sim/dialect_shared.h"
#include "sim/dialect_functions.h"
