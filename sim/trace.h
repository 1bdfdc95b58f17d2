// Trace data types: what the simulator hands to everything downstream (counters, CLI, views).
// Nothing here depends on how the simulator runs a kernel.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ws::sim {

// Set bits of a word, without the library call that __builtin_popcount becomes on x86-64
// targets without POPCNT (Debian's baseline): it is on the per-instruction path.
inline int PopCount(uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return int((v * 0x0101010101010101ull) >> 56);
}

inline constexpr int kWarpSize = 32;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t Count() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3&) const = default;
};

enum class Space : uint8_t { Global, Shared };
// Load, Store, Atomic (result used: ATOM), Reduction (result unused: RED), as nvcc emits them.
enum class Op : uint8_t { Load, Store, Atomic, Reduction };
// Which atomics are additions, and of what: nvcc aggregates integer ones (global) and turns
// floating-point ones on shared memory into a compare-and-swap loop (see sim/rules.h).
enum class AtomicAdd : uint8_t { No, Integer, Float };

const char* ToString(Space s);
const char* ToString(Op o);

// One array the kernel touches, as it is drawn: a matrix of rows x cols elements.
struct ArrayInfo {
  int id = 0;
  std::string name;
  std::string type;        // element type as written in the kernel ("float", "float4", "RayState")
  uint32_t elem_bytes = 0;
  uint64_t count = 0;      // elements
  uint64_t rows = 1, cols = 0;
  Space space = Space::Global;
  uint64_t base = 0;       // simulated address of element 0 (global: like cudaMalloc; shared: offset)
};

// One place in the kernel source.
struct Site {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};

// One warp-level memory instruction, as a SIMT machine issues it.
struct WarpInstruction {
  WarpInstruction() { addr.fill(0); }
  // For the simulator's converged-warp path, which writes every lane's address itself.
  struct Uninitialized {};
  explicit WarpInstruction(Uninitialized) {}

  uint32_t site = 0;        // index into Trace::sites
  int array = -1;           // index into Trace::arrays
  Op op = Op::Load;
  Space space = Space::Global;
  uint8_t width = 4;        // bytes per lane (one piece: 1, 2, 4, 8 or 16)
  uint32_t mask = 0;        // active lanes
  uint32_t block = 0;       // linear block index
  uint32_t warp = 0;        // warp index within the block
  uint32_t epoch = 0;       // loop iteration as seen by the grouping (backward jumps in source)
  bool is_volatile = false;  // made through a volatile pointer (every such access is a real one)
  AtomicAdd add = AtomicAdd::No;  // atomics: an atomicAdd, on an integer or a floating type
  std::array<uint64_t, kWarpSize> addr;  // per lane; meaningful where mask has the bit
  // Cost, filled in by the memory rules:
  uint16_t sectors = 0;        // global: distinct 32-byte sectors
  uint16_t lines = 0;          // global: distinct 128-byte lines
  uint16_t ideal_sectors = 0;  // global: active lanes x width rounded up to sectors, at most `sectors`
  uint16_t wavefronts = 0;     // shared: passes through the 32 banks
  uint16_t ideal_wavefronts = 0;
  uint16_t conflict_degree = 0;  // shared: most distinct words in one bank (n-way)
  uint16_t same_address_lanes = 0;  // atomics: most lanes hitting one address
  uint16_t l2_requests = 0;    // global atomics: requests to L2, where atomics are performed
  // Global: where each distinct sector was served from, 2 bits per sector (a ServedFrom), the
  // sectors in ascending address order (sector i at bits 2i..2i+1); filled by the cache model.
  uint64_t served = 0;
  int ActiveLanes() const { return PopCount(mask); }
};

// Where the cache model found a global sector (see sim/hierarchy.h). A store is written
// through to L2 (L2); an atomic is performed at L2 (L2, or Dram when its sector came from DRAM).
enum class ServedFrom : uint8_t { None = 0, L1 = 1, L2 = 2, Dram = 3 };
inline ServedFrom SectorServedFrom(const WarpInstruction& ins, int sector) {
  return ServedFrom((ins.served >> (2 * sector)) & 3);
}
const char* ToString(ServedFrom s);
// One distinct sector of an instruction (byte address / 32) and where it was served from: the
// one reading of `served` that the caption and the memory view share.
struct ServedSector {
  uint64_t sector = 0;
  ServedFrom from = ServedFrom::None;
};
// The instruction's distinct sectors in ascending order, each with its mark (all None when the
// caches were not modelled); returns how many (at most 32). Shared instructions have none.
int ServedSectors(const WarpInstruction& ins, ServedSector (&out)[kWarpSize]);

