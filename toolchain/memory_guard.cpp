// Memory errors the dialect cannot see, in the kernel-file runner (toolchain/memory_guard.h).
// Sections: blocks that end at an inaccessible page · the allocation functions a kernel file
// calls · local arrays (the bounds checks' handler) · the fault recorder · explaining faults.
//
// A kernel file is linked with --wrap for malloc, calloc, realloc, free, the aligned forms and
// operator new[]/delete[] (toolchain/build.cpp): its own calls come here (the __wrap_ functions
// below, exported by warpscope), everything else allocates as usual. Each block of the file's
// own is placed at the end of its pages, right before a page left inaccessible, in a region
// reserved for them; freed, its pages become inaccessible too and are never handed out again.
// So a read or write past the end (or after a free) faults at once, at its instruction.
#include "toolchain/memory_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "sim/engine.h"
#include "toolchain/source_lines.h"

namespace ws::toolchain {

namespace {

// ---- blocks that end at an inaccessible page ----

constexpr size_t kRegionBytes = size_t(64) << 30;  // address space only: reserved, not committed

struct Block {
  uintptr_t pages = 0, guard = 0;  // [pages, guard) accessible while live; the guard page after it
  uintptr_t user = 0;              // what the caller got; user + size <= guard
  size_t size = 0;
  uintptr_t caller = 0;            // return address of the allocation call
  const char* how = "";            // "new[]", "malloc"
  bool freed = false;
};

struct Guard {
  bool on = false;
  uintptr_t region = 0, next = 0, region_end = 0;
  uintptr_t overrun_page = 0;  // faults here are the bounds checks' (one address per record)
  uintptr_t lib_begin = 0, lib_end = 0;
  size_t page = 4096;
  std::string library, user_file;
  std::vector<Block> blocks;  // in address order (handed out from `next` upwards)
};
Guard g_guard;

bool InRegion(uintptr_t p) { return g_guard.region && p >= g_guard.region && p < g_guard.region_end; }

Block* BlockAt(uintptr_t p) {
  auto& b = g_guard.blocks;
  auto it = std::upper_bound(b.begin(), b.end(), p, [](uintptr_t a, const Block& x) { return a < x.pages; });
  if (it == b.begin()) return nullptr;
  --it;
  return p <= it->guard + g_guard.page ? &*it : nullptr;
}

// A block of `size` bytes aligned to `align` ending as close to its guard page as alignment
// allows; nullptr when the guard is off or the region is full (the caller then allocates as usual).
void* GuardedAlloc(size_t size, size_t align, const char* how, void* caller) {
  Guard& g = g_guard;
  if (!g.on || align > g.page) return nullptr;
  if (!g.region) {
    void* r = mmap(nullptr, kRegionBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED) {
      g.on = false;
      return nullptr;
    }
    g.region = g.next = uintptr_t(r);
    g.region_end = g.region + kRegionBytes;
  }
  align = std::max<size_t>(align, 16);
  const size_t rounded = (size + align - 1) / align * align;
  const size_t pages = std::max<size_t>(g.page, (rounded + g.page - 1) / g.page * g.page);
  if (rounded < size || pages > g.region_end - g.next - g.page) return nullptr;
  if (mprotect(reinterpret_cast<void*>(g.next), pages, PROT_READ | PROT_WRITE) != 0) return nullptr;  // over a limit
  Block b;
  b.pages = g.next;
  b.guard = g.next + pages;
  b.user = b.guard - rounded;
  b.size = size;
  b.caller = uintptr_t(caller);
  b.how = how;
  g.next = b.guard + g.page;
  g.blocks.push_back(b);
  return reinterpret_cast<void*>(b.user);
}

std::string LineOf(uintptr_t return_address);

[[noreturn]] void BadFree(const Block& b, const char* what) {
  std::fprintf(stderr, "warpscope: %s of a %zu-byte block from %s (allocated at %s)\n", what, b.size, b.how,
               LineOf(b.caller).c_str());
  std::fflush(stderr);
  std::abort();
}

// Frees a block of the region; false when `p` is not in it.
bool GuardedFree(void* p) {
  const uintptr_t u = uintptr_t(p);
  if (!InRegion(u)) return false;
  Block* b = BlockAt(u);
  if (!b || b->user != u) {
    std::fprintf(stderr, "warpscope: free of a pointer that is not the start of a block from malloc or new[]\n");
    std::fflush(stderr);
    std::abort();
  }
  if (b->freed) BadFree(*b, "a second free");
  b->freed = true;
  void* pages = reinterpret_cast<void*>(b->pages);
  madvise(pages, b->guard - b->pages, MADV_DONTNEED);
  mprotect(pages, b->guard - b->pages, PROT_NONE);
  return true;
}

// ---- local arrays (the bounds checks' handler) ----

struct Overrun {
  std::string file;
  unsigned line = 0, column = 0;
  std::string text;  // "indexed a local 'int [4]' array at 4, past its end"
};
std::vector<Overrun> g_overruns;

// ---- the fault recorder ----

struct FaultRecord {
  uintptr_t addr = 0, pc = 0;
  bool write = false;
};
constexpr int kRecords = 64;
FaultRecord g_faults[kRecords];
volatile sig_atomic_t g_fault_count = 0;

}  // namespace

void RecordMemoryFault(int, siginfo_t* info, void* context) {
  const uintptr_t addr = uintptr_t(info->si_addr);
  const bool ours = InRegion(addr) || (g_guard.overrun_page && addr - g_guard.overrun_page < g_guard.page);
  if (ours && g_fault_count < kRecords) {
    auto* uc = static_cast<ucontext_t*>(context);
    FaultRecord& r = g_faults[g_fault_count];
    r.addr = addr;
#if defined(__x86_64__)
    r.pc = uintptr_t(uc->uc_mcontext.gregs[REG_RIP]);
    r.write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)uc;
#endif
    g_fault_count = g_fault_count + 1;
  }
}

