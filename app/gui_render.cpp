// Dear ImGui's draw data drawn in runs of textured, flat and opaque flat triangles (see gui_render.h).
#include "app/gui_render.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <imgui.h>

#include <cstddef>
#include <cstdint>
#include <iostream>

namespace ws::app {
namespace {

// ImGui's own GLSL 3.30 shaders; the flat one reads no texture.
constexpr const char* kVertex = R"(#version 330 core
layout (location = 0) in vec2 Position;
layout (location = 1) in vec2 UV;
layout (location = 2) in vec4 Color;
uniform mat4 ProjMtx;
out vec2 Frag_UV;
out vec4 Frag_Color;
void main() {
  Frag_UV = UV;
  Frag_Color = Color;
  gl_Position = ProjMtx * vec4(Position.xy, 0, 1);
})";
constexpr const char* kTextured = R"(#version 330 core
in vec2 Frag_UV;
in vec4 Frag_Color;
uniform sampler2D Texture;
layout (location = 0) out vec4 Out_Color;
void main() { Out_Color = Frag_Color * texture(Texture, Frag_UV.st); })";
constexpr const char* kFlat = R"(#version 330 core
in vec2 Frag_UV;
in vec4 Frag_Color;
layout (location = 0) out vec4 Out_Color;
void main() { Out_Color = Frag_Color; })";

GLuint Shader(GLenum kind, const char* source) {
  const GLuint s = glCreateShader(kind);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::cerr << "warpscope: a drawing shader does not compile: " << log << "\n";
  }
  return s;
}

GLuint Program(const char* fragment) {
  const GLuint p = glCreateProgram();
  const GLuint v = Shader(GL_VERTEX_SHADER, kVertex), f = Shader(GL_FRAGMENT_SHADER, fragment);
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::cerr << "warpscope: a drawing shader does not link\n";
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

// How a triangle is drawn.
enum Kind { kTexturedKind, kFlatKind, kOpaqueKind };

}  // namespace

GuiRenderer::~GuiRenderer() = default;

bool GuiRenderer::Init() {
  programs_[kTexturedKind] = Program(kTextured);
  programs_[kFlatKind] = Program(kFlat);
  if (!programs_[0] || !programs_[1]) return false;
  for (int i = 0; i < 2; ++i) proj_[i] = glGetUniformLocation(programs_[i], "ProjMtx");
  texture_uniform_ = glGetUniformLocation(programs_[kTexturedKind], "Texture");
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glGenBuffers(1, &ebo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert), (void*)offsetof(ImDrawVert, pos));
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(ImDrawVert), (void*)offsetof(ImDrawVert, uv));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ImDrawVert), (void*)offsetof(ImDrawVert, col));
  glBindVertexArray(0);
  return true;
}

void GuiRenderer::Shutdown() {
  for (GLuint& p : programs_)
    if (p) glDeleteProgram(p), p = 0;
  if (vao_) glDeleteVertexArrays(1, &vao_), vao_ = 0;
  if (vbo_) glDeleteBuffers(1, &vbo_), vbo_ = 0;
  if (ebo_) glDeleteBuffers(1, &ebo_), ebo_ = 0;
}

void GuiRenderer::SetupState(int fb_width, int fb_height, const ImDrawData* data) {
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_SCISSOR_TEST);
  glViewport(0, 0, fb_width, fb_height);
  const float l = data->DisplayPos.x, r = data->DisplayPos.x + data->DisplaySize.x;
  const float t = data->DisplayPos.y, b = data->DisplayPos.y + data->DisplaySize.y;
  const float ortho[4][4] = {{2.0f / (r - l), 0, 0, 0},
                             {0, 2.0f / (t - b), 0, 0},
                             {0, 0, -1, 0},
                             {(r + l) / (l - r), (t + b) / (b - t), 0, 1}};
  for (int i = 0; i < 2; ++i) {
    glUseProgram(programs_[i]);
    glUniformMatrix4fv(proj_[i], 1, GL_FALSE, &ortho[0][0]);
  }
  glUseProgram(programs_[kTexturedKind]);
  glUniform1i(texture_uniform_, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
}

