// The simulator's execution engine: runs a launch block by block, each thread a fiber,
// groups the threads' accesses into warp instructions and feeds them to the memory rules.
// Section index: [SECTION] Engine · [SECTION] ThreadCtx · [SECTION] hooks
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <vector>

#include "sim/trace.h"

// Forces a function of the per-access recording path inline: GCC may otherwise leave it out
// of line in the large catalog translation unit, and every access then pays a call and a
// trip of the element reference through memory (12% more instructions for shortcut/v1;
// docs/PERFORMANCE.md).
#define WS_INLINE [[gnu::always_inline]]

namespace ws::sim {

struct DeviceProfile;

// Shared between the simulating thread and others (the GUI, a SIGINT handler): a request to
// stop, and how far the current launch has got. Every member is lock-free.
struct RunControl {
  std::atomic<bool> cancel{false};          // set to stop the simulation at its next check
  std::atomic<uint64_t> blocks_done{0};     // of the launch now running
  std::atomic<uint64_t> blocks_total{0};
  // Steps of nice (Linux's thread priority) the launch's threads take from now on, each at its
  // next block, a thread's nice being its own: the GUI counts a whole launch a few steps nicer
  // than the window once its first picture is on screen. A thread never takes them back.
  std::atomic<int> nicer{0};
};

// The calling thread takes control->nicer's steps of nice it has not taken yet (null: none).
void FollowNicer(const RunControl* control);

struct LaunchOptions {
  Selection selection;                     // which warp instructions to keep in Trace::instructions
  size_t max_trace_instructions = 400000;  // trace cap: about 330 bytes each, ~130 MB at most
  size_t max_findings = 256;               // distinct (kind, site) pairs kept
  // Budgets that turn a kernel that never ends into a finding ("no progress"):
  // memory accesses and synchronisations one thread may make in a launch (the CLI's
  // --progress-budget), and CPU seconds one thread may run without making any (--watchdog).
  uint64_t progress_budget = uint64_t(1) << 24;
  double watchdog_seconds = 5.0;
  // Launches with more threads than this are refused before they run (--max-threads): the
  // simulator runs a few million threads a second, so 2^31-1 blocks would take days.
  uint64_t max_threads = uint64_t(1) << 28;
  RunControl* control = nullptr;           // may be null
  // Reads a kernel source file by the name the compiler recorded; used to name shared
  // arrays after the variable in the source. May be empty.
  std::function<std::string(const std::string& file)> source_text;
  // Called with a launch's shape after its hardware limits are checked and before any block
  // runs; it may throw to refuse the launch (the CLI checks a traced block and warp this way).
  std::function<void(const LaunchShape&)> before_launch;
  // The memory hierarchy (sim/hierarchy.h): on unless `caches` is false. `device` null: the H100
  // profile (the device the committed recordings come from). registers_per_thread 0: the
  // documented default (kDefaultRegistersPerThread), for residency.
  bool caches = true;
  const DeviceProfile* device = nullptr;
  uint32_t registers_per_thread = 0;
  // Called at most once per Run, on the simulating thread (on several threads: the one merging
  // the blocks, sim/parallel_run.h), when the selected block's part of the
  // trace is final while later blocks are still to run (a Block or Warp selection): with the
  // caches, once the block's wave has been replayed (sim/hierarchy.h says what decides its
  // marks); without, once the block has run. `early` is a copy of the trace as it stands then:
  // the selected block's instructions, their served-from marks and its SM's L1 log are those the
  // whole launch ends with; the totals and per-line counters are empty, the findings and
  // barriers those of the blocks run so far, `seconds` the time since Run began. Not called when
  // the block is in the last wave (the launch is done then) or the launch stops early.
  std::function<void(Trace early)> on_selected_final;
  // With the caches, called once (on the thread that calls on_selected_final) once the selected
  // block and the one after it have run, where on_selected_final is still to come (the block's
  // wave is not the last): its steps, addresses and costs (hence every caption but where the
  // sectors came from) are final then; `steps` is a copy of the trace with the cache model's part
  // left out (Trace::caches empty, no served-from marks), which on_selected_final brings. Not
  // called where on_selected_prefix was (its trace holds these steps, and marks).
  std::function<void(Trace steps)> on_selected_ran;
  // With the caches and a Block or Warp selection whose block is in the first wave: called at
  // most once, on the calling thread, before the launch runs, with the picture of a prefix pass
  // (sim/prefix_pass.h): the first wave with every thread of its other blocks cut after a few
  // accesses, which makes the marks of the selected block's first steps final long before its
  // wave has run. `early` is as on_selected_final's, but only its instructions
  // [0, caches.final_steps) have their served-from marks, L1 log and L2 lines (the rest have
  // none); those are the whole launch's. Not called where the pass cannot tell (the blocks see
  // each other through global memory, the selected warp's step prefix_step is not among the final
  // ones even at the largest cut, a fault, a cancel), nor on a launch after the engine's first
  // that placed shared arrays. The launch then runs exactly as without it.
  std::function<void(Trace early)> on_selected_prefix;
  uint32_t prefix_step = 0;  // the selected warp's step the prefix pass must make final
  uint64_t prefix_cut = 0;   // the pass's first cut (accesses and synchronisations); 0: kFirstCut
  // The kernel's SASS (bytes; sim/compiled.h CodeBytes), which a launch reads from DRAM once;
  // 0: not known (an empty kernel's is counted).
  uint32_t code_bytes = 0;
  // Threads that simulate blocks side by side (sim/parallel_run.h): 1, the calling thread alone.
  // The results equal the one-thread run's bit for bit; a launch whose blocks see each other
  // through global memory runs on one of them (Trace::threads says how many ran, and why).
  uint32_t threads = 1;
};

namespace detail { struct ThreadCtx; class EngineImpl; class GlobalShadow; }

// ---- [SECTION] Engine ---------------------------------------------------------------------
// One simulated launch (a fault in its kernel is a finding: see sim/fault_guard.h). Bind the arrays, then Run the kernel body once per thread.
class Engine {
 public:
  explicit Engine(LaunchOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Registers a global array; returns its id. `data`, the array's bytes, must outlive Run; it
  // may be null, but then a launch runs on one thread (a launch whose blocks turn out to share
  // data restarts on one thread from the arrays' bytes as they were).
  int BindGlobal(std::string name, std::string type, uint32_t elem_bytes, uint64_t count,
                 uint64_t rows, uint64_t cols, void* data = nullptr);
  const ArrayInfo& Array(int id) const;

  // Runs `body` (which calls the kernel) for every thread of the launch. Returns false if the
  // launch was refused (over a limit), stopped by a fault in the kernel (stack overflow,
  // arithmetic trap, no progress) or cancelled; the reason is in the trace's findings.
  // `const_arrays`: ids of global arrays the kernel takes only through const pointers
  // (Global<const T>), which its blocks do not store to: on several threads their loads need no
  // check (a store to one found anyway runs the launch again on one thread).
  bool Run(const LaunchShape& shape, std::function<void()> body, const std::vector<int>& const_arrays = {});

  const Trace& trace() const;
  Trace TakeTrace();
  // The threads a launch may run on (LaunchOptions::threads).
  uint32_t threads() const;

 private:
  std::unique_ptr<detail::EngineImpl> impl_;
};

namespace detail {

// ---- [SECTION] ThreadCtx ------------------------------------------------------------------
// What the dialect talks to: the state of one simulated thread, and its buffered accesses.
struct Uint3 { unsigned int x = 0, y = 0, z = 0; };

// Why a lane's fiber gave control back: None = runnable (after a full buffer too), Shared / WarpSync =
// waiting for the warp at an access or warp operation, Barrier = at __syncthreads, Done = returned.
enum class Pause : uint8_t { None, Shared, WarpSync, Barrier, Done };

// The warp-synchronous operations (__shfl*_sync, votes, __syncwarp), and __activemask, which
// only observes which lanes are there (no mask, no ordering).
enum class WarpOp : uint8_t { ShflIdx, ShflUp, ShflDown, ShflXor, VoteAll, VoteAny, Ballot, SyncWarp, ActiveMask };
const char* ToString(WarpOp op);  // its CUDA name: "__shfl_sync", "__ballot_sync", ...

// One buffered lane access, before the warp's lanes are grouped into an instruction.
struct LaneEvent {
  uint64_t key;              // see NextKey: lanes with equal keys form one instruction
  uint64_t addr;
  std::source_location loc;  // one pointer; decoded once per instruction
  uint64_t meta;             // array id, width, op and space in one word (one store, see Meta)

