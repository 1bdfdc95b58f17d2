// GIF writing (see gif_writer.h).
#include "app/gif_writer.h"

#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

namespace ws::app {

using visual::Rgb;

bool ParseStepRange(const std::string& text, StepRange* out, std::string* why) {
  const auto dots = text.find("..");
  auto number = [](const std::string& s, int* v) {
    if (s.empty() || s.size() > 9) return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && *v >= 0;
  };
  StepRange r;
  if (dots == std::string::npos || !number(text.substr(0, dots), &r.first) || !number(text.substr(dots + 2), &r.last)) {
    if (why) *why = "--steps '" + text + "' is not FIRST..LAST (two step numbers from 0, e.g. 0..40)";
    return false;
  }
  if (r.first > r.last) {
    if (why)
      *why = "--steps '" + text + "': the first step comes after the last (did you mean " + std::to_string(r.last) + ".." +
             std::to_string(r.first) + "?)";
    return false;
  }
  *out = r;
  return true;
}

bool CanWrite(const std::string& path, std::string* why) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path.empty()) {
    if (why) *why = "no file name given";
    return false;
  }
  const fs::path p(path);
  if (fs::is_directory(p, ec)) {
    if (why) *why = "cannot write " + path + ": it is a folder";
    return false;
  }
  if (fs::exists(p, ec)) {
    if (::access(path.c_str(), W_OK) != 0) {
      if (why) *why = "cannot write " + path + ": the file is read-only";
      return false;
    }
    return true;
  }
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) {
    if (why) *why = "cannot write " + path + ": folder " + dir.string() + " does not exist";
    return false;
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    if (why) *why = "cannot write " + path + ": folder " + dir.string() + " is not writable";
    return false;
  }
  return true;
}

bool CheckGifRequest(const std::string& path, int fps, std::string* why) {
  if (fps < 1 || fps > kMaxGifFps) {
    if (why) *why = "--fps " + std::to_string(fps) + " is outside 1.." + std::to_string(kMaxGifFps);
    return false;
  }
  return CanWrite(path, why);
}

std::vector<Rgb> SlidePalette(const std::vector<Rgb>& keys) {
  std::vector<Rgb> pal;
  auto add = [&](Rgb c) {
    if (pal.size() < 256 && std::find(pal.begin(), pal.end(), c) == pal.end()) pal.push_back(c);
  };
  // The cube and the greys take 125 + 24 entries; the keys get the rest.
  for (const Rgb& c : keys)
    if (pal.size() < 256 - 125 - 24) add(c);
  for (int i = 0; i < 24; ++i) {
    const uint8_t v = uint8_t(std::lround(255.0 * i / 23));
    add({v, v, v});
  }
  for (int r = 0; r < 5; ++r)
    for (int g = 0; g < 5; ++g)
      for (int b = 0; b < 5; ++b) add({uint8_t(r * 255 / 4), uint8_t(g * 255 / 4), uint8_t(b * 255 / 4)});
  while (pal.size() < 256) pal.push_back({0, 0, 0});  // unused: the keys or the cube repeated
  return pal;
}

Quantiser::Quantiser(std::vector<Rgb> palette)
    : palette_(std::move(palette)), index_(size_t(1) << 24), known_((size_t(1) << 24) / 64) {}

uint8_t Quantiser::Index(Rgb c) {
  const uint32_t key = uint32_t(c.r) << 16 | uint32_t(c.g) << 8 | c.b;
  if (known_[key >> 6] >> (key & 63) & 1) return index_[key];
  int best = 0, best_d = 1 << 30;
  for (int i = 0; i < int(palette_.size()); ++i) {
    const int dr = int(c.r) - palette_[i].r, dg = int(c.g) - palette_[i].g, db = int(c.b) - palette_[i].b;
    // Green weighs most for the eye, blue least.
    const int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
    if (d < best_d) best_d = d, best = i;
  }
  known_[key >> 6] |= uint64_t(1) << (key & 63);
  index_[key] = uint8_t(best);
  return uint8_t(best);
}

struct GifWriter::State {
  GifFileType* gif = nullptr;
  std::unique_ptr<Quantiser> quant;
  std::vector<uint8_t> previous, current;
  std::string path;
};

GifWriter::GifWriter() : s_(std::make_unique<State>()) {}

GifWriter::~GifWriter() {
  if (s_->gif) EGifCloseFile(s_->gif, nullptr);
}