namespace {

// ---- explaining faults ----

std::string LineOf(uintptr_t return_address) {
  const Guard& g = g_guard;
  if (return_address < g.lib_begin || return_address >= g.lib_end) return "an unknown line";
  const auto lines = SourceLinesOf(g.library, {return_address - g.lib_begin - 1}, g.user_file);
  return lines[0].line ? "line " + std::to_string(lines[0].line) : "an unknown line";
}

struct Explained {
  std::string text;  // "wrote past the end of ..."
  std::string file;
  int line = 0, column = 0;
  sim::FindingKind kind = sim::FindingKind::OutOfBounds;
};

std::optional<Explained> Explain(uintptr_t address) {
  const Guard& g = g_guard;
  if (g.overrun_page && address - g.overrun_page < g.page) {
    const size_t i = address - g.overrun_page;
    if (i >= g_overruns.size()) return std::nullopt;
    const Overrun& o = g_overruns[i];
    return Explained{o.text, o.file, int(o.line), int(o.column), sim::FindingKind::OutOfBounds};
  }
  if (!InRegion(address)) return std::nullopt;
  const FaultRecord* rec = nullptr;
  for (int i = 0; i < g_fault_count; ++i)
    if (g_faults[i].addr == address) rec = &g_faults[i];
  const Block* b = BlockAt(address);
  if (!b) return std::nullopt;
  Explained e;
  const std::string verb = rec && rec->write ? "wrote" : "read";
  const std::string block = "a " + std::to_string(b->size) + "-byte block from " + b->how + " (allocated at " +
                            LineOf(b->caller) + ")";
  if (b->freed) {
    e.kind = sim::FindingKind::MemoryFault;
    e.text = verb + " " + block + " after it was freed";
  } else if (address >= b->guard) {
    e.text = verb + " past the end of " + block + ", " + std::to_string(address - (b->user + b->size)) +
             " bytes after it";
  } else {
    e.text = verb + " before the start of " + block;
  }
  if (rec && rec->pc >= g.lib_begin && rec->pc < g.lib_end) {
    const auto lines = SourceLinesOf(g.library, {rec->pc - g.lib_begin}, g.user_file);
    e.file = lines[0].file;
    e.line = lines[0].line;
  }
  return e;
}

}  // namespace

