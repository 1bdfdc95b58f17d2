// A trace as bytes for tests that compare two runs of one launch: the codec writes its counters,
// its instructions with their marks and Trace::caches; the wall time and the threads that ran it,
// which may differ, are left out.
#pragma once
#include <string>

#include "sim/trace.h"
#include "toolchain/trace_codec.h"

namespace ws::test {

inline std::string TraceBytes(sim::Trace t) {
  t.seconds = 0;
  t.threads = 1;
  t.threads_note.clear();
  toolchain::wire::Writer w;
  toolchain::EncodeTrace(t, w);
  return w.Take();
}

}  // namespace ws::test