bool GifWriter::Open(const std::string& path, int width, int height, int fps, std::vector<Rgb> palette, std::string* why) {
  if (width < 1 || height < 1 || width > 65535 || height > 65535) {
    if (why) *why = "cannot write a GIF of " + std::to_string(width) + "x" + std::to_string(height) + " pixels";
    return false;
  }
  if (!CheckGifRequest(path, fps, why)) return false;
  palette.resize(256);
  int err = E_GIF_ERR_OPEN_FAILED;
  // Opened here rather than by giflib, which makes the file readable by its owner only.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  s_->gif = fd >= 0 ? EGifOpenFileHandle(fd, &err) : nullptr;
  if (!s_->gif) {
    if (fd >= 0) ::close(fd);
    if (why) *why = "cannot write " + path + ": " + GifErrorString(err);
    return false;
  }
  s_->path = path;
  width_ = width, height_ = height;
  delay_cs_ = std::max(2, int(std::lround(100.0 / fps)));
  std::vector<GifColorType> colours(256);
  for (int i = 0; i < 256; ++i) colours[i] = {palette[i].r, palette[i].g, palette[i].b};
  ColorMapObject* map = GifMakeMapObject(256, colours.data());
  EGifSetGifVersion(s_->gif, true);
  const bool ok = map && EGifPutScreenDesc(s_->gif, width, height, 8, 0, map) == GIF_OK;
  GifFreeMapObject(map);
  // Loop forever: the Netscape application extension, repetitions 0.
  static const GifByteType netscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType loop[] = {1, 0, 0};
  if (!ok || EGifPutExtensionLeader(s_->gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
      EGifPutExtensionBlock(s_->gif, sizeof netscape, netscape) != GIF_OK ||
      EGifPutExtensionBlock(s_->gif, sizeof loop, loop) != GIF_OK || EGifPutExtensionTrailer(s_->gif) != GIF_OK) {
    if (why) *why = "cannot write " + path + ": " + GifErrorString(s_->gif->Error);
    return false;
  }
  s_->quant = std::make_unique<Quantiser>(std::move(palette));
  return true;
}

bool GifWriter::AddFrame(const uint8_t* rgb, std::string* why) {
  if (!s_->gif) {
    if (why) *why = "the GIF is not open";
    return false;
  }
  auto& cur = s_->current;
  cur.resize(size_t(width_) * height_);
  for (size_t i = 0; i < cur.size(); ++i) cur[i] = s_->quant->Index({rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]});
  // The rectangle that differs from the previous frame (all of the first one); 1x1 if none does.
  int x0 = 0, y0 = 0, x1 = width_ - 1, y1 = height_ - 1;
  if (!s_->previous.empty()) {
    x0 = width_, y0 = height_, x1 = -1, y1 = -1;
    for (int y = 0; y < height_; ++y)
      for (int x = 0; x < width_; ++x)
        if (cur[size_t(y) * width_ + x] != s_->previous[size_t(y) * width_ + x])
          x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    if (x1 < 0) x0 = y0 = x1 = y1 = 0;
  }
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;
  gcb.UserInputFlag = false;
  gcb.DelayTime = delay_cs_;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const size_t len = EGifGCBToExtension(&gcb, ext);
  bool ok = EGifPutExtension(s_->gif, GRAPHICS_EXT_FUNC_CODE, int(len), ext) == GIF_OK &&
            EGifPutImageDesc(s_->gif, x0, y0, x1 - x0 + 1, y1 - y0 + 1, false, nullptr) == GIF_OK;
  for (int y = y0; ok && y <= y1; ++y)
    ok = EGifPutLine(s_->gif, &cur[size_t(y) * width_ + x0], x1 - x0 + 1) == GIF_OK;
  if (!ok) {
    if (why) *why = "cannot write " + s_->path + ": " + GifErrorString(s_->gif->Error);
    return false;
  }
  std::swap(s_->previous, s_->current);
  ++frames_;
  return true;
}

bool GifWriter::Close(std::string* why) {
  if (!s_->gif) return true;
  int err = 0;
  const int rc = EGifCloseFile(s_->gif, &err);
  s_->gif = nullptr;
  if (rc != GIF_OK) {
    if (why) *why = "cannot finish " + s_->path + ": " + GifErrorString(err);
    return false;
  }
  return true;
}

}  // namespace ws::app
