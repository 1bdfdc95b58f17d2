// Export for slides without a window: what --steps and --fps accept, the fixed palette, and GIFs
// written by GifWriter read back with giflib's decoder, pixel for pixel.
#include <gif_lib.h>
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <random>

#include "app/gif_writer.h"

namespace ws::app {
namespace {

using visual::Rgb;

TEST(ExportSteps, FirstDotDotLastIsParsed) {
  StepRange r;
  std::string why;
  ASSERT_TRUE(ParseStepRange("3..41", &r, &why)) << why;
  EXPECT_EQ(r.first, 3);
  EXPECT_EQ(r.last, 41);
  ASSERT_TRUE(ParseStepRange("7..7", &r, &why)) << why;  // one frame
  EXPECT_EQ(r.first, 7);
  EXPECT_EQ(r.last, 7);
}

TEST(ExportSteps, ReversedRangeIsRejectedWithTheFix) {
  StepRange r;
  std::string why;
  EXPECT_FALSE(ParseStepRange("40..0", &r, &why));
  EXPECT_NE(why.find("did you mean 0..40"), std::string::npos) << why;
}

TEST(ExportSteps, MalformedRangesAreRejected) {
  StepRange r;
  for (const char* bad : {"", "5", "..", "a..3", "-1..4", "1..2x", "1...3", "1..", "..9", "0..99999999999"}) {
    std::string why;
    EXPECT_FALSE(ParseStepRange(bad, &r, &why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

TEST(ExportRequest, FpsOutsideOneToFiftyIsRejected) {
  const std::string ok = (std::filesystem::temp_directory_path() / "ws_export_fps.gif").string();
  std::string why;
  EXPECT_TRUE(CheckGifRequest(ok, 4, &why)) << why;
  EXPECT_TRUE(CheckGifRequest(ok, 50, &why)) << why;
  for (int fps : {0, -3, 51, 1000}) {
    EXPECT_FALSE(CheckGifRequest(ok, fps, &why)) << fps;
    EXPECT_NE(why.find("--fps"), std::string::npos) << why;
  }
}

TEST(ExportRequest, PathInAMissingFolderOrAFolderIsRejected) {
  std::string why;
  EXPECT_FALSE(CanWrite("/nonexistent-ws-folder/out.gif", &why));
  EXPECT_NE(why.find("does not exist"), std::string::npos) << why;
  EXPECT_FALSE(CanWrite(std::filesystem::temp_directory_path().string(), &why));
  EXPECT_FALSE(CanWrite("", &why));
}

TEST(SlidePalette, KeysComeFirstOnceAndThePaletteHas256Colours) {
  const std::vector<Rgb> keys = {{213, 94, 0}, {86, 180, 233}, {213, 94, 0}, {17, 201, 99}};
  const auto pal = SlidePalette(keys);
  ASSERT_EQ(pal.size(), 256u);
  EXPECT_EQ(pal[0], keys[0]);
  EXPECT_EQ(pal[1], keys[1]);
  EXPECT_EQ(pal[2], keys[3]);  // the repeated key is dropped
  // Pure white and black are in (the grey ramp), so text and outlines stay exact.
  EXPECT_NE(std::find(pal.begin(), pal.end(), Rgb{255, 255, 255}), pal.end());
  EXPECT_NE(std::find(pal.begin(), pal.end(), Rgb{0, 0, 0}), pal.end());
}

TEST(Quantiser, PaletteColoursMapToThemselvesOthersToTheNearest) {
  const std::vector<Rgb> pal = {{10, 20, 30}, {200, 40, 40}, {250, 250, 250}};
  Quantiser q(pal);
  EXPECT_EQ(q.Index({200, 40, 40}), 1);
  EXPECT_EQ(q.Index({190, 50, 35}), 1);   // reddish: the red
  EXPECT_EQ(q.Index({230, 240, 235}), 2);  // light: the near-white
  EXPECT_EQ(q.Index({30, 30, 60}), 0);    // dark: the dark blue
  EXPECT_EQ(q.Index({190, 50, 35}), 1);   // again, from the cache
}

// Decodes a GIF and composites its frames (disposal "do not dispose") into full RGB frames.
struct Decoded {
  int w = 0, h = 0, loops = -1;
  std::vector<int> delays_cs;
  std::vector<std::vector<uint8_t>> frames;
  std::vector<std::array<int, 4>> rects;
};
Decoded Decode(const std::string& path) {
  Decoded d;
  int err = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &err);
  EXPECT_NE(gif, nullptr) << GifErrorString(err);
  if (!gif) return d;
  EXPECT_EQ(DGifSlurp(gif), GIF_OK);
  d.w = gif->SWidth, d.h = gif->SHeight;
  std::vector<uint8_t> canvas(size_t(d.w) * d.h * 3, 0);
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& im = gif->SavedImages[i];
    for (int e = 0; e < im.ExtensionBlockCount; ++e)
      if (im.ExtensionBlocks[e].Function == APPLICATION_EXT_FUNC_CODE && im.ExtensionBlocks[e].ByteCount == 11 &&
          std::string((const char*)im.ExtensionBlocks[e].Bytes, 11) == "NETSCAPE2.0" && e + 1 < im.ExtensionBlockCount)
        d.loops = im.ExtensionBlocks[e + 1].Bytes[1] | im.ExtensionBlocks[e + 1].Bytes[2] << 8;
    GraphicsControlBlock gcb{};
    EXPECT_EQ(DGifSavedExtensionToGCB(gif, i, &gcb), GIF_OK);
    d.delays_cs.push_back(gcb.DelayTime);
    const ColorMapObject* map = im.ImageDesc.ColorMap ? im.ImageDesc.ColorMap : gif->SColorMap;
    const auto& id = im.ImageDesc;
    d.rects.push_back({id.Left, id.Top, id.Width, id.Height});
    for (int y = 0; y < id.Height; ++y)
      for (int x = 0; x < id.Width; ++x) {
        const GifColorType c = map->Colors[im.RasterBits[y * id.Width + x]];
        uint8_t* p = &canvas[(size_t(id.Top + y) * d.w + id.Left + x) * 3];
        p[0] = c.Red, p[1] = c.Green, p[2] = c.Blue;
      }
    d.frames.push_back(canvas);
  }
  DGifCloseFile(gif, &err);
  return d;
}

TEST(GifWriter, FramesOfPaletteColoursReadBackExactlyWithTheDelayForTheFps) {
  // Odd sizes; random key colours; frame 2 changes a small block of frame 1; frame 3 repeats 2.
  const int w = 37, h = 23;
  std::mt19937 rng(1234);
  std::vector<Rgb> keys;
  for (int i = 0; i < 40; ++i) keys.push_back({uint8_t(rng() % 256), uint8_t(rng() % 256), uint8_t(1 + rng() % 255)});
  std::vector<uint8_t> f1(size_t(w) * h * 3);
  for (size_t i = 0; i < f1.size() / 3; ++i) {
    const Rgb c = keys[rng() % keys.size()];
    f1[3 * i] = c.r, f1[3 * i + 1] = c.g, f1[3 * i + 2] = c.b;
  }
  std::vector<uint8_t> f2 = f1;
  for (int y = 5; y <= 9; ++y)
    for (int x = 11; x <= 30; ++x) {
      const Rgb c = keys[(y * 7 + x) % keys.size()];
      uint8_t* p = &f2[(size_t(y) * w + x) * 3];
      if (Rgb{p[0], p[1], p[2]} == c) continue;
      p[0] = c.r, p[1] = c.g, p[2] = c.b;
    }
  const std::string path = (std::filesystem::temp_directory_path() / "ws_export_roundtrip.gif").string();
  GifWriter g;
  std::string why;
  ASSERT_TRUE(g.Open(path, w, h, 4, SlidePalette(keys), &why)) << why;
  ASSERT_TRUE(g.AddFrame(f1.data(), &why)) << why;
  ASSERT_TRUE(g.AddFrame(f2.data(), &why)) << why;
  ASSERT_TRUE(g.AddFrame(f2.data(), &why)) << why;
  ASSERT_TRUE(g.Close(&why)) << why;
  const Decoded d = Decode(path);
  ASSERT_EQ(d.frames.size(), 3u);
  EXPECT_EQ(d.w, w);
  EXPECT_EQ(d.h, h);
  EXPECT_EQ(d.loops, 0);  // loops forever
  for (int cs : d.delays_cs) EXPECT_EQ(cs, 25);  // 4 fps: 1/4 s
  EXPECT_EQ(d.frames[0], f1);
  EXPECT_EQ(d.frames[1], f2);
  EXPECT_EQ(d.frames[2], f2);
  // Frame 2 stores only what changed: within columns 11..30 and rows 5..9; frame 3 one pixel.
  EXPECT_GE(d.rects[1][0], 11);
  EXPECT_GE(d.rects[1][1], 5);
  EXPECT_LE(d.rects[1][0] + d.rects[1][2], 31);
  EXPECT_LE(d.rects[1][1] + d.rects[1][3], 10);
  EXPECT_EQ(d.rects[2][2] * d.rects[2][3], 1);
}

TEST(GifWriter, UnwritablePathFailsWithAReason) {
  GifWriter g;
  std::string why;
  EXPECT_FALSE(g.Open("/nonexistent-ws-folder/x.gif", 10, 10, 4, SlidePalette({}), &why));
  EXPECT_NE(why.find("/nonexistent-ws-folder"), std::string::npos) << why;
}

}  // namespace
}  // namespace ws::app
