// `warpscope gui --gif`: bad requests are refused before anything runs (no display needed), and a
// GIF written under Xvfb holds one frame per step, at the delay for the fps, in exact lane colours.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "visual/palette.h"

namespace ws::app {
namespace {

struct Result {
  int rc = -1;
  std::string err;
};
Result RunGui(const std::string& args, const std::string& env = "") {
  const std::string err_path = std::string(WARPSCOPE_TEST_OUT) + "/gif_stderr.txt";
  std::filesystem::create_directories(WARPSCOPE_TEST_OUT);
  const std::string cmd = env + std::string(WARPSCOPE_BINARY) + " gui --no-settings " + args + " 2>" + err_path;
  const int status = std::system(cmd.c_str());
  Result r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_path);
  r.err.assign(std::istreambuf_iterator<char>(in), {});
  return r;
}

TEST(GuiGif, BadRequestsGetOneLineAndExitCode2) {
  const std::string ok = std::string(WARPSCOPE_TEST_OUT) + "/never.gif";
  // DISPLAY is cleared: a request that got as far as opening a window would fail differently.
  for (const std::string& bad : std::vector<std::string>{"--gif " + ok + " --steps 40..0", "--gif " + ok + " --fps 0",
                                 "--gif " + ok + " --fps 51", "--gif /nonexistent-ws-folder/x.gif",
                                 "--gif " + ok + " --steps 0-40"}) {
    const Result r = RunGui(bad, "DISPLAY= ");
    EXPECT_EQ(r.rc, 2) << bad << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << bad << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(ok)) << bad;
  }
}

// A display that is named but cannot be reached (no server :4711 here): after its retries the
// program says so in one line plus GLFW's reason, and fails without a crash.
TEST(GuiDisplay, UnreachableDisplayIsOneClearMessage) {
  const Result r = RunGui("--variant pairs/v1 --no-compare --quit", "DISPLAY=:4711 ");
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("cannot open a window (no display?)"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << "the reason once, then the message: " << r.err;
}

TEST(GuiGif, OneFramePerStepAtTheFpsDelayInExactLaneColours) {
  if (!std::getenv("DISPLAY")) GTEST_SKIP() << "no X display (run under tests/gui/run_under_xvfb.sh)";
  const std::string path = std::string(WARPSCOPE_TEST_OUT) + "/copy_naive.gif";
  std::filesystem::remove(path);
  // transpose copy vs naive at n=64: warp 0 has 2 steps (load, store); 0..5 stops at step 1.
  const Result r = RunGui("--size 1280x720 --variant transpose/copy --compare transpose/naive --n 64 --gif " + path +
                       " --steps 0..5 --fps 2");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("2 frames, steps 0..1"), std::string::npos) << r.err;
  int err = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &err);
  ASSERT_NE(gif, nullptr) << GifErrorString(err);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  EXPECT_EQ(gif->ImageCount, 2);
  EXPECT_GT(gif->SWidth, 600);  // both panes of a 1280-wide window
  EXPECT_GT(gif->SHeight, 300);
  for (int i = 0; i < gif->ImageCount; ++i) {
    GraphicsControlBlock gcb{};
    ASSERT_EQ(DGifSavedExtensionToGCB(gif, i, &gcb), GIF_OK);
    EXPECT_EQ(gcb.DelayTime, 50);  // 2 fps
  }
  // Every lane reads at step 0 (n=64 is a multiple of 32): lanes 0 and 31 are drawn, and the
  // palette holds their colours exactly, so the first frame has pixels of both.
  std::set<uint32_t> seen;
  const SavedImage& im = gif->SavedImages[0];
  for (int k = 0; k < im.ImageDesc.Width * im.ImageDesc.Height; ++k) {
    const GifColorType c = gif->SColorMap->Colors[im.RasterBits[k]];
    seen.insert(uint32_t(c.Red) << 16 | uint32_t(c.Green) << 8 | c.Blue);
  }
  for (int lane : {0, 31}) {
    const visual::Rgb c = visual::LaneRgb(lane);
    EXPECT_TRUE(seen.count(uint32_t(c.r) << 16 | uint32_t(c.g) << 8 | c.b)) << "lane " << lane << " colour not in frame 0";
  }
  // The second frame changes something (the store lights `out`).
  EXPECT_GT(gif->SavedImages[1].ImageDesc.Width * gif->SavedImages[1].ImageDesc.Height, 1);
  DGifCloseFile(gif, &err);
}

}  // namespace
}  // namespace ws::app
