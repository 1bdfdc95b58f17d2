// Screenshot and layout capture (see gui_capture.h).
#include "app/gui_capture.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

namespace ws::app {

std::vector<uint8_t> ReadPixels(int x, int y, int w, int h, int framebuffer_h) {
  std::vector<uint8_t> px(size_t(w) * h * 3), flipped(px.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(x, framebuffer_h - y - h, w, h, GL_RGB, GL_UNSIGNED_BYTE, px.data());
  for (int row = 0; row < h; ++row)
    std::copy_n(&px[size_t(h - 1 - row) * w * 3], size_t(w) * 3, &flipped[size_t(row) * w * 3]);
  return flipped;
}

bool SavePng(const std::string& path, const std::vector<uint8_t>& rgb, int width, int height, std::string* why) {
  stbi_flip_vertically_on_write(0);
  if (!stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3)) {
    if (why) *why = "cannot write " + path;
    return false;
  }
  return true;
}

bool SaveScreenshot(const std::string& path, int width, int height, std::string* why) {
  return SavePng(path, ReadPixels(0, 0, width, height, height), width, height, why);
}

// ---- text runs from the draw data ----

namespace {

visual::Rect FromCorners(float x0, float y0, float x1, float y1) { return {x0, y0, x1 - x0, y1 - y0}; }
visual::Rect Union(const visual::Rect& a, const visual::Rect& b) {
  const float x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
  return FromCorners(x0, y0, std::max(a.x + a.w, b.x + b.w), std::max(a.y + a.h, b.y + b.h));
}

struct GlyphRef {
  const ImFont* font;
  const ImFontGlyph* glyph;
};

void AppendUtf8(std::string& s, unsigned c) {
  if (c < 0x80) s += char(c);
  else if (c < 0x800) s += char(0xC0 | c >> 6), s += char(0x80 | (c & 63));
  else s += char(0xE0 | c >> 12), s += char(0x80 | (c >> 6 & 63)), s += char(0x80 | (c & 63));
}

// A run being assembled: where the pen is expected next.
struct Pen {
  const ImFont* font = nullptr;
  float scale = 1, start_x = 0, line_y = 0, next_x = 0;
};

}  // namespace

std::vector<TextRun> FindTextRuns(const ImDrawData& dd, const ImFontAtlas& atlas) {
  // Every visible glyph of every font, by the top-left corner of its UV rectangle.
  std::map<std::pair<float, float>, GlyphRef> by_uv;
  std::vector<GlyphRef> all;
  for (const ImFont* f : atlas.Fonts)
    for (const ImFontGlyph& g : f->Glyphs)
      if (g.Visible) by_uv[{g.U0, g.V0}] = {f, &g}, all.push_back({f, &g});
  const ImVec2 white = atlas.TexUvWhitePixel;
  const float disp_x0 = dd.DisplayPos.x, disp_y0 = dd.DisplayPos.y;
  const float disp_x1 = disp_x0 + dd.DisplaySize.x, disp_y1 = disp_y0 + dd.DisplaySize.y;

  std::vector<TextRun> runs;
  for (int l = 0; l < dd.CmdListsCount; ++l) {
    const ImDrawList& dl = *dd.CmdLists[l];
    const std::string window = dl._OwnerName ? dl._OwnerName : "";
    visual::Rect window_rect{};
    if (const ImGuiWindow* w = dl._OwnerName ? ImGui::FindWindowByName(dl._OwnerName) : nullptr)
      window_rect = {w->Pos.x, w->Pos.y, w->Size.x, w->Size.y};
    for (const ImDrawCmd& cmd : dl.CmdBuffer) {
      if (cmd.UserCallback || cmd.TextureId != atlas.TexID) continue;
      const visual::Rect clip = FromCorners(cmd.ClipRect.x, cmd.ClipRect.y, cmd.ClipRect.z, cmd.ClipRect.w);
      Pen pen;
      TextRun* run = nullptr;
      const ImDrawIdx* idx = dl.IdxBuffer.Data + cmd.IdxOffset;
      const ImDrawVert* vtx = dl.VtxBuffer.Data + cmd.VtxOffset;
      for (unsigned k = 0; k + 3 <= cmd.ElemCount;) {
        // A glyph is one quad: vertices v..v+3, indices v, v+1, v+2, v, v+2, v+3 (PrimRectUV).
        const unsigned v = idx[k];
        const bool quad = k + 6 <= cmd.ElemCount && idx[k + 1] == v + 1 && idx[k + 2] == v + 2 && idx[k + 3] == v &&
                          idx[k + 4] == v + 2 && idx[k + 5] == v + 3;
        if (!quad) {
          k += 3;
          continue;
        }
        k += 6;
        const ImDrawVert& tl = vtx[v];
        const ImDrawVert& br = vtx[v + 2];
        if (tl.uv.x == white.x && tl.uv.y == white.y) continue;
        const GlyphRef* ref = nullptr;
        bool cut = false;  // clipped on the CPU (RenderTextClipped): a part of the glyph's UVs
        if (auto it = by_uv.find({tl.uv.x, tl.uv.y}); it != by_uv.end() && it->second.glyph->U1 == br.uv.x &&
                                                      it->second.glyph->V1 == br.uv.y) {
          ref = &it->second;
        } else {
          for (const GlyphRef& g : all)
            if (tl.uv.x >= g.glyph->U0 && br.uv.x <= g.glyph->U1 && tl.uv.y >= g.glyph->V0 && br.uv.y <= g.glyph->V1 &&
                (g.glyph->U1 > g.glyph->U0)) {
              ref = &g, cut = true;
              break;
            }
        }
        if (!ref) continue;  // anti-aliased line texture and the like
        const ImFontGlyph& g = *ref->glyph;
        float scale = pen.font ? pen.scale : 1.0f;
        if (!cut && g.X1 > g.X0) scale = (br.pos.x - tl.pos.x) / (g.X1 - g.X0);
        // The glyph's whole quad, undoing a CPU cut with the UV fractions.
        float qx0 = tl.pos.x, qy0 = tl.pos.y, qx1 = br.pos.x, qy1 = br.pos.y;
        if (cut) {
          const float gw = (g.X1 - g.X0) * scale, gh = (g.Y1 - g.Y0) * scale;
          qx0 = tl.pos.x - (tl.uv.x - g.U0) / (g.U1 - g.U0) * gw;
          qy0 = tl.pos.y - (g.V1 > g.V0 ? (tl.uv.y - g.V0) / (g.V1 - g.V0) * gh : 0);
          qx1 = qx0 + gw, qy1 = qy0 + gh;
        }
        const float pen_x = qx0 - g.X0 * scale, line_y = qy0 - g.Y0 * scale;
        const float space = ref->font->GetCharAdvance(' ') * scale;
        bool same = false;
        std::string gap;
        if (run && pen.font == ref->font && std::abs(pen.scale - scale) < 1e-3f) {
          const float line_h = ref->font->FontSize * scale;
          const float dx = pen_x - pen.next_x, lines = (line_y - pen.line_y) / line_h;
          if (std::abs(line_y - pen.line_y) < 0.01f && dx > -0.01f) {
            const float spaces = dx / space;
            if (std::abs(spaces - std::round(spaces)) < 0.02f && spaces < 16.5f) same = true, gap.assign(size_t(std::lround(spaces)), ' ');
          } else if (std::abs(pen_x - pen.start_x) < 0.01f && lines > 0.99f && std::abs(lines - std::round(lines)) < 0.01f &&
                     lines < 4.5f) {
            same = true, gap.assign(size_t(std::lround(lines)), '\n');
            run->lines.push_back({});
          }
          if (cut && !same && std::abs(line_y - pen.line_y) < 0.01f && std::abs(dx) < 2 * line_h) same = true;
        }
        const visual::Rect q = FromCorners(qx0, qy0, qx1, qy1);
        if (!same) {
          runs.push_back({});
          run = &runs.back();
          run->window = window, run->window_rect = window_rect, run->clip = clip;
          run->rect = q;
          run->lines.push_back(q);
          run->line_h = ref->font->FontSize * scale;
          pen = {ref->font, scale, pen_x, line_y, 0};
        } else {
          run->text += gap;
          run->rect = Union(run->rect, q);
          run->lines.back() = run->lines.back().w > 0 ? Union(run->lines.back(), q) : q;
        }
        pen.line_y = line_y;
        pen.next_x = pen_x + g.AdvanceX * scale;
        run->pen_end = pen.next_x;
        AppendUtf8(run->text, g.Codepoint);
        // Beyond the clip rectangle (a quarter pixel for rounding), or cut to it on the CPU.
        const float tol = 0.25f;
        if (cut || qx0 < clip.x - tol || qy0 < clip.y - tol || qx1 > clip.x + clip.w + tol || qy1 > clip.y + clip.h + tol)
          run->clipped = true;
        if (qx0 < disp_x0 - tol || qy0 < disp_y0 - tol || qx1 > disp_x1 + tol || qy1 > disp_y1 + tol) run->outside = true;
      }
    }
  }
  // RenderText drops a glyph that starts past the clip rectangle, so text cut between two glyphs
  // leaves no glyph across the edge: its pen then ends within a pixel of the edge or past it. Text
  // laid out by ImGui ends half a window padding or more before the edge.
  for (TextRun& r : runs) {
    if (r.pen_end > r.clip.x + r.clip.w - 1) r.clipped = true;
    if (r.pen_end > disp_x1 - 1) r.outside = true;
  }
  return runs;
}

uint64_t HashDrawData(const ImDrawData& d) {
  uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
  };
  for (int l = 0; l < d.CmdListsCount; ++l) {
    const ImDrawList& list = *d.CmdLists[l];
    mix(list.VtxBuffer.Data, size_t(list.VtxBuffer.Size) * sizeof(ImDrawVert));
    mix(list.IdxBuffer.Data, size_t(list.IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& c : list.CmdBuffer) {
      const ImTextureID tex = c.GetTexID();
      mix(&c.ClipRect, sizeof(c.ClipRect));
      mix(&tex, sizeof(tex));
      mix(&c.ElemCount, sizeof(c.ElemCount));
      mix(&c.IdxOffset, sizeof(c.IdxOffset));
      mix(&c.VtxOffset, sizeof(c.VtxOffset));
    }
  }
  return h;
}

std::vector<std::pair<int, int>> OverlappingRuns(const std::vector<TextRun>& runs) {
  std::vector<std::pair<int, int>> out;
  auto meet = [](const visual::Rect& a, const visual::Rect& b) {
    const float w = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x);
    const float h = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
    return w > 1 && h > 1;
  };
  // What shows of a line: its part inside the clip rectangle (scrolled text hides under headers).
  auto shown = [](const visual::Rect& l, const visual::Rect& c) {
    const float x0 = std::max(l.x, c.x), y0 = std::max(l.y, c.y);
    return FromCorners(x0, y0, std::max(x0, std::min(l.x + l.w, c.x + c.w)), std::max(y0, std::min(l.y + l.h, c.y + c.h)));
  };
  for (int i = 0; i < int(runs.size()); ++i)
    for (int j = i + 1; j < int(runs.size()); ++j) {
      if (!meet(runs[i].rect, runs[j].rect)) continue;
      bool hit = false;
      for (const auto& a : runs[i].lines)
        for (const auto& b : runs[j].lines) hit = hit || meet(shown(a, runs[i].clip), shown(b, runs[j].clip));
      if (hit) out.push_back({i, j});
    }
  return out;
}

