// Memory view: every array the variant touches as a grid of elements (one OpenGL texel each),
// with the step's lanes lit in lane colours, their lines and sectors outlined, a fading trail of
// the last steps and a heat map of touches so far; hovering a cell says who touched it and when.
#pragma once
#include <map>
#include <vector>

#include "visual/frame.h"

namespace ws::visual {

class MemoryGridView {
 public:
  MemoryGridView() = default;
  ~MemoryGridView();
  MemoryGridView(const MemoryGridView&) = delete;
  MemoryGridView& operator=(const MemoryGridView&) = delete;

  // Draws into the current ImGui window, filling `height` pixels of it (the full width).
  void Draw(const StepFrame& frame, float height, float scale, std::vector<Placed>* placed);

  // Set by the pane's view menu (the app draws it; presenter mode hides it).
  float zoom = 1.0f;    // magnification of the grids, 1 to 16
  int trail_steps = 3;  // earlier steps of the warp that stay lit, fading, 0 to 8

 private:
  struct Texture {
    unsigned id = 0;
    uint64_t rows = 0, cols = 0;
    uint64_t version = ~0ull;
    const sim::Trace* trace = nullptr;
  };
  void Upload(Texture& t, const StepFrame& frame, const sim::ArrayInfo& a);
  std::map<int, Texture> textures_;  // by array id
  std::vector<uint8_t> pixels_;
  std::vector<uint32_t> counts_;
};

}  // namespace ws::visual
