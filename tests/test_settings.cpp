// The settings file: every number is range-checked before it becomes an int or a float, clamped
// with a message, and what is saved loads back unchanged. No window is opened.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>

#include "app/gui_settings.h"

namespace {
using ws::app::ClampSettings;
using ws::app::GuiSettings;
using ws::app::LoadSettings;
using ws::app::ParseSettings;
using ws::app::SaveSettings;

GuiSettings Parse(const std::string& text, std::string* message) { return ParseSettings(text, "settings.json", message); }

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("ws_settings_" + std::to_string(getpid())) / name).string();
}

}  // namespace

TEST(Settings, ValuesInRangeLoadUnchangedAndSilently) {
  std::string message;
  const auto s = Parse(R"({"scale": 1.25, "width": 1280, "height": 720, "variant": "transpose/naive",
                          "compare": "transpose/copy", "compare_on": false})", &message);
  EXPECT_EQ(message, "");
  EXPECT_EQ(s.scale, 1.25f);
  EXPECT_EQ(s.width, 1280);
  EXPECT_EQ(s.height, 720);
  EXPECT_EQ(s.variant, "transpose/naive");
  EXPECT_EQ(s.compare, "transpose/copy");
  EXPECT_FALSE(s.compare_on);
}

TEST(Settings, HugeWidthIsClampedToTheLargestWindowWithAMessage) {
  std::string message;
  const auto s = Parse(R"({"width": 1e300, "height": 700})", &message);
  EXPECT_EQ(s.width, 16384);  // kMaxWindowSide: 1e300 does not fit an int, so it is never converted
  EXPECT_EQ(s.height, 700);
  EXPECT_NE(message.find("\"width\""), std::string::npos) << message;
  EXPECT_NE(message.find("16384"), std::string::npos) << message;
}

TEST(Settings, HugeScaleIsClampedToFourWithAMessage) {
  std::string message;
  const auto s = Parse(R"({"scale": 1e308})", &message);
  EXPECT_EQ(s.scale, 4.0f);  // 1e308 does not fit a float: checked as a double first
  EXPECT_NE(message.find("\"scale\""), std::string::npos) << message;
}

TEST(Settings, NegativeNumbersClampToTheSmallestValues) {
  std::string message;
  const auto s = Parse(R"({"scale": -2, "width": -1e300, "height": -5})", &message);
  EXPECT_EQ(s.scale, 0.5f);
  EXPECT_EQ(s.width, 320);
  EXPECT_EQ(s.height, 240);
  for (const char* key : {"\"scale\"", "\"width\"", "\"height\""})
    EXPECT_NE(message.find(key), std::string::npos) << key << ": " << message;
}

TEST(Settings, NumberTooLargeForADoubleNeverBecomesAWindowSize) {
  // 1e400 overflows a double: the file is either refused as malformed or read as infinity,
  // and in both cases the defaults stand, with a message.
  std::string message;
  const auto s = Parse(R"({"width": 1e400, "scale": -1e400})", &message);
  EXPECT_EQ(s.width, 1600);
  EXPECT_EQ(s.scale, 1.0f);
  EXPECT_FALSE(message.empty());
}

TEST(Settings, ValueOfTheWrongTypeFallsBackToItsDefaultAlone) {
  std::string message;
  const auto s = Parse(R"({"width": "wide", "height": 900, "variant": 7, "compare_on": "yes"})", &message);
  EXPECT_EQ(s.width, 1600);
  EXPECT_EQ(s.height, 900);  // the good value is kept
  EXPECT_EQ(s.variant, "");
  EXPECT_TRUE(s.compare_on);
  for (const char* key : {"\"width\"", "\"variant\"", "\"compare_on\""})
    EXPECT_NE(message.find(key), std::string::npos) << key << ": " << message;
}

TEST(Settings, MalformedFileGivesTheDefaultsAndSaysWhy) {
  std::string message;
  const auto s = Parse("{\"width\": 1280,", &message);
  EXPECT_EQ(s.width, 1600);
  EXPECT_NE(message.find("ignored settings.json"), std::string::npos) << message;
  message.clear();
  Parse("[1, 2]", &message);
  EXPECT_NE(message.find("not a JSON object"), std::string::npos) << message;
}

TEST(Settings, NotANumberScaleIsReplacedByTheDefault) {
  GuiSettings s;
  s.scale = std::numeric_limits<float>::quiet_NaN();
  std::string message;
  EXPECT_FALSE(ClampSettings(s, &message));
  EXPECT_EQ(s.scale, 1.0f);
  EXPECT_NE(message.find("scale"), std::string::npos) << message;
}

TEST(Settings, ClampLeavesGoodSettingsAlone) {
  GuiSettings s;
  s.scale = 2.5f;
  s.width = 800;
  s.height = 600;
  std::string message;
  EXPECT_TRUE(ClampSettings(s, &message));
  EXPECT_EQ(message, "");
  EXPECT_EQ(s.scale, 2.5f);
  EXPECT_EQ(s.width, 800);
  EXPECT_EQ(s.height, 600);
}

TEST(Settings, BrokenValuesAreNeverSavedBack) {
  const std::string path = TempPath("settings.json");
  GuiSettings s;
  s.scale = std::numeric_limits<float>::infinity();
  s.width = INT_MIN;
  s.height = INT_MAX;
  s.variant = "transpose/naive";
  std::string message;
  ASSERT_TRUE(SaveSettings(s, path, &message)) << message;
  EXPECT_NE(message.find("width"), std::string::npos) << message;
  std::string reload_message;
  const auto back = LoadSettings(path, &reload_message);
  EXPECT_EQ(reload_message, "");  // what was saved is in range
  EXPECT_EQ(back.scale, 1.0f);
  EXPECT_EQ(back.width, 320);
  EXPECT_EQ(back.height, 16384);
  EXPECT_EQ(back.variant, "transpose/naive");
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST(Settings, MissingFileGivesTheDefaultsSilently) {
  std::string message;
  const auto s = LoadSettings(TempPath("does-not-exist.json"), &message);
  EXPECT_EQ(message, "");
  EXPECT_EQ(s.width, 1600);
  EXPECT_EQ(s.height, 1000);
  EXPECT_EQ(s.scale, 1.0f);
}
