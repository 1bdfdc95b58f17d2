// Fiber stacks for simulated threads: one per thread index of a block, reserved once and reused
// by every block, each above a guard region so that a kernel outgrowing it is a finding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/context/stack_context.hpp>

namespace ws::sim::detail {

// Why these stacks: a GPU thread may hold up to 512 KiB of local memory (arrays, spills) and
// may recurse, so a simulated thread needs room of that order, and a kernel that outgrows it
// must be a finding, never a crash of the program. Each thread index of a block gets its own
// stack, reserved with mmap under MAP_NORESERVE (pages are committed only when touched, so
// 1024 threads x 1 MiB cost what the kernel uses), above a PROT_NONE guard region. The build
// compiles with -fstack-clash-protection, so a frame larger than the guard still touches it
// page by page instead of jumping over it. A fault in the guard (or any fault while kernel
// code runs) reaches the fault guard (sim/fault_guard.h), on a signal stack of its own, which
// leaves the block. The size is the same in every build, sanitizer builds included: a kernel
// that fits in one fits in all.
inline constexpr size_t kStackBytes = size_t(1) << 20;
inline constexpr size_t kGuardBytes = size_t(64) << 10;

class StackPool {
 public:
  StackPool() = default;
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool();
  // Thread i's stack, made on first use and kept: every block reuses it.
  boost::context::stack_context Get(uint32_t i);
  // True if `addr` lies in the guard region below thread i's stack.
  bool InGuard(uint32_t i, const void* addr) const;
  // After a block was left in the middle: its frames' sanitizer poison must not outlive it.
  void Forget();

 private:
  std::vector<void*> stacks_;
};

// Hands thread i its stack. The pool owns it, so a fiber that is dropped without finishing
// (see EngineImpl::Abandon) loses nothing.
struct StackAllocator {
  StackPool* pool;
  uint32_t index;
  boost::context::stack_context allocate() { return pool->Get(index); }
  void deallocate(boost::context::stack_context&) noexcept {}
};

// After a siglongjmp out of a fiber back to the thread's own stack: tells the address sanitizer,
// which still believes it runs on the fiber's stack (nothing to do in other builds).
void ReturnToThreadStack();

}  // namespace ws::sim::detail
