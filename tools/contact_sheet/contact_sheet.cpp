// A contact sheet of exported slides: one row per folder (a lesson's `--export DIR`), its
// slide-NN.png in order, each shrunk by a whole factor (box filter), on the window's background.
// Usage: ws_contact_sheet OUT.png FACTOR DIR...
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "stb_image_io.h"

namespace {

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
};

// Each output pixel the mean of a factor x factor square of the input.
Image Shrink(const unsigned char* in, int w, int h, int factor) {
  Image out{w / factor, h / factor, {}};
  out.rgb.resize(size_t(out.w) * size_t(out.h) * 3);
  for (int y = 0; y < out.h; ++y)
    for (int x = 0; x < out.w; ++x)
      for (int c = 0; c < 3; ++c) {
        int sum = 0;
        for (int dy = 0; dy < factor; ++dy)
          for (int dx = 0; dx < factor; ++dx) sum += in[(size_t(y * factor + dy) * size_t(w) + size_t(x * factor + dx)) * 3 + size_t(c)];
        out.rgb[(size_t(y) * size_t(out.w) + size_t(x)) * 3 + size_t(c)] = (unsigned char)(sum / (factor * factor));
      }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s OUT.png FACTOR DIR...\n", argv[0]);
    return 2;
  }
  const int factor = std::atoi(argv[2]);
  if (factor < 1 || factor > 16) {
    std::fprintf(stderr, "ws_contact_sheet: FACTOR must be from 1 to 16\n");
    return 2;
  }
  std::vector<std::vector<Image>> rows;
  int tile_w = 0, tile_h = 0;
  size_t columns = 0;
  for (int i = 3; i < argc; ++i) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(argv[i]))
      if (e.path().extension() == ".png") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      std::fprintf(stderr, "ws_contact_sheet: no .png in %s\n", argv[i]);
      return 1;
    }
    rows.emplace_back();
    for (const auto& f : files) {
      int w = 0, h = 0, n = 0;
      unsigned char* px = stbi_load(f.c_str(), &w, &h, &n, 3);
      if (!px) {
        std::fprintf(stderr, "ws_contact_sheet: cannot read %s\n", f.c_str());
        return 1;
      }
      rows.back().push_back(Shrink(px, w, h, factor));
      stbi_image_free(px);
      tile_w = std::max(tile_w, rows.back().back().w);
      tile_h = std::max(tile_h, rows.back().back().h);
    }
    columns = std::max(columns, rows.back().size());
  }
  const int gap = 8;
  const int W = int(columns) * (tile_w + gap) + gap, H = int(rows.size()) * (tile_h + gap) + gap;
  std::vector<unsigned char> sheet(size_t(W) * size_t(H) * 3, 40);  // a grey between the slides
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < rows[r].size(); ++c) {
      const Image& im = rows[r][c];
      const int x0 = gap + int(c) * (tile_w + gap), y0 = gap + int(r) * (tile_h + gap);
      for (int y = 0; y < im.h; ++y)
        std::copy_n(&im.rgb[size_t(y) * size_t(im.w) * 3], size_t(im.w) * 3, &sheet[(size_t(y0 + y) * size_t(W) + size_t(x0)) * 3]);
    }
  if (!stbi_write_png(argv[1], W, H, 3, sheet.data(), W * 3)) {
    std::fprintf(stderr, "ws_contact_sheet: cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("wrote %s: %zu rows, %zu columns, %dx%d\n", argv[1], rows.size(), columns, W, H);
  return 0;
}
