// A Trace as bytes, for the kernel-file runner to send back: compact (numbers as varints, a
// lane's address as the difference from the lane before) and read back with every index, kind
// and count checked, so that a Trace read from the runner is safe for every view to use.
#pragma once
#include <string>

#include "sim/trace.h"
#include "toolchain/wire.h"

namespace ws::toolchain {

void EncodeTrace(const sim::Trace& trace, wire::Writer& out);

// Throws wire::BadBytes when the bytes are not a well-formed Trace.
sim::Trace DecodeTrace(wire::Reader& in);

}  // namespace ws::toolchain
