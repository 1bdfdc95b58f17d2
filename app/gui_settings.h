// What the desktop program remembers between runs (UI scale, last lesson, window size), in
// $XDG_CONFIG_HOME/warpscope/settings.json (or ~/.config/warpscope/settings.json).
#pragma once
#include <string>

namespace ws::app {

struct GuiSettings {
  float scale = 1.0f;
  std::string variant, compare;  // empty: the default lesson
  bool compare_on = true;
  int width = 1600, height = 1000;
};

std::string SettingsPath();
// Missing file: defaults, no message. Malformed: defaults and `message` says why.
GuiSettings LoadSettings(const std::string& path, std::string* message);
bool SaveSettings(const GuiSettings& s, const std::string& path, std::string* message);

}  // namespace ws::app