std::vector<WindowExtent> FindWindowExtents() {
  std::vector<WindowExtent> out;
  const ImGuiContext* ctx = ImGui::GetCurrentContext();
  if (!ctx) return out;
  for (const ImGuiWindow* w : ctx->Windows) {
    if (!w->WasActive || w->Hidden) continue;
    WindowExtent e;
    e.name = w->Name;
    e.rect = {w->Pos.x, w->Pos.y, w->Size.x, w->Size.y};
    e.clip = FromCorners(w->InnerClipRect.Min.x, w->InnerClipRect.Min.y, w->InnerClipRect.Max.x, w->InnerClipRect.Max.y);
    e.content_right = w->DC.CursorMaxPos.x;
    e.content_bottom = w->DC.CursorMaxPos.y;
    e.scrollbar_x = w->ScrollbarX, e.scrollbar_y = w->ScrollbarY;
    // Items that end past the clip rectangle where no scrollbar can bring them into view.
    e.overflow = (!w->ScrollbarX && e.content_right > w->InnerClipRect.Max.x + 1) ||
                 (!w->ScrollbarY && e.content_bottom > w->InnerClipRect.Max.y + 1);
    out.push_back(e);
  }
  return out;
}

// ---- the JSON ----

bool SaveLayout(const std::string& path, const std::vector<visual::Placed>& placed, const std::vector<TextRun>& text,
                const std::vector<WindowExtent>& windows, const std::vector<CurrentAccess>& current, const StepState& steps,
                int width, int height, float scale, std::string* why) {
  auto rect = [](const visual::Rect& r) { return nlohmann::json::array({r.x, r.y, r.w, r.h}); };
  nlohmann::json j;
  j["width"] = width;
  j["height"] = height;
  j["scale"] = scale;
  auto& items = j["placed"] = nlohmann::json::array();
  for (const auto& p : placed) {
    items.push_back({{"pane", p.pane}, {"kind", p.kind}, {"name", p.name},
                     {"rect", {p.rect.x, p.rect.y, p.rect.w, p.rect.h}}, {"rows", p.rows}, {"cols", p.cols},
                     {"zoom", p.zoom}, {"header_h", p.header_h}, {"slot_h", p.slot_h}, {"cell", p.cell},
                     {"row0", p.row0}, {"col0", p.col0}, {"cells_per_elem", p.cells_per_elem}});
    // The cells the step touches (first and last row and column), where it touches the array.
    if (p.touched) {
      items.back()["touched"] = {p.touched_r0, p.touched_c0, p.touched_r1, p.touched_c1};
      items.back()["touched_lines"] = {p.lines_r0, p.lines_c0, p.lines_r1, p.lines_c1};
    }
  }
  auto& texts = j["text"] = nlohmann::json::array();
  for (const auto& t : text) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& l : t.lines) lines.push_back(rect(l));
    texts.push_back({{"text", t.text}, {"window", t.window}, {"rect", rect(t.rect)}, {"lines", lines}, {"clip", rect(t.clip)},
                     {"window_rect", rect(t.window_rect)}, {"pen_end", t.pen_end}, {"line_h", t.line_h}, {"clipped", t.clipped},
                     {"outside", t.outside}});
  }
  auto& overlaps = j["text_overlaps"] = nlohmann::json::array();
  for (const auto& [a, b] : OverlappingRuns(text)) overlaps.push_back({a, b});
  auto& wins = j["windows"] = nlohmann::json::array();
  for (const auto& w : windows)
    wins.push_back({{"name", w.name}, {"rect", rect(w.rect)}, {"clip", rect(w.clip)},
                    {"content_right", w.content_right}, {"content_bottom", w.content_bottom},
                    {"scrollbar_x", w.scrollbar_x}, {"scrollbar_y", w.scrollbar_y}, {"overflow", w.overflow}});
  auto& cur = j["current"] = nlohmann::json::array();
  for (const auto& c : current) cur.push_back({{"pane", c.pane}, {"array", c.array}});
  auto& panes = j["panes"] = nlohmann::json::array();
  for (const auto& p : steps.panes)
    panes.push_back({{"pane", p.pane}, {"step", p.step}, {"steps", p.steps}, {"label", p.label}, {"role", p.role}});
  j["focus"] = steps.focus;
  j["follow"] = {{"mode", steps.follow}, {"why", steps.why}, {"words", steps.words}};
  std::ofstream out(path);
  out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (!out) {
    if (why) *why = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace ws::app
