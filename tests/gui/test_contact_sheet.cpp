// tools/contact_sheet: two tiny slides in, one row out; the montage's size, the grey between the
// slides and a shrunk pixel worked out by hand.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tools/contact_sheet/stb_image_io.h"

namespace {

namespace fs = std::filesystem;

// A w x h RGB image whose pixel (x, y) is colour(x, y).
template <typename F>
void WritePng(const fs::path& path, int w, int h, F colour) {
  std::vector<unsigned char> rgb;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (unsigned char c : colour(x, y)) rgb.push_back(c);
  ASSERT_TRUE(stbi_write_png(path.c_str(), w, h, 3, rgb.data(), w * 3));
}

TEST(ContactSheet, TwoSlidesShrunkByTwoInOneRow) {
  const fs::path dir = fs::path(WARPSCOPE_TEST_OUT) / "contact_sheet";
  fs::remove_all(dir);
  fs::create_directories(dir / "lesson");
  using Rgb = std::array<unsigned char, 3>;
  // slide-01: 4x2, all red. slide-02: 4x2, a checkerboard of 0 and 200 in every channel.
  WritePng(dir / "lesson" / "slide-01.png", 4, 2, [](int, int) { return Rgb{255, 0, 0}; });
  WritePng(dir / "lesson" / "slide-02.png", 4, 2, [](int x, int y) {
    const unsigned char v = (x + y) % 2 ? 200 : 0;
    return Rgb{v, v, v};
  });
  const fs::path out = dir / "sheet.png";
  const int status = std::system((std::string(WS_CONTACT_SHEET) + " " + out.string() + " 2 " + (dir / "lesson").string() +
                                  " >/dev/null").c_str());
  ASSERT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(out.c_str(), &w, &h, &n, 3);
  ASSERT_TRUE(px);
  // Each slide shrinks by 2 to 2x1; two columns and one row with a gap of 8 around and between:
  // 8 + 2 + 8 + 2 + 8 = 28 wide, 8 + 1 + 8 = 17 high.
  EXPECT_EQ(w, 28);
  EXPECT_EQ(h, 17);
  const auto at = [&](int x, int y) {
    const unsigned char* p = px + (size_t(y) * size_t(w) + size_t(x)) * 3;
    return Rgb{p[0], p[1], p[2]};
  };
  EXPECT_EQ(at(0, 0), (Rgb{40, 40, 40}));     // the grey between slides
  EXPECT_EQ(at(8, 8), (Rgb{255, 0, 0}));      // slide 1's first pixel
  EXPECT_EQ(at(10, 8), (Rgb{40, 40, 40}));    // the gap after it
  // Slide 2's first pixel is the mean of its top-left 2x2 square: (0 + 200 + 200 + 0) / 4 = 100.
  EXPECT_EQ(at(18, 8), (Rgb{100, 100, 100}));
  stbi_image_free(px);
}

}  // namespace
