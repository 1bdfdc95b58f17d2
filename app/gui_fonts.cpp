// Fonts and style: the DejaVu fonts and ImGui's style at the scale the window draws at, rebuilt
// when that scale changes (see gui_app.h).
#include "app/gui_app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <filesystem>

namespace ws::app {

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
  mono_ = std::filesystem::exists(dir + "DejaVuSansMono.ttf")
              ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSansMono.ttf").c_str(), 15.0f * scale_, &cfg, ranges)
              : nullptr;
  big_ = std::filesystem::exists(dir + "DejaVuSans-Bold.ttf")
             ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSans-Bold.ttf").c_str(), 19.0f * scale_, &cfg, ranges)
             : nullptr;
  // The cost badge: the largest text on screen, read from the back of the hall.
  badge_ = std::filesystem::exists(dir + "DejaVuSans-Bold.ttf")
               ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSans-Bold.ttf").c_str(), 24.0f * scale_, &cfg, ranges)
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

// Presenter mode draws larger than the chosen scale, as far as the window's height allows (a
// 720-line projector at scale 2 is already as large as the views can bear).
void Gui::UpdateScale() {
  int w = 0, h = 0;
  if (window_) glfwGetWindowSize(window_, &w, &h);
  const float room = h > 0 ? float(h) / 450.0f : base_scale_;
  const float s = present_ ? std::clamp(std::min(base_scale_ * kPresentZoom, room), base_scale_, kMaxScale) : base_scale_;
  if (s != scale_) fonts_dirty_ = true;
  scale_ = s;
}

}  // namespace ws::app