void InstallMemoryGuard(const std::string& library, const std::string& user_file) {
  Guard& g = g_guard;
  g.library = library;
  g.user_file = user_file;
  g.page = size_t(sysconf(_SC_PAGESIZE));
#if !defined(__SANITIZE_ADDRESS__)  // the sanitizer keeps its own books of every block
  g.on = true;
#endif
  void* p = mmap(nullptr, g.page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED) g.overrun_page = uintptr_t(p);
}

void SetLibraryRange(uintptr_t begin, uintptr_t end) {
  g_guard.lib_begin = begin;
  g_guard.lib_end = end;
}

void ExplainMemoryFaults(sim::Trace& trace) {
  for (auto& f : trace.findings) {
    if (f.kind != sim::FindingKind::MemoryFault || !f.has_address) continue;
    const auto e = Explain(uintptr_t(f.address));
    if (!e) continue;
    char who[96];
    std::snprintf(who, sizeof who, "thread (%u,%u,%u) of block (%u,%u,%u) ", f.thread.x, f.thread.y, f.thread.z,
                  f.block.x, f.block.y, f.block.z);
    f.kind = e->kind;
    f.message = who + e->text + (e->line ? " at line " + std::to_string(e->line) : std::string()) +
                ". The launch stopped there, as it stops on a GPU under compute-sanitizer.";
    if (e->line) {
      auto it = std::find_if(trace.sites.begin(), trace.sites.end(), [&](const sim::Site& s) {
        return s.file == e->file && int(s.line) == e->line && int(s.column) == e->column;
      });
      if (it == trace.sites.end()) it = trace.sites.insert(trace.sites.end(), {e->file, uint32_t(e->line), uint32_t(e->column)});
      f.site = int(it - trace.sites.begin());
    }
  }
}

std::optional<std::string> ExplainHostFault(uintptr_t address) {
  const auto e = Explain(address);
  if (!e) return std::nullopt;
  return e->text + (e->line ? " at line " + std::to_string(e->line) : std::string());
}

}  // namespace ws::toolchain

// ---- the allocation functions a kernel file calls ----
// Exported by warpscope; a kernel file's own calls reach them through --wrap.

using ws::toolchain::GuardedAlloc;
using ws::toolchain::GuardedFree;

extern "C" {

void* __wrap_malloc(size_t n) {
  if (void* p = GuardedAlloc(n, 16, "malloc", __builtin_return_address(0))) return p;
  return std::malloc(n);
}
void* __wrap_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return nullptr;
  if (void* p = GuardedAlloc(count * size, 16, "calloc", __builtin_return_address(0))) {
    std::memset(p, 0, count * size);
    return p;
  }
  return std::calloc(count, size);
}
void __wrap_free(void* p) {
  if (!GuardedFree(p)) std::free(p);
}
void* __wrap_realloc(void* old, size_t n) {
  if (!old) return __wrap_malloc(n);
  const ws::toolchain::Block* b = ws::toolchain::InRegion(uintptr_t(old)) ? ws::toolchain::BlockAt(uintptr_t(old)) : nullptr;
  if (!b) return std::realloc(old, n);
  if (n == 0) {
    __wrap_free(old);
    return nullptr;
  }
  const size_t keep = std::min(n, b->size);
  void* p = GuardedAlloc(n, 16, "realloc", __builtin_return_address(0));
  if (!p) p = std::malloc(n);
  if (!p) return nullptr;
  std::memcpy(p, old, keep);
  __wrap_free(old);
  return p;
}
void* __wrap_aligned_alloc(size_t align, size_t n) {
  if (void* p = GuardedAlloc(n, align, "aligned_alloc", __builtin_return_address(0))) return p;
  return std::aligned_alloc(align, n);
}
void* __wrap_memalign(size_t align, size_t n) {
  if (void* p = GuardedAlloc(n, align, "memalign", __builtin_return_address(0))) return p;
  void* p = nullptr;
  return posix_memalign(&p, align, n) == 0 ? p : nullptr;
}
int __wrap_posix_memalign(void** out, size_t align, size_t n) {
  if (void* p = GuardedAlloc(n, align, "posix_memalign", __builtin_return_address(0))) {
    *out = p;
    return 0;
  }
  return posix_memalign(out, align, n);
}

