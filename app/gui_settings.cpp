// Settings file (see gui_settings.h).
#include "app/gui_settings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace ws::app {

std::string SettingsPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::string base = xdg && *xdg ? xdg : home && *home ? std::string(home) + "/.config" : ".";
  return base + "/warpscope/settings.json";
}

GuiSettings LoadSettings(const std::string& path, std::string* message) {
  GuiSettings s;
  std::ifstream in(path);
  if (!in) return s;
  try {
    const auto j = nlohmann::json::parse(in);
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    s.scale = std::clamp(j.value("scale", 1.0f), 0.5f, 4.0f);
    s.variant = j.value("variant", std::string());
    s.compare = j.value("compare", std::string());
    s.compare_on = j.value("compare_on", true);
    s.width = std::clamp(j.value("width", 1600), 320, 16384);
    s.height = std::clamp(j.value("height", 1000), 240, 16384);
  } catch (const std::exception& e) {
    if (message) *message = "ignored " + path + ": " + e.what();
    return GuiSettings{};
  }
  return s;
}

bool SaveSettings(const GuiSettings& s, const std::string& path, std::string* message) {
  try {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    nlohmann::json j{{"scale", s.scale},   {"variant", s.variant}, {"compare", s.compare},
                     {"compare_on", s.compare_on}, {"width", s.width}, {"height", s.height}};
    std::ofstream out(path);
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write");
  } catch (const std::exception& e) {
    if (message) *message = "could not save " + path + ": " + e.what();
    return false;
  }
  return true;
}

}  // namespace ws::app
