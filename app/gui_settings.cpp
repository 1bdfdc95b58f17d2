// Settings file (see gui_settings.h). Numbers are read as doubles and range-checked before
// they become ints or floats: converting an out-of-range double is undefined behaviour.
#include "app/gui_settings.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ws::app {
namespace {

void Note(std::string* message, const std::string& text) {
  if (!message) return;
  *message += (message->empty() ? "" : "; ") + text;
}

std::string Number(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

// `key` of `j` as a number in [lo, hi]: missing -> `fallback` silently; not a number or not
// finite -> `fallback` with a note; outside the range -> the nearest end with a note.
double ReadNumber(const nlohmann::json& j, const char* key, double fallback, double lo, double hi,
                  const std::string& origin, std::string* message) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_number()) {
    Note(message, origin + ": \"" + key + "\" is not a number, using " + Number(fallback));
    return fallback;
  }
  const double v = it->get<double>();
  if (!std::isfinite(v)) {
    Note(message, origin + ": \"" + key + "\" is " + Number(v) + ", using " + Number(fallback));
    return fallback;
  }
  if (v < lo || v > hi) {
    const double c = v < lo ? lo : hi;
    Note(message, origin + ": \"" + key + "\" " + Number(v) + " is outside " + Number(lo) + " to " + Number(hi) +
                      ", using " + Number(c));
    return c;
  }
  return v;
}

template <class T>
T ReadAs(const nlohmann::json& j, const char* key, T fallback, bool (nlohmann::json::*is)() const noexcept,
         const char* what, const std::string& origin, std::string* message) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!((*it).*is)()) {
    Note(message, origin + ": \"" + key + "\" is not " + what + ", ignored");
    return fallback;
  }
  return it->get<T>();
}

}  // namespace

std::string SettingsPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::string base = xdg && *xdg ? xdg : home && *home ? std::string(home) + "/.config" : ".";
  return base + "/warpscope/settings.json";
}

GuiSettings ParseSettings(const std::string& text, const std::string& origin, std::string* message) {
  GuiSettings s;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    Note(message, "ignored " + origin + ": " + e.what());
    return s;
  }
  if (!j.is_object()) {
    Note(message, "ignored " + origin + ": not a JSON object");
    return s;
  }
  const GuiSettings d;
  s.scale = float(ReadNumber(j, "scale", d.scale, kMinScale, kMaxScale, origin, message));
  s.width = int(std::lround(ReadNumber(j, "width", d.width, kMinWidth, kMaxWindowSide, origin, message)));
  s.height = int(std::lround(ReadNumber(j, "height", d.height, kMinHeight, kMaxWindowSide, origin, message)));
  s.variant = ReadAs<std::string>(j, "variant", d.variant, &nlohmann::json::is_string, "a string", origin, message);
  s.compare = ReadAs<std::string>(j, "compare", d.compare, &nlohmann::json::is_string, "a string", origin, message);
  s.compare_on = ReadAs<bool>(j, "compare_on", d.compare_on, &nlohmann::json::is_boolean, "true or false", origin,
                              message);
  return s;
}

GuiSettings LoadSettings(const std::string& path, std::string* message) {
  std::ifstream in(path);
  if (!in) return GuiSettings{};
  std::ostringstream text;
  text << in.rdbuf();
  return ParseSettings(text.str(), path, message);
}

bool ClampSettings(GuiSettings& s, std::string* message) {
  const GuiSettings d;
  bool ok = true;
  if (!std::isfinite(s.scale)) {
    Note(message, "scale " + Number(s.scale) + " is not a number, using " + Number(d.scale));
    s.scale = d.scale;
    ok = false;
  } else if (s.scale < kMinScale || s.scale > kMaxScale) {
    const float c = s.scale < kMinScale ? kMinScale : kMaxScale;
    Note(message, "scale " + Number(s.scale) + " is outside " + Number(kMinScale) + " to " + Number(kMaxScale) +
                      ", using " + Number(c));
    s.scale = c;
    ok = false;
  }
  auto side = [&](int& v, int lo, const char* name) {
    if (v >= lo && v <= kMaxWindowSide) return;
    const int c = v < lo ? lo : kMaxWindowSide;
    Note(message, std::string(name) + " " + std::to_string(v) + " is outside " + std::to_string(lo) + " to " +
                      std::to_string(kMaxWindowSide) + ", using " + std::to_string(c));
    v = c;
    ok = false;
  };
  side(s.width, kMinWidth, "width");
  side(s.height, kMinHeight, "height");
  return ok;
}

bool SaveSettings(const GuiSettings& settings, const std::string& path, std::string* message) {
  GuiSettings s = settings;
  std::string clamped;
  if (!ClampSettings(s, &clamped)) Note(message, "saved with " + clamped);
  try {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    nlohmann::json j{{"scale", s.scale},   {"variant", s.variant}, {"compare", s.compare},
                     {"compare_on", s.compare_on}, {"width", s.width}, {"height", s.height}};
    std::ofstream out(path);
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write");
  } catch (const std::exception& e) {
    Note(message, "could not save " + path + ": " + e.what());
    return false;
  }
  return true;
}

}  // namespace ws::app
