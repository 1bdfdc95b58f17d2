// The findings of a simulated launch: the log that keeps one per kind and site (later ones
// counted as occurrences), and the wording shared by every part of the engine that reports one.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine.h"

namespace ws::sim::detail {

class FindingLog {
 public:
  // Findings go to `out` (the trace's), at most `max` distinct (kind, site) pairs.
  FindingLog(std::vector<Finding>& out, size_t max) : out_(&out), max_(max) {}
  // True, and one more occurrence counted, when this kind was already reported at this site:
  // the caller need not build the message again.
  bool CountRepeat(FindingKind kind, int site);
  // Reports a finding of thread t, or counts one more occurrence of the one already there.
  void Add(FindingKind kind, const ThreadCtx& t, int site, std::string message, int array,
           uint64_t address, int64_t index, bool has_address = false,
           FindingScope scope = FindingScope::Thread);
  // Another log's finding (a block's, sim/parallel_run.h), with all its occurrences, as Add
  // would have kept it.
  void Merge(Finding f);
  void Reset() { index_.clear(); }  // forgets what it reported (the vector is the caller's)

 private:
  std::vector<Finding>* out_;
  size_t max_;
  std::map<std::pair<int, int>, size_t> index_;  // (kind, site) -> finding
};

// "thread (x,y,z) of block (x,y,z)": how every finding names a thread.
// "0-15, 20, 22-23": the lanes of a mask, runs joined.
std::string LaneList(uint32_t mask);

}  // namespace ws::sim::detail
