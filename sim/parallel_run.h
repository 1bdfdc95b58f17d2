// A launch simulated by several threads: each runs whole blocks (fibers within the thread) on an
// engine of its own, and the blocks' results are merged in block order, so that every result is
// the one-thread run's bit for bit.
// Section index: [SECTION] a block's results · [SECTION] blocks that see each other ·
// [SECTION] the workers
//
// What makes the merge equal to the serial run:
//  - counters are integers, added per site; sites are numbered as the serial run numbers them
//    (each block hands over the sites it reached first, in order, and the merge interns them);
//  - findings are kept per block and merged in block order as one log would have kept them;
//  - the cache model (sim/hierarchy.h) receives the same events in the same order: each block's
//    global instructions (their distinct sectors) and barriers are buffered and handed to it as
//    the block is merged; a wave's replay then runs on whichever thread merges, while the
//    others simulate the next blocks;
//  - a block that faults stops the launch there: later blocks' results are dropped, as the
//    serial run never ran them; if one of them ran already, its writes to the arrays are undone
//    by running the launch again on one thread;
//  - shared arrays are laid out in the order of their first use. Each thread lays out its own
//    (a __shared__ array is thread_local), in the order its blocks first use them; when the
//    threads' layouts are prefixes of one another, each array was placed by the thread that ran
//    the first block using it, in that block's order, so the layout is the serial one. If not,
//    the launch runs again on one thread;
//  - blocks that can see each other's data make the order matter: a global atomic (a float
//    atomicAdd's rounding, an atomic's returned value), a global word one block writes and
//    another reads or writes (GlobalShadow), a read of shared memory the block did not write (it
//    holds what the thread's previous block left). Such a launch runs again on one thread, from
//    the arrays' bytes as they were before it (Trace::threads_note says why);
//  - the selected block's early copies (LaunchOptions::on_selected_ran, on_selected_final) are
//    given as the merge reaches them, while no block has found the launch order-dependent: every
//    block merged by then has finished, so each of its accesses was checked, and an access to a
//    word another block touched first (of any block, merged or still running) would have flagged
//    the shadow; so each merged block read what the serial run's would have read, and the copy
//    is the serial run's. A restart for that reason later (a block after them) does not give
//    them again; one for another shared layout (found only at the end) does.
#pragma once
#include <atomic>
#include <condition_variable>
#include <functional>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "sim/engine_impl.h"

