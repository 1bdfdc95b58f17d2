// `warpscope lesson FILE --export DIR` under Xvfb: a PNG of the window and a GIF of the panes per
// slide, the GIF playing the slide's steps; a bad script writes nothing and exits 2; a lesson
// leaves the saved variants as they were; a kernel file beside the script is found.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/gui_settings.h"

namespace {

namespace fs = std::filesystem;

int RunLesson(const std::string& args) {
  const int status = std::system((std::string(WARPSCOPE_BINARY) + " lesson " + args).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A PNG's width and height, from its IHDR chunk (bytes 16..23, big-endian).
std::pair<uint32_t, uint32_t> PngSize(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char b[24] = {};
  in.read(reinterpret_cast<char*>(b), sizeof b);
  const auto be = [&](int i) { return uint32_t(b[i]) << 24 | uint32_t(b[i + 1]) << 16 | uint32_t(b[i + 2]) << 8 | b[i + 3]; };
  return {be(16), be(20)};
}

int GifFrames(const std::string& path) {
  int err = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &err);
  if (!gif) return -1;
  const int frames = DGifSlurp(gif) == GIF_OK ? gif->ImageCount : -1;
  DGifCloseFile(gif, &err);
  return frames;
}

TEST(GuiLesson, ExportWritesAPngAndAGifPerSlide) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (run under tests/gui/run_under_xvfb.sh)";
  const fs::path dir = fs::path(WARPSCOPE_TEST_OUT) / "lesson_export";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string script = (dir / "short.json").string();
  // transpose/shared's warp has 4 steps (load in, store tile, load tile, store out), so slide 1's
  // GIF plays steps 2..3 (the default 8 steps from step 2, stopped at the last); slide 2 asks for
  // steps 0..1.
  std::ofstream(script) << R"({"title": "test", "slides": [
    {"variant": "transpose/shared", "compare": "transpose/shared_padded", "step": 2, "caption": "the column read"},
    {"variant": "transpose/copy", "step": 0, "present": false, "play": "0..1", "caption": "the copy"}]})";
  const fs::path out = dir / "out";
  ASSERT_EQ(RunLesson(script + " --no-settings --size 1280x720 --export " + out.string()), 0);
  for (const char* png : {"slide-01.png", "slide-02.png"}) {
    ASSERT_TRUE(fs::exists(out / png)) << png;
    EXPECT_EQ(PngSize((out / png).string()), std::make_pair(1280u, 720u)) << png;
  }
  EXPECT_EQ(GifFrames((out / "slide-01.gif").string()), 2);
  EXPECT_EQ(GifFrames((out / "slide-02.gif").string()), 2);
}

// The settings saved before (pairs v2 beside v3, B off, a 1600x1000 window) keep their variants
// after a lesson of transpose slides; the window size, 1280x720 from --size, shows that the lesson
// did save the file.
TEST(GuiLesson, LessonLeavesTheSavedVariantsAlone) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (run under tests/gui/run_under_xvfb.sh)";
  const fs::path dir = fs::path(WARPSCOPE_TEST_OUT) / "lesson_settings";
  fs::remove_all(dir);
  fs::create_directories(dir / "config" / "warpscope");
  const std::string settings = (dir / "config" / "warpscope" / "settings.json").string();
  std::ofstream(settings) << R"({"scale": 1, "variant": "pairs/v2", "compare": "pairs/v3", "compare_on": false,
                                 "width": 1600, "height": 1000})";
  const std::string script = (dir / "one.json").string();
  std::ofstream(script) << R"({"slides": [{"variant": "transpose/shared", "compare": "transpose/shared_padded",
                                            "step": 2, "caption": "the column read"}]})";
  setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  const int rc = RunLesson(script + " --size 1280x720 --export " + (dir / "out").string());
  unsetenv("XDG_CONFIG_HOME");
  ASSERT_EQ(rc, 0);
  std::string message;
  const ws::app::GuiSettings saved = ws::app::LoadSettings(settings, &message);
  EXPECT_EQ(message, "");
  EXPECT_EQ(saved.width, 1280);
  EXPECT_EQ(saved.variant, "pairs/v2");
  EXPECT_EQ(saved.compare, "pairs/v3");
  EXPECT_FALSE(saved.compare_on);
}

// A lecturer's own kernel file beside the script, named relative to it, as A and as B beside a
// catalog variant; checked from another folder (/), so the path cannot resolve from there.
TEST(GuiLesson, OwnKernelFileBesideTheScriptIsChecked) {
  const fs::path dir = fs::path(WARPSCOPE_TEST_OUT) / "lesson_own_file";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_EQ(std::system((std::string(WARPSCOPE_BINARY) + " new " + (dir / "mine.cu").string() + " >/dev/null").c_str()), 0);
  const std::string script = (dir / "own.json").string();
  std::ofstream(script) << R"({"slides": [{"variant": "mine.cu", "caption": "my kernel"},
                                          {"variant": "transpose/copy", "compare": "mine.cu:mine", "caption": "beside the copy"}]})";
  const int status = std::system(("cd / && " + std::string(WARPSCOPE_BINARY) + " lesson " + script + " --check").c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
}

TEST(GuiLesson, BadScriptWritesNothingAndExits2) {
  const fs::path dir = fs::path(WARPSCOPE_TEST_OUT) / "lesson_bad";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string script = (dir / "bad.json").string();
  std::ofstream(script) << R"({"slides": [{"variant": "transpose/shared", "step": 9, "caption": "x"}]})";
  // DISPLAY cleared: the script is refused before a window would open.
  const int status = std::system(("DISPLAY= " + std::string(WARPSCOPE_BINARY) + " lesson " + script + " --export " +
                                  (dir / "out").string() + " 2>/dev/null").c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2);
  EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace
