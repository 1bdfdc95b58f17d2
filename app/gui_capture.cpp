// Screenshot and layout capture (see gui_capture.h).
#include "app/gui_capture.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

namespace ws::app {

bool SaveScreenshot(const std::string& path, int width, int height, std::string* why) {
  std::vector<unsigned char> px(size_t(width) * height * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, px.data());
  stbi_flip_vertically_on_write(1);
  if (!stbi_write_png(path.c_str(), width, height, 3, px.data(), width * 3)) {
    if (why) *why = "cannot write " + path;
    return false;
  }
  return true;
}

bool SaveLayout(const std::string& path, const std::vector<visual::Placed>& placed, int width, int height,
                float scale, std::string* why) {
  nlohmann::json j;
  j["width"] = width;
  j["height"] = height;
  j["scale"] = scale;
  auto& items = j["placed"] = nlohmann::json::array();
  for (const auto& p : placed)
    items.push_back({{"pane", p.pane}, {"kind", p.kind}, {"name", p.name},
                     {"rect", {p.rect.x, p.rect.y, p.rect.w, p.rect.h}}, {"rows", p.rows}, {"cols", p.cols},
                     {"zoom", p.zoom}, {"header_h", p.header_h}, {"slot_h", p.slot_h}, {"cell", p.cell},
                     {"row0", p.row0}, {"col0", p.col0}, {"cells_per_elem", p.cells_per_elem}});
  std::ofstream out(path);
  out << j.dump(1) << "\n";
  if (!out) {
    if (why) *why = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace ws::app
