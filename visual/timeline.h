// Timeline bar: step by warp instruction or loop iteration, play/pause with a speed, a scrub
// slider, how B follows A, and block/warp choice by clicking a map of the grid's blocks and a map
// of the block's threads (the current block and warp outlined so they show at any size). Two
// rows of controls, the maps beside them (one row in a short window).
#pragma once
#include <cstdint>

#include "sim/trace.h"
#include "visual/steps.h"

namespace ws::visual {

struct Playback {
  int step = 0;           // index into the focused warp's steps
  int steps = 0;          // how many there are
  bool playing = false;
  float speed = 4.0f;     // steps per second
  uint32_t block = 0, warp = 0;
  bool whole_block = false;
  bool compare = false;   // two panes shown: the follow mode matters
  Follow follow = Follow::Lockstep;
  FollowWhy follow_why = FollowWhy::Chosen;  // chosen with L, or why the rule (DefaultFollow) chose it
  const char* leader = "A";  // the focused pane, which the other follows
};

// What the user asked for this frame (the app applies it to both panes).
struct TimelineInput {
  bool step_changed = false;      // pb.step was set
  int iteration = 0;              // -1 / +1: previous / next loop iteration
  bool selection_changed = false; // pb.block or pb.warp was set
  bool follow_changed = false;    // the follow-mode button was pressed (next mode)
};

class TimelineView {
 public:
  // `one_row` (a short window): the maps, the transport, the scrub slider, whole block and the
  // follow mode on one row; the speed then sits in the toolbar's "more…" and where the warp is in
  // the maps' tooltips and the pane's instruction line.
  TimelineInput Draw(const sim::Trace* trace, Playback& pb, float scale, bool one_row = false);
  // Height of the bar (its window padding included) at the current style.
  static float Height(bool compare, float scale, bool one_row = false);
};

}  // namespace ws::visual
