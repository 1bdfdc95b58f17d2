// The findings of a launch: the log, how a finding names a thread, and the wording of the
// findings that the dialect's hooks and the fault guard's leaves produce.
// Section index: [SECTION] the log · [SECTION] bounds and alignment · [SECTION] faults
#include "sim/findings.h"

#include <signal.h>

#include <cstdio>

#include "sim/engine_impl.h"

namespace ws::sim::detail {

// ---- [SECTION] the log --------------------------------------------------------------------
bool FindingLog::CountRepeat(FindingKind kind, int site) {
  auto it = index_.find(std::make_pair(int(kind), site));
  if (it == index_.end()) return false;
  ++(*out_)[it->second].occurrences;
  return true;
}

void FindingLog::Add(FindingKind kind, const ThreadCtx& t, int site, std::string message,
                     int array, uint64_t address, int64_t index, bool has_address,
                     FindingScope scope) {
  auto key = std::make_pair(int(kind), site);
  auto it = index_.find(key);
  if (it != index_.end()) { ++(*out_)[it->second].occurrences; return; }
  if (out_->size() >= max_) return;
  Finding f;
  f.kind = kind;
  f.scope = scope;
  f.has_address = has_address;
  f.message = std::move(message);
  f.block = {t.block_idx.x, t.block_idx.y, t.block_idx.z};
  f.thread = {t.thread_idx.x, t.thread_idx.y, t.thread_idx.z};
  f.site = site;
  f.array = array;
  f.address = address;
  f.index = index;
  index_.emplace(key, out_->size());
  out_->push_back(std::move(f));
}

void FindingLog::Merge(Finding f) {
  auto key = std::make_pair(int(f.kind), f.site);
  auto it = index_.find(key);
  if (it != index_.end()) { (*out_)[it->second].occurrences += f.occurrences; return; }
  if (out_->size() >= max_) return;
  index_.emplace(key, out_->size());
  out_->push_back(std::move(f));
}

std::string LaneList(uint32_t mask) {
  std::string out;
  for (int l = 0; l < 32;) {
    if (!(mask >> l & 1)) { ++l; continue; }
    int end = l;
    while (end + 1 < 32 && (mask >> (end + 1) & 1)) ++end;
    if (!out.empty()) out += ", ";
    out += std::to_string(l);
    if (end > l) out += "-" + std::to_string(end);
    l = end + 1;
  }
  return out;
}

// ---- [SECTION] bounds and alignment -------------------------------------------------------
void ReportOutOfBounds(ThreadCtx& t, std::source_location loc, int array, int64_t index) {
  EngineImpl& e = *t.engine;
  e.CountProgress(t, 1);  // a skipped access is still progress: a loop of them must end too
  t.last_loc = loc;
  EngineSection section(t);
  const int site = int(e.InternSite(loc));
  if (array < 0 || array >= int(e.trace.arrays.size())) {
    // A Global<T> made by its default constructor (or from a null pointer) names no array.
    if (e.findings.CountRepeat(FindingKind::NullPointer, site)) return;
    e.findings.Add(FindingKind::NullPointer, t, site,
                   "the thread accesses element " + std::to_string(index) +
                       " through a null pointer (a Global that points to no array); a GPU faults; "
                       "the access was skipped",
                   -1, 0, index, false);
    return;
  }
  if (e.findings.CountRepeat(FindingKind::OutOfBounds, site)) return;
  const ArrayInfo& a = e.trace.arrays[array];
  const uint64_t addr = a.base + uint64_t(index) * a.elem_bytes;
  e.findings.Add(FindingKind::OutOfBounds, t, site,
                 "the thread accesses " + a.name + "[" + std::to_string(index) + "], outside its " +
                     std::to_string(a.count) + " elements; the access was skipped",
                 array, addr, index, true);
}

void ReportMisaligned(ThreadCtx& t, std::source_location loc, int array, uint64_t addr,
                      uint32_t width) {
  EngineImpl& e = *t.engine;
  e.CountProgress(t, 1);
  t.last_loc = loc;
  EngineSection section(t);
  const int site = int(e.InternSite(loc));
  if (e.findings.CountRepeat(FindingKind::Misaligned, site)) return;
  std::string name = array >= 0 ? e.trace.arrays[array].name : "?";
  e.findings.Add(FindingKind::Misaligned, t, site,
                 "the thread makes a " + std::to_string(width) + "-byte access to " + name +
                     " at an address that is not a multiple of " + std::to_string(width) +
                     ": a GPU faults (misaligned address); the access was skipped",
                 array, addr, 0, true);
}

// ---- [SECTION] faults ---------------------------------------------------------------------
void EngineImpl::ReportLeave(const FaultGuard& g) {
  const GuardExit reason = g.exit();
  const ThreadCtx* who = static_cast<const ThreadCtx*>(g.subject());
  if (reason == GuardExit::Cancel || !who) {
    ThreadCtx none;
    const uint64_t done = opt.control ? opt.control->blocks_done.load() : 0;
    findings.Add(FindingKind::Cancelled, none, -1,
                 "the simulation was cancelled after " + std::to_string(done) + " of " +
                     std::to_string(trace.shape.grid.Count()) +
                     " blocks; the counters cover only what ran",
                 -1, 0, 0, false, FindingScope::Launch);
    return;
  }
  const ThreadCtx& t = *who;
  const bool known = t.last_loc.line() != 0;
  const int site = known ? int(InternSite(t.last_loc)) : -1;
  // The place names the line; the message says which line it is.
  const std::string at = known ? " at this line or after it (the last line where it touched memory)"
                               : " before its first memory access";
  const std::string stop = ". The launch stopped there, as a GPU stops after a fault.";
  switch (reason) {
    case GuardExit::Fault:
      if (g.signo() == SIGFPE) {
        const char* what = g.code() == FPE_INTDIV   ? "divided an integer by zero"
                           : g.code() == FPE_INTOVF ? "overflowed an integer division (INT_MIN / -1)"
                                                    : "raised an arithmetic trap (SIGFPE)";
        findings.Add(FindingKind::ArithmeticTrap, t, site,
                     "the thread " + std::string(what) + at +
                         "; a GPU does not trap but gives an undefined result" + stop,
                     -1, 0, 0);
      } else if (stacks.InGuard(t.linear, g.address())) {
        findings.Add(FindingKind::StackOverflow, t, site,
                     "the thread's stack overflowed" + at +
                         ": it needed more than " + std::to_string(kStackBytes) +
                         " bytes (local arrays, recursion); the simulator gives each thread " +
                         std::to_string(kStackBytes) +
                         " bytes (a GPU allows at most 512 KiB of local memory per thread)" + stop,
                     -1, uintptr_t(g.address()), 0, true);
      } else {
        findings.Add(FindingKind::MemoryFault, t, site,
                     "the thread touched memory outside every array and stack" + at + " (" + (g.signo() == SIGBUS ? "SIGBUS" : "SIGSEGV") +
                         "): a pointer that does not come from the kernel's arguments?" + stop,
                     -1, uintptr_t(g.address()), 0, true);
      }
      return;
    case GuardExit::Watchdog: {
      char secs[32];
      std::snprintf(secs, sizeof secs, "%.1f", watchdog ? watchdog->seconds() : 0.0);
      findings.Add(FindingKind::NoProgress, t, site,
                   std::string("no progress after ") + secs + " s of CPU time" + at +
                       ": the thread ran that long without a memory access or synchronisation "
                       "(an endless loop? the watchdog is --watchdog seconds)" + stop,
                   -1, 0, 0);
      return;
    }
    case GuardExit::ProgressBudget:
      findings.Add(FindingKind::NoProgress, t, site,
                   "no progress after " + std::to_string(opt.progress_budget) + " instructions" + at +
                       ": the thread made that many memory accesses and synchronisations "
                       "without finishing (an endless loop, such as a grid-stride loop without its "
                       "increment? the budget per thread is --progress-budget)" + stop,
                   -1, 0, 0);
      return;
    case GuardExit::Cancel:
    case GuardExit::None: return;
  }
}

}  // namespace ws::sim::detail
