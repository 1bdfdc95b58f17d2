// The colours every view shares: lanes on a viridis ramp (ordered, readable with the common
// colour-vision deficiencies), marks from the Okabe-Ito palette, grey for what is off.
#pragma once
#include <cstdint>

namespace ws::visual {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

Rgb LaneRgb(int lane);              // lane 0 deep blue-violet ... lane 31 yellow
Rgb HeatRgb(float t);               // touches over the run, t in 0..1: dark grey -> light grey
inline constexpr Rgb kBackground{24, 24, 28};   // untouched element
inline constexpr Rgb kCellEmpty{70, 72, 86};   // memory view: an element no shown warp touched yet (2:1 on the pane)
Rgb TouchedRgb(float t);            // memory view, touches so far, t in 0..1: grey -> near white
Rgb ArrayRgb(int array);            // L1 view: a line's array (six hues no mark uses, repeating)
inline constexpr Rgb kMasked{70, 70, 70};       // a lane switched off (divergence)
// Vermillion: more than the ideal: a bank with more than one word, a source line whose counters
// exceed their ideal.
inline constexpr Rgb kConflict{213, 94, 0};
inline constexpr Rgb kBankOk{0, 114, 178};      // blue: a bank with one word (or none)
inline constexpr Rgb kLine{255, 255, 255};      // 128-byte line outline
inline constexpr Rgb kSector{86, 180, 233};     // sky blue: 32-byte sector outline
// Where the cache model served a global sector (a bar under its cells; Okabe-Ito, told apart
// with the common colour-vision deficiencies and from the lanes' viridis).
inline constexpr Rgb kServedL1{0, 158, 115};     // bluish green: an L1 hit
inline constexpr Rgb kServedL2{230, 159, 0};     // orange: from L2 (an L1 miss L2 held; every store)
inline constexpr Rgb kServedDram{204, 121, 167}; // reddish purple: from DRAM
inline constexpr Rgb kError{204, 51, 17};       // an error: its banner, a source line's mark
inline constexpr Rgb kErrorText{255, 115, 77};  // an error said in text on the dark window (kError, lighter)
inline constexpr Rgb kWarning{133, 96, 12};     // dark ochre: a warning's banner (a race, ...)
inline constexpr Rgb kWarningText{214, 170, 90};  // a warning or notice in text (a correction, a cut trace)
// Yellow: where we are now: the source line being executed, the step's headline, the current
// block, the pane the keys follow.
inline constexpr Rgb kHighlight{240, 228, 66};
inline constexpr Rgb kHeadlineFill{48, 46, 20};     // behind the step's headline (kHighlight, darkened)
inline constexpr Rgb kHeadlineDetail{230, 224, 170};  // the headline's second line (kHighlight, paler)
// Greys of the chrome: frames, fills and the cells that stand for no lane.
inline constexpr Rgb kFrame{150, 150, 160};      // a box's frame (memory chart), a line of no array (L1 view)
inline constexpr Rgb kBoxFill{40, 44, 56};       // inside a box (memory chart, the L1's slots)
inline constexpr Rgb kPieceOutline{190, 190, 205};  // memory view: one struct's 4-byte pieces, grouped
inline constexpr Rgb kMaskedOutline{120, 120, 120};  // the lane strip: the edge of a masked lane
inline constexpr Rgb kOtherBlock{70, 80, 95};    // the timeline's grid: a block not shown
inline constexpr Rgb kOtherWarp[2] = {{55, 55, 62}, {70, 70, 78}};  // the block map: other warps, alternating
inline constexpr Rgb kShownWarps{90, 90, 100};   // the block map in whole-block mode: every warp is shown
inline constexpr Rgb kBarShown{190, 190, 205};   // a timing bar of a variant on screen (A or B)
inline constexpr Rgb kBarOther{89, 89, 102};     // a timing bar of another variant
inline constexpr Rgb kBlack{0, 0, 0};

// ImGui's packed colour (ABGR in memory order RGBA) with alpha 0..255.
inline uint32_t Pack(Rgb c, uint8_t a = 255) {
  return uint32_t(c.r) | uint32_t(c.g) << 8 | uint32_t(c.b) << 16 | uint32_t(a) << 24;
}
// Black or white, whichever reads better on `c`.
Rgb TextOn(Rgb c);

}  // namespace ws::visual