// operator new[] and delete[] in their mangled names: (size), (size, nothrow), (size, align),
// (size, align, nothrow); delete[] (p), (p, size), (p, nothrow), (p, align), (p, size, align),
// (p, align, nothrow).
void* __wrap__Znam(size_t n) {
  if (void* p = GuardedAlloc(n, 16, "new[]", __builtin_return_address(0))) return p;
  return ::operator new[](n);
}
void* __wrap__ZnamRKSt9nothrow_t(size_t n, const std::nothrow_t& t) noexcept {
  if (void* p = GuardedAlloc(n, 16, "new[]", __builtin_return_address(0))) return p;
  return ::operator new[](n, t);
}
void* __wrap__ZnamSt11align_val_t(size_t n, std::align_val_t a) {
  if (void* p = GuardedAlloc(n, size_t(a), "new[]", __builtin_return_address(0))) return p;
  return ::operator new[](n, a);
}
void* __wrap__ZnamSt11align_val_tRKSt9nothrow_t(size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
  if (void* p = GuardedAlloc(n, size_t(a), "new[]", __builtin_return_address(0))) return p;
  return ::operator new[](n, a, t);
}
void __wrap__ZdaPv(void* p) noexcept {
  if (!GuardedFree(p)) ::operator delete[](p);
}
void __wrap__ZdaPvm(void* p, size_t) noexcept { __wrap__ZdaPv(p); }
void __wrap__ZdaPvRKSt9nothrow_t(void* p, const std::nothrow_t&) noexcept { __wrap__ZdaPv(p); }
void __wrap__ZdaPvSt11align_val_t(void* p, std::align_val_t a) noexcept {
  if (!GuardedFree(p)) ::operator delete[](p, a);
}
void __wrap__ZdaPvmSt11align_val_t(void* p, size_t, std::align_val_t a) noexcept { __wrap__ZdaPvSt11align_val_t(p, a); }
void __wrap__ZdaPvSt11align_val_tRKSt9nothrow_t(void* p, std::align_val_t a, const std::nothrow_t&) noexcept {
  __wrap__ZdaPvSt11align_val_t(p, a);
}

#if !defined(__SANITIZE_ADDRESS__)  // a sanitizer build has the sanitizers' own, for every file
// The bounds checks' handler (the sanitizers' ABI, shared by GCC and Clang): a local array of a
// known size indexed past its end. The message is kept; then the thread faults on purpose at an
// address that names it, before the access is made: the engine stops the launch there (or the
// description guard the description), as at any other fault.
struct WsUbsanLocation {
  const char* file;
  unsigned line, column;
};
struct WsUbsanType {
  unsigned short kind, info;  // kind 0: an integer; info: log2(bits) << 1 | signed
  char name[1];
};
struct WsUbsanOutOfBounds {
  WsUbsanLocation loc;
  const WsUbsanType* array;
  const WsUbsanType* index;
};

void __ubsan_handle_out_of_bounds(WsUbsanOutOfBounds* d, uintptr_t value) {
  using ws::toolchain::g_guard;
  using ws::toolchain::g_overruns;
  std::string index = std::to_string(value);
  if (d->index->kind == 0 && (d->index->info & 1)) {
    const unsigned bits = 1u << (d->index->info >> 1);
    int64_t v = int64_t(value);
    if (bits < 64) v = int64_t(value << (64 - bits)) >> (64 - bits);
    index = std::to_string(v);
  }
  ws::toolchain::Overrun o;
  o.file = d->loc.file ? d->loc.file : "";
  o.line = d->loc.line;
  o.column = d->loc.column;
  o.text = "indexed a local " + std::string(d->array->name) + " array at " + index + ", outside it";
  std::fprintf(stderr, "warpscope: line %u: %s\n", o.line, o.text.c_str());
  std::fflush(stderr);
  if (!g_guard.overrun_page) std::abort();
  const size_t i = std::min(g_overruns.size(), g_guard.page - 1);
  if (i == g_overruns.size()) g_overruns.push_back(std::move(o));
  *reinterpret_cast<volatile char*>(g_guard.overrun_page + i) = 0;  // faults: never returns
  std::abort();
}
void __ubsan_handle_out_of_bounds_abort(WsUbsanOutOfBounds* d, uintptr_t value) {
  __ubsan_handle_out_of_bounds(d, value);
}
#endif

}  // extern "C"
