// Palette arithmetic (see palette.h).
#include "visual/palette.h"

#include <algorithm>
#include <cmath>

namespace ws::visual {
namespace {

// Viridis, as a polynomial fit to matplotlib's table (error well below one 8-bit step).
Rgb Viridis(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  const float c0[3] = {0.2777273272234177f, 0.005407344544966578f, 0.3340998053353061f};
  const float c1[3] = {0.1050930431085774f, 1.404613529898575f, 1.384590162594685f};
  const float c2[3] = {-0.3308618287255563f, 0.214847559468213f, 0.09509516302823659f};
  const float c3[3] = {-4.634230498983486f, -5.799100973351585f, -19.33244095627987f};
  const float c4[3] = {6.228269936347081f, 14.17993336680509f, 56.69055260068105f};
  const float c5[3] = {4.776384997670288f, -13.74514537774601f, -65.35303263337234f};
  const float c6[3] = {-5.435455855934631f, 4.645852612178535f, 26.3124352495832f};
  uint8_t out[3];
  for (int i = 0; i < 3; ++i) {
    const float v = c0[i] + t * (c1[i] + t * (c2[i] + t * (c3[i] + t * (c4[i] + t * (c5[i] + t * c6[i])))));
    out[i] = uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
  }
  return {out[0], out[1], out[2]};
}

}  // namespace

Rgb LaneRgb(int lane) {
  // Skip viridis' darkest end: it vanishes on the dark background.
  return Viridis(0.12f + 0.88f * float(std::clamp(lane, 0, 31)) / 31.0f);
}

Rgb HeatRgb(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  auto mix = [&](uint8_t a, uint8_t b) { return uint8_t(std::lround(a + (b - a) * t)); };
  return {mix(52, 150), mix(52, 150), mix(60, 165)};
}

Rgb TouchedRgb(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  auto mix = [&](uint8_t a, uint8_t b) { return uint8_t(std::lround(a + (b - a) * t)); };
  return {mix(118, 205), mix(118, 205), mix(134, 220)};
}

Rgb ArrayRgb(int array) {
  // Hues no other colour of palette.h takes (light cyan, pink, green, magenta, olive, wine): a
  // line's array never reads as a lane, a conflict, a served level, an error or the yellow of
  // "just arrived" (tests/gui/test_visual.cpp, Palette.ArrayHuesMeanNothingElse).
  static constexpr Rgb kHues[] = {{153, 221, 255}, {255, 170, 187}, {40, 240, 40}, {220, 60, 220}, {170, 170, 0}, {136, 34, 85}};
  return kHues[(array < 0 ? 0 : array) % 6];
}

Rgb TextOn(Rgb c) {
  const float y = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
  return y > 140 ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
}

}  // namespace ws::visual