// The simulator's counters of a launch (or of one source line); sim::Metrics (sim/metrics.h) gives
// them Nsight Compute's metric names.
struct Counters {
  uint64_t global_requests[4] = {};  // indexed by Op: ld, st, atom, red
  uint64_t global_sectors[4] = {};
  uint64_t global_ideal_sectors[4] = {};
  uint64_t global_lines[4] = {};
  uint64_t global_l2_requests[4] = {};  // atom and red only (see WarpInstruction::l2_requests)
  uint64_t shared_inst[3] = {};       // ld, st, atom (ATOMS, and the CAS of a CAS loop)
  uint64_t shared_wavefronts[3] = {};
  uint64_t shared_ideal_wavefronts[3] = {};
  uint64_t shared_conflicts[3] = {};
  uint64_t mem_inst = 0;              // memory instructions (global + shared)
  uint64_t mem_active_lanes = 0;      // sum of active lanes over memory instructions
  uint64_t lane_accesses = 0;         // lane-level accesses (pieces)
  uint64_t atomic_same_address = 0;   // lanes that hit an address another lane of the instruction also hit
  // The memory hierarchy (sim/hierarchy.h), by Op: global sectors found in the SM's L1
  // (lookup hits), sectors that reached L2 (a load's L1 misses, every store and atomic sector)
  // and those of them L2 already held (stores count as hits, as ncu counts them); DRAM bytes
  // read for L2 misses and written back from evicted dirty L2 lines.
  uint64_t l1_hits[4] = {};
  uint64_t l2_sectors[4] = {};
  uint64_t l2_hits[4] = {};
  uint64_t dram_read_bytes = 0, dram_write_bytes = 0;

  // Totals over op kinds: global ld + st + atom + red, shared ld + st + atom.
  uint64_t GlobalRequests() const { return Sum(global_requests); }
  uint64_t GlobalSectors() const { return Sum(global_sectors); }
  uint64_t GlobalIdealSectors() const { return Sum(global_ideal_sectors); }
  uint64_t SharedInst() const { return Sum(shared_inst); }
  uint64_t SharedWavefronts() const { return Sum(shared_wavefronts); }
  uint64_t SharedIdealWavefronts() const { return Sum(shared_ideal_wavefronts); }

  Counters& operator+=(const Counters& o);
  void Add(const WarpInstruction& ins);
  // Shared atomics: the instructions one warp-level atomic issues — 1 (ATOMS), or for a float
  // atomicAdd (a compare-and-swap loop) one round per update to its busiest address.
  static uint64_t SharedAtomicRounds(const WarpInstruction& ins) {
    return ins.add == AtomicAdd::Float && ins.same_address_lanes > 1 ? ins.same_address_lanes : 1;
  }
  double AverageActiveLanes() const { return mem_inst ? double(mem_active_lanes) / mem_inst : 0.0; }

 private:
  template <size_t N>
  static uint64_t Sum(const uint64_t (&v)[N]) {
    uint64_t s = 0;
    for (uint64_t x : v) s += x;
    return s;
  }
};

enum class FindingKind : uint8_t {
  OutOfBounds,
  Misaligned,
  SharedRace,       // a thread reads a shared word another thread wrote with no barrier between
  WarpSyncRace,     // the same, inside one warp: right only because the warp runs in lockstep
  BarrierDivergence,
  ShuffleMask,      // a *_sync operation whose mask and calling lanes disagree
  LaunchLimit,      // refused or stopped: over a hardware or simulator limit
  KernelException,
  NullPointer,      // an access through a Global<T> that points to no array
  UninitializedShared,  // a shared word read before any thread of the block wrote it (initcheck)
  StackOverflow,    // a thread's stack (local arrays, recursion) outgrew what the simulator gives
  ArithmeticTrap,   // integer division by zero and other traps (SIGFPE)
  MemoryFault,      // any other fault in kernel code (e.g. a raw pointer gone wrong)
  NoProgress,       // a thread over the progress budget or stuck past the watchdog: an endless loop
  Cancelled,        // the user stopped the simulation
};
const char* ToString(FindingKind k);
bool IsError(FindingKind k);  // errors make a run's output untrustworthy; the rest are warnings

// What a finding is about. Launch: the launch as a whole (refused before it ran, or cancelled):
// block, thread, site and address mean nothing. Block: a block (its threads disagree at a
// barrier, its shared arrays are over the limit): block and site. Thread: one thread: block,
// thread, site, and the address where has_address says so. FindingPlace (sim/finding_text.h)
// names what the scope has.
enum class FindingScope : uint8_t { Launch, Block, Thread };

struct Finding {
  FindingKind kind{};
  FindingScope scope = FindingScope::Thread;
  bool has_address = false;
  // What happened to the place's thread and why it matters ("the thread accesses y[256], ..."),
  // never the place itself: FindingText puts the place in front.
  std::string message;
  Dim3 block, thread;
  int site = -1;           // index into Trace::sites, -1 when none
  int array = -1;
  uint64_t address = 0;
  int64_t index = 0;
  uint64_t occurrences = 1;  // the same kind at the same site, counted once
};