  static constexpr uint64_t Meta(int array, uint32_t width, Op op, Space space,
                                 bool is_volatile = false, AtomicAdd add = AtomicAdd::No) {
    return uint64_t(uint32_t(array)) | uint64_t(width) << 32 | uint64_t(op) << 40 |
           uint64_t(space) << 48 | uint64_t(is_volatile) << 56 | uint64_t(add) << 57;
  }
  int array() const { return int32_t(uint32_t(meta)); }
  uint8_t width() const { return uint8_t(meta >> 32); }
  Op op() const { return Op((meta >> 40) & 0xff); }
  Space space() const { return Space((meta >> 48) & 0xff); }
  bool is_volatile() const { return (meta >> 56) & 1; }
  AtomicAdd add() const { return AtomicAdd((meta >> 57) & 3); }
  void SetOp(Op o) { meta = (meta & ~(0xffull << 40)) | uint64_t(o) << 40; }
};

inline constexpr uint32_t kChunk = 64;  // events a lane buffers before the warp catches up

// The sites (column and op) a thread has reached on its current source line, and how often: the
// ordinal in the grouping key (NextKey). Sites past kMax on one line count in `more`.
struct LineSites {
  static constexpr uint32_t kMax = 16;
  uint16_t site[kMax];   // column << 4 | op code
  uint16_t count[kMax];  // how often reached
  uint32_t size = 0, more = 0;
  void Clear() { size = more = 0; }
  // The ordinal of this visit to `s`: 0 the first time on the line, 1 the next, ...
  WS_INLINE uint32_t Next(uint16_t s) {
    for (uint32_t i = 0; i < size; ++i)
      if (site[i] == s) return count[i]++;
    if (size == kMax) return 0x8000 | (more++ & 0x7fff);  // a line of more than 16 sites: by order
    site[size] = s;
    count[size++] = 1;
    return 0;
  }
  // Lanes that meet at a warp operation go on as one: each site counted as often as the lane
  // that reached it most.
  void Merge(const LineSites& o) {
    for (uint32_t j = 0; j < o.size; ++j) {
      uint32_t i = 0;
      while (i < size && site[i] != o.site[j]) ++i;
      if (i < size) count[i] = std::max(count[i], o.count[j]);
      else if (size < kMax) site[size] = o.site[j], count[size++] = o.count[j];
    }
    more = std::max(more, o.more);
  }
};

// The words the check of every global access reads in a launch on several threads
// (GlobalShadow, sim/parallel_run.h, is one): one per 4 bytes, 0 untouched, else the block (+1)
// that touched it, with kWritten once it wrote it; kShared: read by several blocks, written by
// none. Its common case is inline in RecordGlobal.
struct ShadowWords {
  static constexpr uint32_t kWritten = 1u << 31, kShared = 1u << 30, kBlock = kShared - 1;
  static uint32_t Tag(uint32_t block) { return (block + 1) & kBlock; }
  // Whether global array `array` is one the kernel takes only as Global<const T> (Engine::Run's
  // const_arrays): no block stores to it, so a load of it needs no check. One bit test: the id is
  // read modulo 64, and a launch has const arrays only where every global array's id is below
  // 64 (GlobalShadow::SetConst).
  WS_INLINE bool Const(int array) const { return const_arrays >> (uint32_t(array) & 63) & 1; }
  // True when a load or store of one word needs nothing more: a word this block wrote, or (a
  // load) one it read or several blocks only read. `tag`: Tag(block).
  // (An address below base_ wraps to an offset past words_.)
  WS_INLINE bool Settled(uint64_t addr, uint32_t width, bool store, uint32_t tag) const {
    const uint64_t off = addr - base_;
    if ((off >> 2) >= words_ || (off & 3) + width > 4) return false;
    const uint32_t s = __atomic_load_n(&shadow_[off >> 2], __ATOMIC_RELAXED);
    return store ? s == (tag | kWritten) : ((s & kBlock) == tag || s == kShared);
  }
  uint64_t base_ = 0, words_ = 0;
  uint32_t* shadow_ = nullptr;
  uint64_t const_arrays = 0;  // bit i: array id i is const
};

// Per thread (fiber) state. The dialect reads thread_idx & co. through t_current.
struct ThreadCtx {
  Uint3 thread_idx, block_idx, block_dim, grid_dim;
  uint32_t linear = 0, lane = 0, warp = 0;
  uint32_t shadow_tag = 0;  // ShadowWords::Tag of the thread's block (where `shadow` is set)
  EngineImpl* engine = nullptr;
  // In a launch on several threads: the check each global access passes before it touches the
  // array (sim/parallel_run.h), so that blocks of two threads never touch one word. Null: none.
  ShadowWords* shadow = nullptr;
  // Grouping key state: epoch counts backward jumps in source lines (loop iterations); on the
  // current line, how many times the thread has reached each site (column and op), so that lanes
  // that took different paths through one statement still meet at its later accesses.
  uint32_t epoch = 0, line = 0;
  LineSites sites;
  std::source_location last_loc;  // the last access or synchronisation the thread reached
  uint32_t size = 0, head = 0;  // buffered events [head, size)
  // Progress: accesses and synchronisations made, counted per chunk of buffered events (so
  // that the hot path pays nothing), checked against LaunchOptions::progress_budget.
  uint64_t progress = 0;
  // Non-zero while the thread runs engine code that may allocate: the watchdog's tick then
  // does not leave the fiber (see EngineSection in sim/engine_impl.h).
  uint8_t in_engine = 0;
  Pause pause = Pause::None;
  uint64_t pend_key = 0;  // key of the access/sync this lane waits at
  std::source_location pend_loc;
  // warp-synchronous exchange
  uint64_t xchg_in = 0, xchg_out = 0;
  uint32_t xchg_mask = 0;
  WarpOp xchg_op = WarpOp::SyncWarp;
  int xchg_arg = 0, xchg_width = 32;
  // Warp-level ordering since the last barrier (see sim/race_check.h), valid while
  // clock_era is the engine's: a vector clock over the lanes of the warp (what this lane knows
  // of each lane's count of warp operations), and the last warp operation this lane passed.
  uint64_t clock_era = 0;
  uint16_t clock[kWarpSize] = {};
  uint32_t sync_line = 0, sync_mask = 0;
  WarpOp sync_op = WarpOp::SyncWarp;
  LaneEvent buf[kChunk];
  bool Empty() const { return head == size; }
};

extern thread_local constinit ThreadCtx* t_current;

inline uint32_t OpCode(Op op, Space sp) { return uint32_t(op) | (uint32_t(sp) << 2); }
inline constexpr uint32_t kSyncCode = 0xf;  // barriers and warp operations

// The grouping key, one word ordered as (epoch:20, line:16, ordinal of the site on the line:16,
// column:8, op and space:4). The ordinal counts visits to the same site (column and op) on the
// line, not accesses: within a statement the order of columns is not the order of execution
// (`s[t] = c ? x[i] : 0.0f;` stores after it loads), and a lane that skipped the load still
// reaches the store as its first visit, as the lanes that loaded do. Epochs and ordinals wrap
// harmlessly (they only need to agree between lanes). The warp issues the smallest key that no
// lane still has further on (GroupLanes).
WS_INLINE inline uint64_t NextKey(ThreadCtx& t, std::source_location loc, uint32_t code) {
  const uint32_t line = loc.line();
  t.epoch += line < t.line;  // a jump back: the next loop iteration
  if (line != t.line) t.sites.Clear();  // a new line: ordinals start again
  t.line = line;
  t.last_loc = loc;
  const uint32_t column = loc.column() & 0xff;
  const uint32_t ord = t.sites.Next(uint16_t(column << 4 | code));
  return (uint64_t(t.epoch & 0xfffff) << 44) | (uint64_t(line & 0xffff) << 28) | (uint64_t(ord & 0xffff) << 12) |
         (uint64_t(column) << 4) | code;
}
// The key's epoch and line: along one lane's events it never decreases.
inline uint64_t KeyEpochLine(uint64_t key) { return key >> 28; }
inline uint32_t KeyEpoch(uint64_t key) { return uint32_t(key >> 44); }

// ---- [SECTION] hooks ----------------------------------------------------------------------
// Hooks the dialect calls. Global accesses are buffered; shared accesses and warp/block
// synchronisation pause the fiber so the warp's lanes stay in lockstep there. They are defined
// by the part of the engine they belong to: lane grouping (ChunkCheck, MarkAtomicUsed),
// findings (ReportOutOfBounds, ReportMisaligned), shared memory, warp operations, and the
// block runner (SyncThreads).
void ChunkCheck(ThreadCtx& t);  // pauses until the warp has consumed this lane's buffer
void ReportOutOfBounds(ThreadCtx& t, std::source_location loc, int array, int64_t index);
void ReportMisaligned(ThreadCtx& t, std::source_location loc, int array, uint64_t addr,
                      uint32_t width);

// A global access in a launch on several threads that is not ShadowWords::Settled (or an atomic),
// nor a load of a const array: leaves the block if it would make blocks see each other
// (sim/parallel_run.h), before the access is made.
void CheckGlobal(ThreadCtx& t, uint64_t addr, uint32_t width, Op op);

// `add`: an atomicAdd and its type (see WarpInstruction::add).
WS_INLINE inline void RecordGlobal(ThreadCtx& t, std::source_location loc, int array, uint64_t addr,
                         uint32_t width, Op op, bool is_volatile = false, AtomicAdd add = AtomicAdd::No) {
  if (t.shadow) [[unlikely]] {
    // A call only past the common cases: a load of a const array (a bit test; its shadow word,
    // not read, was a load behind 11% of shortcut/v1's own samples on two threads, perf), or a
    // word this block touched already (a load and a compare here; 43 instructions an access with
    // the call, callgrind, stats shortcut/v1 --n 128 on two threads). CheckGlobal takes no array:
    // passing it spilled shortcut/v1's running minimum to the stack on one thread too.
    if (op == Op::Load && t.shadow->Const(array)) {
      // Nothing to mark: no block writes the array (a store to it is found by CheckGlobal).
    } else if (op == Op::Atomic || op == Op::Reduction || !t.shadow->Settled(addr, width, op == Op::Store, t.shadow_tag)) {
      CheckGlobal(t, addr, width, op);
    }
  }
  if (t.size == kChunk) ChunkCheck(t);
  LaneEvent& e = t.buf[t.size++];
  e.key = NextKey(t, loc, OpCode(op, Space::Global));
  e.addr = addr;
  e.loc = loc;
  e.meta = LaneEvent::Meta(array, width, op, Space::Global, is_volatile, add);
}

// Marks the lane's most recent atomic as ATOM (its result was used) instead of RED.
void MarkAtomicUsed(ThreadCtx& t);


// Shared memory: `array` is the id the engine gave the Shared object on first use.
struct SharedSlot {
  uint64_t generation = 0;  // engine generation at registration
  int array = -1;
  uint64_t base = 0;
};
// `data`: the array's storage in this thread (a __shared__ array is thread_local), zeroed as the
// launch places the array, so that what a block reads before any block wrote it is the same
// whichever thread runs it and whatever ran there before (a restarted parallel launch, a second
// engine in the thread).
void RegisterShared(ThreadCtx& t, SharedSlot& slot, std::source_location loc,
                    uint32_t elem_bytes, uint64_t count, const char* type, void* data);
uint64_t Generation(ThreadCtx& t);
// The block's dynamic shared memory (extern __shared__): the launch's bytes, 16-byte aligned,
// and one shadow word per byte (enough for any element type). RegisterDynamicShared gives an
// extern array its place: every one starts at the same address, as in CUDA.
struct DynamicSharedArea {
  unsigned char* data = nullptr;
  uint64_t* shadow = nullptr;
  uint64_t bytes = 0;
};
DynamicSharedArea DynamicShared(ThreadCtx& t);
void RegisterDynamicShared(ThreadCtx& t, SharedSlot& slot, std::source_location loc,
                           uint32_t elem_bytes, const char* type);
// Pauses until the warp's lanes issue this shared access together, records it and checks
// races against the shadow word (one per element; sim/race_check.h). `is_volatile`: made through a volatile
// pointer (Shared<volatile T*>). Op::Atomic: an atomic read-modify-write, which reads like a
// load for the initialisation check and writes like a store, and races with no other atomic.
// Returns false if it must be suppressed.
bool SharedAccess(ThreadCtx& t, const SharedSlot& slot, std::source_location loc,
                  uint64_t index, uint64_t count, uint32_t elem_bytes, uint32_t piece_bytes,
                  uint32_t pieces, Op op, uint64_t* shadow, bool is_volatile = false,
                  AtomicAdd add = AtomicAdd::No);

void SyncThreads(ThreadCtx& t, std::source_location loc);
void SyncWarp(ThreadCtx& t, uint32_t mask, std::source_location loc);
// A shuffle (ShflIdx..ShflXor): returns the value of the source lane.
uint64_t Shuffle(ThreadCtx& t, uint32_t mask, uint64_t value, WarpOp op, int arg, int width,
                 std::source_location loc);
// A vote (VoteAll, VoteAny, Ballot) or ActiveMask (mask and pred unused).
uint32_t Vote(ThreadCtx& t, uint32_t mask, bool pred, WarpOp op, std::source_location loc);

}  // namespace detail
}  // namespace ws::sim
