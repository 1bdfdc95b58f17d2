// Trace vocabulary: names of enums and the counter arithmetic.
#include "sim/trace.h"

#include "sim/rules.h"

namespace ws::sim {

const char* ToString(Space s) { return s == Space::Global ? "global" : "shared"; }

const char* ToString(Op o) {
  switch (o) {
    case Op::Load: return "ld";
    case Op::Store: return "st";
    case Op::Atomic: return "atom";
    case Op::Reduction: return "red";
  }
  return "?";
}

const char* ToString(FindingKind k) {
  switch (k) {
    case FindingKind::OutOfBounds: return "out-of-bounds";
    case FindingKind::Misaligned: return "misaligned";
    case FindingKind::SharedRace: return "shared-race";
    case FindingKind::WarpSyncRace: return "warp-synchronous-race";
    case FindingKind::BarrierDivergence: return "barrier-divergence";
    case FindingKind::ShuffleMask: return "shuffle-mask";
    case FindingKind::LaunchLimit: return "launch-limit";
    case FindingKind::KernelException: return "kernel-exception";
    case FindingKind::NullPointer: return "null-pointer";
    case FindingKind::UninitializedShared: return "uninitialized-shared-read";
    case FindingKind::StackOverflow: return "stack-overflow";
    case FindingKind::ArithmeticTrap: return "arithmetic-trap";
    case FindingKind::MemoryFault: return "memory-fault";
    case FindingKind::NoProgress: return "no-progress";
    case FindingKind::Cancelled: return "cancelled";
  }
  return "?";
}

const char* ToString(ServedFrom s) {
  switch (s) {
    case ServedFrom::None: return "-";
    case ServedFrom::L1: return "L1";
    case ServedFrom::L2: return "L2";
    case ServedFrom::Dram: return "DRAM";
  }
  return "?";
}

int ServedSectors(const WarpInstruction& ins, ServedSector (&out)[kWarpSize]) {
  if (ins.space != Space::Global) return 0;
  uint64_t sectors[kWarpSize];
  const int n = DistinctSectors(ins, sectors);
  for (int i = 0; i < n; ++i) out[i] = {sectors[i], SectorServedFrom(ins, i)};
  return n;
}

bool IsError(FindingKind k) { return k != FindingKind::WarpSyncRace; }

Counters& Counters::operator+=(const Counters& o) {
  for (int i = 0; i < 4; ++i) {
    global_requests[i] += o.global_requests[i];
    global_sectors[i] += o.global_sectors[i];
    global_ideal_sectors[i] += o.global_ideal_sectors[i];
    global_lines[i] += o.global_lines[i];
    global_l2_requests[i] += o.global_l2_requests[i];
  }
  for (int i = 0; i < 3; ++i) {
    shared_inst[i] += o.shared_inst[i];
    shared_wavefronts[i] += o.shared_wavefronts[i];
    shared_ideal_wavefronts[i] += o.shared_ideal_wavefronts[i];
    shared_conflicts[i] += o.shared_conflicts[i];
  }
  mem_inst += o.mem_inst;
  mem_active_lanes += o.mem_active_lanes;
  lane_accesses += o.lane_accesses;
  atomic_same_address += o.atomic_same_address;
  for (int i = 0; i < 4; ++i) {
    l1_hits[i] += o.l1_hits[i];
    l2_sectors[i] += o.l2_sectors[i];
    l2_hits[i] += o.l2_hits[i];
  }
  dram_read_bytes += o.dram_read_bytes;
  dram_write_bytes += o.dram_write_bytes;
  return *this;
}

void Counters::Add(const WarpInstruction& ins) {
  const int lanes = ins.ActiveLanes();
  ++mem_inst;
  mem_active_lanes += lanes;
  lane_accesses += lanes;
  if (ins.space == Space::Global) {
    const int o = int(ins.op);
    ++global_requests[o];
    global_sectors[o] += ins.sectors;
    global_ideal_sectors[o] += ins.ideal_sectors;
    global_lines[o] += ins.lines;
    global_l2_requests[o] += ins.l2_requests;
    if (ins.same_address_lanes > 1) atomic_same_address += ins.same_address_lanes;
  } else {
    const int o = ins.op == Op::Load ? 0 : ins.op == Op::Store ? 1 : 2;
    // A float atomicAdd on shared memory is a loop of a load and an ATOMS.CAS, once per update
    // to the busiest address (SharedAtomicRounds); each round counted at the first's cost.
    const uint64_t rounds = o == 2 ? SharedAtomicRounds(ins) : 1;
    for (int k : {0, 2}) {
      if (o != 2 || (k == 0 && ins.add != AtomicAdd::Float)) continue;
      shared_inst[k] += rounds;
      shared_wavefronts[k] += rounds * ins.wavefronts;
      shared_ideal_wavefronts[k] += rounds * ins.ideal_wavefronts;
      shared_conflicts[k] += rounds * (ins.wavefronts - ins.ideal_wavefronts);
    }
    if (o != 2) {
      ++shared_inst[o];
      shared_wavefronts[o] += ins.wavefronts;
      shared_ideal_wavefronts[o] += ins.ideal_wavefronts;
      shared_conflicts[o] += ins.wavefronts - ins.ideal_wavefronts;
    }
  }
}

}  // namespace ws::sim
