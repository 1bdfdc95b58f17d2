// Draws Dear ImGui's draw data with OpenGL 3.3, cheaply for a software rasteriser.
//
// Most of a frame's pixels are flat: memory cells, backgrounds, bars, frames. ImGui's own OpenGL
// backend draws them as it draws glyphs, sampling the font atlas's white texel and blending. Under
// Mesa's llvmpipe (Xvfb, machines without a GPU) the texture fetch and the blend are most of what
// a pixel costs: a 1920×1080 rectangle took about 19 ms of CPU that way, 9.5 ms without the fetch
// and 6 ms without the fetch and the blend (docs/PERFORMANCE.md). So each draw command's triangles
// are drawn in runs, in their order: glyphs and textured lines with ImGui's shader; flat triangles
// with a shader that reads no texture; flat triangles of opaque colour also without blending. The
// pixels are the backend's: the white texel times a colour is the colour, and an opaque colour
// blended over anything is itself.
#pragma once

struct ImDrawData;

namespace ws::app {

class GuiRenderer {
 public:
  GuiRenderer() = default;
  GuiRenderer(const GuiRenderer&) = delete;
  GuiRenderer& operator=(const GuiRenderer&) = delete;
  ~GuiRenderer();

  // Compiles the shaders and makes the buffers; the GL context must be current. False (with the
  // reason on stderr) when the shaders do not build: then Render draws nothing.
  bool Init();
  // Draws the frame's draw data into the current framebuffer (the font atlas is ImGui's texture,
  // made by ImGui's OpenGL backend).
  void Render(const ImDrawData* data);
  // Frees the GL objects (the context must still be current).
  void Shutdown();

  // Draw calls of the last frame (a benchmark figure).
  int draw_calls() const { return draw_calls_; }

 private:
  void SetupState(int fb_width, int fb_height, const ImDrawData* data);

  unsigned programs_[2] = {0, 0};  // textured, flat
  int proj_[2] = {-1, -1};         // the projection's uniform in each
  int texture_uniform_ = -1;
  unsigned vao_ = 0, vbo_ = 0, ebo_ = 0;
  int draw_calls_ = 0;
};

}  // namespace ws::app
