// What the desktop program remembers between runs (UI scale, window size, the variants last shown
// outside a lesson script), in $XDG_CONFIG_HOME/warpscope/settings.json (or ~/.config/...).
#pragma once
#include <string>

namespace ws::app {

struct GuiSettings {
  float scale = 1.0f;
  std::string variant, compare;  // empty: kDefaultVariant, kDefaultCompare (cli.h)
  bool compare_on = true;
  int width = 1600, height = 1000;
};

// The ranges a setting may take; a value outside is clamped (a non-number, infinity or NaN
// becomes the default), and the message says so.
inline constexpr float kMinScale = 0.5f, kMaxScale = 4.0f;
inline constexpr int kMinWidth = 320, kMinHeight = 240, kMaxWindowSide = 16384;

std::string SettingsPath();
// Missing file: defaults, no message. Malformed file: defaults, and `message` says why. A value
// of the wrong type or out of range: that value clamped or defaulted, and `message` says which.
// No window is needed: this is plain file and JSON work.
GuiSettings LoadSettings(const std::string& path, std::string* message);
// Parses the file's text (what LoadSettings does after reading it); `origin` names it in messages.
GuiSettings ParseSettings(const std::string& text, const std::string& origin, std::string* message);
// Brings every field into its range, so that what is saved can be loaded unchanged; returns
// false, with `message` naming the fields, if something had to change.
bool ClampSettings(GuiSettings& s, std::string* message);
// Saves the settings clamped (never a value that would be refused on the next start).
bool SaveSettings(const GuiSettings& s, const std::string& path, std::string* message);

}  // namespace ws::app
