// The check that blocks of a launch on several threads do not see each other through global
// memory (GlobalShadow, declared in sim/parallel_run.h's [SECTION] blocks that see each other).
#include <cstdlib>
#include <cstring>
#include <new>

#include "sim/parallel_run.h"

namespace ws::sim::detail {

// ---- [SECTION] blocks that see each other -------------------------------------------------
GlobalShadow::GlobalShadow(uint64_t base, uint64_t bytes) {
  base_ = base;
  words_ = (bytes + 3) / 4;
  // calloc: pages of words never touched are never committed.
  shadow_ = static_cast<uint32_t*>(std::calloc(std::max<uint64_t>(words_, 1), sizeof(uint32_t)));
  if (!shadow_) throw std::bad_alloc();
}
GlobalShadow::~GlobalShadow() { std::free(shadow_); }

// Each word's states change by compare-and-swap, so of two blocks touching one word from two
// threads, the later one in the word's order sees the earlier one.
void GlobalShadow::Load(uint64_t word, uint32_t tag) {
  std::atomic_ref<uint32_t> a(shadow_[word]);
  uint32_t s = a.load(std::memory_order_relaxed);
  for (;;) {
    if ((s & kBlock) == tag) return;  // this block's
    if (s & kWritten) return Flag(kData);
    if (s & kShared) return;
    if (a.compare_exchange_weak(s, s == 0 ? tag : kShared, std::memory_order_relaxed)) return;
  }
}

void GlobalShadow::Store(uint64_t word, uint32_t tag) {
  std::atomic_ref<uint32_t> a(shadow_[word]);
  uint32_t s = a.load(std::memory_order_relaxed);
  for (;;) {
    if (s == (tag | kWritten)) return;
    if (s != 0 && s != tag) return Flag(kData);  // another block read or wrote it
    if (a.compare_exchange_weak(s, tag | kWritten, std::memory_order_relaxed)) {
      if (first_write) first_write(first_write_context, word);
      return;
    }
  }
}

// The common cases cost a load and a compare: a word this block touched already, a word several
// blocks only read.
void GlobalShadow::Check(uint64_t addr, uint32_t width, bool store, uint32_t block) {
  if (addr < base_) return;
  const uint32_t tag = (block + 1) & kBlock;
  const uint64_t last = (addr - base_ + width - 1) >> 2;
  for (uint64_t w = (addr - base_) >> 2; w <= last && w < words_; ++w) {
    const uint32_t s = __atomic_load_n(&shadow_[w], __ATOMIC_RELAXED);
    if (store ? s == (tag | kWritten) : ((s & kBlock) == tag || s == kShared)) continue;
    if (store) Store(w, tag);
    else Load(w, tag);
  }
}

void GlobalShadow::SetConst(const std::vector<ArrayInfo>& arrays, const std::vector<int>& ids) {
  for (const ArrayInfo& a : arrays)
    if (a.space == Space::Global && a.id >= 64) return;  // ShadowWords::Const reads ids modulo 64
  for (int id : ids) {
    const ArrayInfo& a = arrays.at(size_t(id));
    const_arrays |= uint64_t(1) << id;
    const_ranges_.push_back({a.base, a.base + uint64_t(a.elem_bytes) * a.count});
  }
}

void GlobalShadow::Commit(const std::vector<ArrayInfo>& arrays) {
  for (const ArrayInfo& a : arrays) {
    if (a.space != Space::Global || a.base < base_ || (a.id < 64 && (const_arrays >> a.id & 1))) continue;
    const uint64_t first = (a.base - base_) >> 2;
    const uint64_t end = std::min(words_, (a.base - base_ + uint64_t(a.elem_bytes) * a.count + 3) >> 2);
    if (first < end) std::memset(shadow_ + first, 0, (end - first) * sizeof(uint32_t));
  }
}

bool GlobalShadow::InConst(uint64_t addr, uint32_t width) const {
  for (const auto& [first, last] : const_ranges_)
    if (addr < last && addr + width > first) return true;
  return false;
}

// (The common cases, ShadowWords::Const and Settled, were asked inline by RecordGlobal.)
void CheckGlobal(ThreadCtx& t, uint64_t addr, uint32_t width, Op op) {
  GlobalShadow& s = static_cast<GlobalShadow&>(*t.shadow);
  if (op == Op::Atomic || op == Op::Reduction) s.Flag(GlobalShadow::kAtomic);
  else if (op != Op::Load && s.InConst(addr, width)) s.Flag(GlobalShadow::kConstWritten);  // its loads are unmarked
  else if (s.reason() == GlobalShadow::kNone) s.Check(addr, width, op == Op::Store, t.engine->block_linear);
  // The attempt is dropped (its findings with it) and the launch runs again on one thread.
  if (s.reason() != GlobalShadow::kNone) t.engine->guard->Leave(GuardExit::Cancel, &t);
}

const char* ToString(GlobalShadow::Reason r) {
  switch (r) {
    case GlobalShadow::kAtomic: return "its blocks use global atomics, whose order changes values";
    case GlobalShadow::kData: return "its blocks communicate through global memory";
    case GlobalShadow::kUninitializedShared:
      return "a block reads shared memory it did not write (what the previous block left)";
    case GlobalShadow::kLayout: return "its blocks first use their shared arrays in different orders";
    case GlobalShadow::kStopped: return "a block stopped the launch after later blocks had run";
    case GlobalShadow::kConstWritten: return "a block wrote an array the kernel takes as const";
    case GlobalShadow::kNone: break;
  }
  return "";
}

}  // namespace ws::sim::detail
