// Fonts and style: the DejaVu fonts and ImGui's style at the scale the window draws at, rebuilt
// when that scale changes (see gui_app.h).
#include "app/gui_app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace ws::app {

// The step's headline (the cost badge's first line) in pixels: 24 at scale 1, which is 3.3 % of a
// 720-line window; in presenter mode 27, 5.25 % at its least scale.
float Gui::HeadlineSize() const { return (present_ ? 27.0f : 24.0f) * scale_; }

// Every font rasterised at the size it is drawn at (never stretched): rebuilt when the scale changes.
void Gui::LoadFonts() {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
  const std::string dir = "/usr/share/fonts/truetype/dejavu/";
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  ImFont* sans = nullptr;
  if (std::filesystem::exists(dir + "DejaVuSans.ttf"))
    sans = io.Fonts->AddFontFromFileTTF((dir + "DejaVuSans.ttf").c_str(), 16.0f * scale_, &cfg, ranges);
  if (!sans) {
    ImFontConfig def;
    def.SizePixels = 13.0f * scale_;
    io.Fonts->AddFontDefault(&def);
    if (message_.empty()) message_ = "DejaVu fonts not found (apt install fonts-dejavu-core): using the built-in font";
  }
  // The code at the body text's size: presenter mode's source excerpt keeps every text >= 3 % of the height.
  mono_ = std::filesystem::exists(dir + "DejaVuSansMono.ttf")
              ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSansMono.ttf").c_str(), 16.0f * scale_, &cfg, ranges)
              : nullptr;
  big_ = std::filesystem::exists(dir + "DejaVuSans-Bold.ttf")
             ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSans-Bold.ttf").c_str(), 19.0f * scale_, &cfg, ranges)
             : nullptr;
  // The cost badge: the largest text on screen, read from the back of the hall.
  badge_ = std::filesystem::exists(dir + "DejaVuSans-Bold.ttf")
               ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSans-Bold.ttf").c_str(), HeadlineSize(), &cfg, ranges)
               : nullptr;
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.ScaleAllSizes(scale_);
  ImGui::GetStyle() = style;
  fonts_dirty_ = false;
}

// The scale drawn at follows the window's height: 1 on a 720-line screen, 1.5 on a 1080-line one
// (in steps of 1/32, so that a window dragged a pixel taller does not rebuild the fonts), times
// the user's scale (--scale, Ctrl+/-). Presenter mode is the hall layout: at least kPresentZoom
// times the height's scale, so that its every text is >= 3 % of the height and its headline
// (HeadlineSize) >= 5 % (DESIGN.md, "Legible from the back of the hall").
void Gui::UpdateScale() {
  int w = 0, h = 0;
  if (window_) glfwGetWindowSize(window_, &w, &h);
  if (h <= 0) h = kReferenceHeight;  // before the window opens
  const float by_height = std::max(std::floor(float(h) / float(kReferenceHeight) * 32.0f), 1.0f) / 32.0f;
  const float user = present_ ? std::max(base_scale_, kPresentZoom) : base_scale_;
  const float s = std::clamp(by_height * user, kMinScale, 3.0f * kMaxScale);
  if (s != scale_) fonts_dirty_ = true;
  scale_ = s;
}

}  // namespace ws::app
