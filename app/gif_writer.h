// Writing animated GIFs for slides (giflib) with a fixed 256-colour palette built from the
// program's own colours, and checking what an export asks for. No window needed.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "visual/palette.h"

namespace ws::app {

// "--steps FIRST..LAST": warp-instruction indices, 0-based, FIRST <= LAST.
struct StepRange {
  int first = 0, last = 0;
};
bool ParseStepRange(const std::string& text, StepRange* out, std::string* why);

inline constexpr int kMaxGifFps = 50;  // GIF delays are in 1/100 s; viewers slow delays under 2 down
// fps in 1..kMaxGifFps, and a path that can be written (checked without truncating an existing file).
bool CheckGifRequest(const std::string& path, int fps, std::string* why);
bool CanWrite(const std::string& path, std::string* why);

// 256 colours: `keys` first (duplicates dropped; the lane, mark and style colours the frames are
// drawn in, so they come out exact), then a grey ramp, then an even RGB cube for the rest.
std::vector<visual::Rgb> SlidePalette(const std::vector<visual::Rgb>& keys);

// Maps RGB pixels to the nearest palette entry (squared distance), caching each colour's answer.
class Quantiser {
 public:
  explicit Quantiser(std::vector<visual::Rgb> palette);
  uint8_t Index(visual::Rgb c);
  const std::vector<visual::Rgb>& Palette() const { return palette_; }

 private:
  std::vector<visual::Rgb> palette_;
  std::vector<uint8_t> index_;  // 2^24 entries, valid where known_ has the bit
  std::vector<uint64_t> known_;
};

// Writes frames of one size as they come; each frame after the first stores only the rectangle
// that changed. The file loops forever; every frame shows for 1/fps s.
class GifWriter {
 public:
  GifWriter();
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;
  bool Open(const std::string& path, int width, int height, int fps, std::vector<visual::Rgb> palette, std::string* why);
  // `rgb`: width*height*3 bytes, top row first.
  bool AddFrame(const uint8_t* rgb, std::string* why);
  bool Close(std::string* why);
  int Frames() const { return frames_; }
  int Width() const { return width_; }
  int Height() const { return height_; }

 private:
  struct State;
  std::unique_ptr<State> s_;
  int width_ = 0, height_ = 0, delay_cs_ = 0, frames_ = 0;
};

}  // namespace ws::app