// What to record per instruction.
struct Selection {
  enum class Kind { None, Warp, Block, All } kind = Kind::Warp;
  uint32_t block = 0;  // linear block index
  uint32_t warp = 0;
};

struct LaunchShape {
  Dim3 grid, block;
  // Bytes of dynamic shared memory (the third <<<>>> argument): the size of the block's
  // `extern __shared__` arrays, which all start at the same address.
  uint32_t dynamic_shared_bytes = 0;
  uint64_t Threads() const { return grid.Count() * block.Count(); }
  // Warps per block: threads are numbered x fastest, then y, then z, and cut into warps of 32
  // (the last one partial); CUDA C++ Programming Guide, "Thread Hierarchy" and "SIMT Architecture".
  uint32_t WarpsPerBlock() const { return uint32_t((block.Count() + kWarpSize - 1) / kWarpSize); }
  // The linear id of block b, numbered as threads are (x fastest), and of thread t in its block.
  uint64_t BlockId(const Dim3& b) const { return b.x + uint64_t(grid.x) * (b.y + uint64_t(grid.y) * b.z); }
  uint32_t ThreadId(const Dim3& t) const { return t.x + block.x * (t.y + block.y * t.z); }
};

// Everything one simulated launch produced.
struct Trace {
  LaunchShape shape;
  std::vector<Site> sites;
  std::vector<ArrayInfo> arrays;
  std::vector<WarpInstruction> instructions;  // the selection's, in issue order
  bool truncated = false;                     // hit the trace cap
  Counters total;
  std::map<uint32_t, Counters> per_line;      // source line -> counters
  std::vector<Finding> findings;
  uint64_t barriers = 0;
  double seconds = 0;  // wall time of the simulation
  // Threads that simulated the last launch (LaunchOptions::threads), and why fewer than asked
  // ran it, if so ("its blocks communicate through global memory").
  uint32_t threads = 1;
  std::string threads_note;
  // The cache model's setup for this launch (sim/hierarchy.h); `device` empty: not modelled.
  struct Caches {
    std::string device;               // profile name, "H100"
    uint32_t registers_per_thread = 0;
    uint32_t blocks_per_sm = 0;
    std::string limited_by;           // what limits residency
    uint32_t l1_bytes = 0, l1_sets = 0, l1_ways = 0;
    uint64_t l2_bytes = 0;
    uint64_t waves = 0;
    uint32_t code_bytes = 0;          // the kernel's code the launch read from DRAM
    int64_t traced_sm = -1;           // the SM that runs the selected block (-1: none selected)
    // The traced instructions whose served-from marks, L1 log and L2 lines are the whole launch's:
    // [0, final_steps). All of them but in a prefix picture (LaunchOptions::on_selected_prefix),
    // whose later steps' marks are still to come.
    size_t final_steps = SIZE_MAX;
    // The L1 of traced_sm as it changes, for a picture of it: each event sets a slot (set *
    // ways + way) to a line (~0: emptied) with its valid sectors. l1_events_until[i] is
    // how many events had happened once trace instruction i was served, so the L1 at step i
    // is the first l1_events_until[i] events applied to an empty cache.
    struct L1Event {
      uint64_t line;    // byte address / 128, or ~0 when the slot was emptied
      uint32_t slot;
      uint8_t valid;    // sector bits
    };
    std::vector<L1Event> l1_events;
    std::vector<uint32_t> l1_events_until;  // per Trace::instructions entry
    bool l1_events_truncated = false;
    // The L2 lines each traced instruction looked up (its L1 misses, its stores and atomics),
    // one record per line, with the line's set as the instruction left it: the device's L2 is
    // shared by every SM, too large to log whole, so each step keeps only its own sets.
    uint32_t l2_sets = 0, l2_ways = 0;
    struct L2Line {
      uint64_t line = 0;     // byte address / 128
      uint64_t evicted = ~0ull;  // the line the step's fill pushed out of the set, ~0 when none
      uint32_t set = 0;
      uint32_t way = ~0u;    // where the line is after the step (~0: gone already, merged only)
      uint8_t valid = 0;     // its sectors L2 holds after the step (bit i = sector i)
      uint8_t hit = 0;       // the step's sectors L2 held
      uint8_t dram = 0;      // the step's sectors filled from DRAM
      uint8_t merged = 0;    // the step's sectors that came with another SM's read in flight
      uint32_t ways_first = 0;  // into l2_set_ways: the set's l2_ways slots, most recent first
    };
    struct L2Way {
      uint64_t line = ~0ull;  // ~0: empty
      uint8_t valid = 0;
    };
    struct L2Range {
      uint32_t begin = 0, end = 0;  // into l2_lines
    };
    std::vector<L2Line> l2_lines;
    std::vector<L2Way> l2_set_ways;
    std::vector<L2Range> l2_steps;  // per Trace::instructions entry (empty ranges where none)
    bool l2_lines_truncated = false;
  } caches;
};

}  // namespace ws::sim
