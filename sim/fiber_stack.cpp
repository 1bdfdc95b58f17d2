// Fiber stacks for simulated threads (see sim/fiber_stack.h): mmap'd with a guard region below.
#include "sim/fiber_stack.h"

#include <pthread.h>
#include <sys/mman.h>

#include <new>

#if defined(BOOST_USE_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace ws::sim::detail {

StackPool::~StackPool() {
  // The stacks' frames leave their redzones' poison behind; memory handed back to the system must
  // not keep it, or the next mapping at that address (a thread's stack and its thread_local
  // arrays) reads as a dead frame to the address sanitizer.
  Forget();
  for (void* p : stacks_)
    if (p) munmap(p, kGuardBytes + kStackBytes);
}

boost::context::stack_context StackPool::Get(uint32_t i) {
  if (i >= stacks_.size()) stacks_.resize(i + 1, nullptr);
  if (!stacks_[i]) {
    void* p = mmap(nullptr, kGuardBytes + kStackBytes, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (mprotect(static_cast<char*>(p) + kGuardBytes, kStackBytes, PROT_READ | PROT_WRITE) != 0) {
      munmap(p, kGuardBytes + kStackBytes);
      throw std::bad_alloc();
    }
    stacks_[i] = p;
  }
  boost::context::stack_context sc;
  sc.size = kStackBytes;
  sc.sp = static_cast<char*>(stacks_[i]) + kGuardBytes + kStackBytes;
  return sc;
}

bool StackPool::InGuard(uint32_t i, const void* addr) const {
  if (i >= stacks_.size() || !stacks_[i]) return false;
  const auto a = reinterpret_cast<uintptr_t>(addr), lo = reinterpret_cast<uintptr_t>(stacks_[i]);
  return a >= lo && a < lo + kGuardBytes;
}

void StackPool::Forget() {
#if defined(BOOST_USE_ASAN)
  for (void* p : stacks_)
    if (p) __asan_unpoison_memory_region(static_cast<char*>(p) + kGuardBytes, kStackBytes);
#endif
}

void ReturnToThreadStack() {
#if defined(BOOST_USE_ASAN)
  static thread_local void* lo = nullptr;
  static thread_local size_t size = 0;
  if (!lo) {
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
      pthread_attr_getstack(&a, &lo, &size);
      pthread_attr_destroy(&a);
    }
  }
  __sanitizer_start_switch_fiber(nullptr, lo, size);
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
  // The frames the leave skipped on this stack (the scheduler's, below the guard) keep their
  // redzones' poison: everything below this frame is dead now.
  volatile char here = 0;
  char* const end = const_cast<char*>(&here);
  if (lo && end > static_cast<char*>(lo)) __asan_unpoison_memory_region(lo, size_t(end - static_cast<char*>(lo)));
#endif
}

}  // namespace ws::sim::detail
