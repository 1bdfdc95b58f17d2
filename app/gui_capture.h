// Saving what is on screen: the back buffer as a PNG, and where the views put things as JSON
// (for scripted runs and the GUI tests): the views' grids, lanes and banks, and every piece of
// text found in the frame's draw data, with the rectangle it is clipped to and its window.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "visual/shown_step.h"

struct ImDrawData;
struct ImFontAtlas;

namespace ws::app {

// The back buffer's pixels in x, y, w, h (y from the top), RGB, top row first.
std::vector<uint8_t> ReadPixels(int x, int y, int w, int h, int framebuffer_h);
bool SaveScreenshot(const std::string& path, int width, int height, std::string* why);
bool SavePng(const std::string& path, const std::vector<uint8_t>& rgb, int width, int height, std::string* why);

// One text item as drawn: the glyphs one ImFont::RenderText call laid out (a label, a caption
// with its wrapped lines), found from the glyph quads in the draw data (vertices whose UVs are a
// font glyph's, not the atlas' white pixel), so no view has to register its text.
struct TextRun {
  std::string text;             // the characters (spaces and line breaks recovered from the pen)
  std::string window;           // the window or child the text is drawn in
  visual::Rect rect;            // all glyph quads, before clipping
  std::vector<visual::Rect> lines;
  visual::Rect clip;            // the draw command's clip rectangle
  visual::Rect window_rect;
  float pen_end = 0;            // where the next glyph of the last line would start
  float line_h = 0;             // the line box's height: the font's size as drawn (its ascent to descent)
  // A glyph reaches past the clip rectangle, was cut on the CPU, or the last line's pen ends
  // within 1 px of the clip rectangle's right edge (where ImGui drops the glyphs that follow).
  bool clipped = false;
  bool outside = false;         // the same against the display
};
std::vector<TextRun> FindTextRuns(const ImDrawData& draw_data, const ImFontAtlas& fonts);
// FNV-1a over everything a frame draws: vertices, indices, and each command's clip rectangle,
// texture and range. Two frames with the same hash draw the same pixels.
uint64_t HashDrawData(const ImDrawData& d);

// Pairs of runs (indices) whose lines intersect by more than 1 px both ways.
std::vector<std::pair<int, int>> OverlappingRuns(const std::vector<TextRun>& runs);

// A window whose items reach past its visible region on an axis with no scrollbar.
struct WindowExtent {
  std::string name;
  visual::Rect rect, clip;
  float content_right = 0, content_bottom = 0;
  bool scrollbar_x = false, scrollbar_y = false;
  bool overflow = false;
};
std::vector<WindowExtent> FindWindowExtents();  // the current ImGui context's, after Render()

// The array each pane's shown warp touches at the current step.
struct CurrentAccess {
  std::string pane, array;
};

// Where each shown pane stands and how B follows A, for the tests of the stepping rules.
struct PaneStep {
  std::string pane;   // "A" or "B"
  int step = 0;       // from 0, as --step
  int steps = 0;      // of the shown warp
  std::string label;  // as the views say it (visual::StepLabel)
  std::string role;   // the step's role (visual::RoleName); empty without a step
};
struct StepState {
  std::vector<PaneStep> panes;
  std::string focus;    // the pane the other follows
  std::string follow;   // "lockstep", "role" or "alone"; empty with one pane shown
  std::string why;      // "chosen" (by L or a slide), or the rule's: "roles match", "same steps", "roles differ"
  std::string words;    // as the status line says it: "B follows A by role"
};

bool SaveLayout(const std::string& path, const std::vector<visual::Placed>& placed, const std::vector<TextRun>& text,
                const std::vector<WindowExtent>& windows, const std::vector<CurrentAccess>& current, const StepState& steps,
                int width, int height, float scale, std::string* why);

}  // namespace ws::app