void GuiRenderer::Render(const ImDrawData* data) {
  draw_calls_ = 0;
  const int fb_width = int(data->DisplaySize.x * data->FramebufferScale.x);
  const int fb_height = int(data->DisplaySize.y * data->FramebufferScale.y);
  if (fb_width <= 0 || fb_height <= 0 || !programs_[0]) return;
  SetupState(fb_width, fb_height, data);
  Kind state = kTexturedKind;  // the program and blending now set
  auto use = [&](Kind k) {
    if (k == state) return;
    if ((k == kTexturedKind) != (state == kTexturedKind))
      glUseProgram(programs_[k == kTexturedKind ? kTexturedKind : kFlatKind]);
    if ((k == kOpaqueKind) != (state == kOpaqueKind)) {
      if (k == kOpaqueKind) glDisable(GL_BLEND); else glEnable(GL_BLEND);
    }
    state = k;
  };
  const ImTextureID atlas = ImGui::GetIO().Fonts->TexID;
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  const ImVec2 clip_off = data->DisplayPos, clip_scale = data->FramebufferScale;
  const GLenum index_type = sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;

  for (int n = 0; n < data->CmdListsCount; ++n) {
    const ImDrawList* list = data->CmdLists[n];
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(list->VtxBuffer.Size) * sizeof(ImDrawVert), list->VtxBuffer.Data, GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(list->IdxBuffer.Size) * sizeof(ImDrawIdx), list->IdxBuffer.Data, GL_STREAM_DRAW);
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (cmd.UserCallback) {
        if (cmd.UserCallback == ImDrawCallback_ResetRenderState) {
          SetupState(fb_width, fb_height, data);
          state = kTexturedKind;
        } else {
          cmd.UserCallback(list, &cmd);
        }
        continue;
      }
      const float x0 = (cmd.ClipRect.x - clip_off.x) * clip_scale.x, y0 = (cmd.ClipRect.y - clip_off.y) * clip_scale.y;
      const float x1 = (cmd.ClipRect.z - clip_off.x) * clip_scale.x, y1 = (cmd.ClipRect.w - clip_off.y) * clip_scale.y;
      if (x1 <= x0 || y1 <= y0) continue;
      glScissor(int(x0), int(fb_height - y1), int(x1 - x0), int(y1 - y0));
      glBindTexture(GL_TEXTURE_2D, GLuint(intptr_t(cmd.GetTexID())));

      // The command's triangles in runs of one kind, in order.
      const ImDrawIdx* idx = list->IdxBuffer.Data + cmd.IdxOffset;
      const ImDrawVert* vtx = list->VtxBuffer.Data + cmd.VtxOffset;
      auto kind = [&](unsigned tri) {
        if (cmd.GetTexID() != atlas) return kTexturedKind;
        bool opaque = true;
        for (unsigned k = 0; k < 3; ++k) {
          const ImDrawVert& v = vtx[idx[tri * 3 + k]];
          if (v.uv.x != white.x || v.uv.y != white.y) return kTexturedKind;
          opaque = opaque && (v.col >> IM_COL32_A_SHIFT & 0xFF) == 0xFF;
        }
        return opaque ? kOpaqueKind : kFlatKind;
      };
      const unsigned tris = cmd.ElemCount / 3;
      for (unsigned first = 0; first < tris;) {
        const Kind k = kind(first);
        unsigned end = first + 1;
        while (end < tris && kind(end) == k) ++end;
        use(k);
        glDrawElementsBaseVertex(GL_TRIANGLES, GLsizei((end - first) * 3), index_type,
                                 (void*)(intptr_t((cmd.IdxOffset + first * 3) * sizeof(ImDrawIdx))), GLint(cmd.VtxOffset));
        ++draw_calls_;
        first = end;
      }
    }
  }
  use(kTexturedKind);
  glDisable(GL_SCISSOR_TEST);
}

}  // namespace ws::app