namespace ws::sim::detail {

// ---- [SECTION] a block's results ----------------------------------------------------------
// What the cache model records of a block. A block that is not traced encodes its warps' streams
// as it runs (EncodeRecord, EncodeBarrier; its sites the worker's ids), and the merge hands them
// over whole (MemoryHierarchy::AdoptBlock): a record's trace index would be the launch's, known
// only at the merge. The traced block's are events instead, recorded at the merge: per global
// instruction a header (warp | op << 32 | sectors << 40), its site (the worker's), its trace
// index + 1 (the block's; 0: not traced) and its distinct sectors; a barrier is kBarrierEvent.
inline constexpr uint64_t kBarrierEvent = ~0ull;

struct BlockOut {
  uint64_t block = 0;
  // Sites the worker reached first in this block, in order: its ids first_site, first_site + 1, ...
  uint32_t first_site = 0;
  std::vector<std::pair<const char*, std::pair<uint32_t, uint32_t>>> new_sites;  // file, line, column
  std::vector<std::pair<uint32_t, Counters>> per_site;  // worker's site -> the block's counters
  std::vector<WarpInstruction> instructions;            // traced; sites are the worker's
  std::vector<Finding> findings;                        // the block's log; sites are the worker's
  bool encoded = false;              // its records are in `warps`, else in `events` (see above)
  std::vector<WarpStream> warps;
  std::vector<uint64_t> events;
  uint64_t barriers = 0;
  uint64_t shared_bytes = 0;  // the worker's shared layout after the block
  std::vector<ArrayInfo> arrays;  // the worker's arrays after the block, where it placed a shared one
  bool abort = false;         // the launch stops after this block
};

// ---- [SECTION] blocks that see each other -------------------------------------------------
// One word per 4 bytes of the launch's global memory (ShadowWords, sim/engine.h, says what a word
// holds). A block that reads a word another block wrote, or writes a word another block read or wrote,
// makes the launch order-dependent. Every global access is checked before it is made
// (CheckGlobal), and one that makes the launch order-dependent, or any access once another
// thread found it so, leaves its block instead: of two blocks on two threads that touch one word,
// the second to check never touches it, so the threads never race on the arrays' bytes. Loads of
// an array the kernel takes only as const (ShadowWords::Const) are not checked, nor marked: a
// store to such an array makes the launch order-dependent.
class GlobalShadow : public ShadowWords {
 public:
  enum Reason : int { kNone = 0, kAtomic, kData, kUninitializedShared, kLayout, kStopped, kConstWritten };
  GlobalShadow(uint64_t base, uint64_t bytes);
  ~GlobalShadow();
  GlobalShadow(const GlobalShadow&) = delete;
  GlobalShadow& operator=(const GlobalShadow&) = delete;
  void Check(uint64_t addr, uint32_t width, bool store, uint32_t block);
  // The global arrays `ids` of `arrays` are const (their loads are not checked,
  // ShadowWords::Const); none are where a global array's id is 64 or more.
  void SetConst(const std::vector<ArrayInfo>& arrays, const std::vector<int>& ids);
  // Writes the (zero) words of the global arrays that are not const, before the workers start: a
  // word's page first read and then written by a worker costs a copy-on-write fault of the zero
  // page, which flushes the TLB of every core running the launch (an interrupt to each).
  void Commit(const std::vector<ArrayInfo>& arrays);
  bool InConst(uint64_t addr, uint32_t width) const;
  void Flag(Reason r) {
    int none = kNone;
    reason_.compare_exchange_strong(none, int(r), std::memory_order_relaxed);
  }
  Reason reason() const { return Reason(reason_.load(std::memory_order_relaxed)); }
  // Called with a word the launch is about to write for the first time (before the write), where
  // set: the prefix pass (sim/prefix_pass.h) keeps the word's bytes, to put them back.
  void (*first_write)(void* context, uint64_t word) = nullptr;
  void* first_write_context = nullptr;

 private:
  void Load(uint64_t word, uint32_t tag);
  void Store(uint64_t word, uint32_t tag);
  std::atomic<int> reason_{kNone};
  std::vector<std::pair<uint64_t, uint64_t>> const_ranges_;  // [first, last) addresses of const arrays
};
const char* ToString(GlobalShadow::Reason r);

// ---- [SECTION] the workers ----------------------------------------------------------------
// The threads of an engine whose LaunchOptions::threads > 1. They live as long as the engine:
// a __shared__ array's slot is per OS thread, so its layout carries over to the next launch as
// it does in the serial run. A worker whose layout fell behind the launch's (it never used an
// array another one placed) runs no more blocks.
class ParallelRun {
 public:
  ParallelRun(EngineImpl& main, uint32_t threads);
  ~ParallelRun();
  // Runs the launch `main` is set up for (shape, body, hierarchy) and merges it into `main`;
  // `make_hierarchy` makes main's hierarchy again for a restart.
  void Run(const LaunchShape& s, const std::function<void()>& make_hierarchy);
  // Destroys a launch's cache model on a thread of its own, so that the launch's caller goes on
  // meanwhile (freeing it took 6 ms of stats shortcut/v1 --n 512's 1.5 s on two threads); the
  // next Dispose and the destructor wait for it. Where no thread starts, here.
  void Dispose(std::unique_ptr<MemoryHierarchy> hierarchy);

 private:
  struct Worker;
  struct AttemptState;
  // The launch on `team` (one worker: the serial order), checked by `shadow` if not null.
  // Returns false when a block past the one that stopped the launch ran.
  bool RunAttempt(const LaunchShape& s, const std::vector<Worker*>& team, GlobalShadow* shadow);
  void Work(Worker& w, AttemptState& a);
  void TryMerge(AttemptState& a);
  void Merge(AttemptState& a, Worker& w, BlockOut& b);
  void RunOn(const std::vector<Worker*>& team, const std::function<void(Worker&)>& job);

  EngineImpl& main_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::thread disposer_;
};

}  // namespace ws::sim::detail
