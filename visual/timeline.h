// Timeline: step by warp instruction or loop iteration, play/pause with a speed, a scrub
// slider, and block/warp choice by clicking a block of the grid and a thread of the block.
#pragma once
#include <cstdint>

#include "sim/trace.h"

namespace ws::visual {

struct Playback {
  int step = 0;           // index into the focused warp's steps
  int steps = 0;          // how many there are
  bool playing = false;
  float speed = 4.0f;     // steps per second
  uint32_t block = 0, warp = 0;
  bool whole_block = false;
};

// What the user asked for this frame (the app applies it to both panes in lockstep).
struct TimelineInput {
  bool step_changed = false;      // pb.step was set
  int iteration = 0;              // -1 / +1: previous / next loop iteration
  bool selection_changed = false; // pb.block or pb.warp was set
};

class TimelineView {
 public:
  TimelineInput Draw(const sim::Trace* trace, Playback& pb, float scale);
};

}  // namespace ws::visual
