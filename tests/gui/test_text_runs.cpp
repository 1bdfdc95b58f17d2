// Text found in Dear ImGui's draw data without a window: a headless ImGui frame with text that
// fits, text cut by a narrow child, a button label cut on the CPU, text past the display, two
// labels drawn on top of each other, a wrapped paragraph, and a filled rectangle (not text).
#include <gtest/gtest.h>
#include <imgui.h>

#include <filesystem>

#include "app/gui_capture.h"

namespace ws::app {
namespace {

class TextRunsFrame : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(400, 300);
    io.DeltaTime = 1.0f / 60;
    const char* dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    ImFontConfig cfg;
    cfg.OversampleH = 2;  // as the program loads its fonts
    if (std::filesystem::exists(dejavu)) io.Fonts->AddFontFromFileTTF(dejavu, 16.0f, &cfg);
    else io.Fonts->AddFontDefault();
    unsigned char* px;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);
    io.Fonts->SetTexID((ImTextureID)(intptr_t)1);
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // Draws one frame and returns the runs found in it.
  std::vector<TextRun> Frame() {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(400, 300));
    ImGui::Begin("root", nullptr, ImGuiWindowFlags_NoDecoration);
    ImGui::TextUnformatted("fits here");
    ImGui::TextUnformatted("two words");
    ImGui::BeginChild("narrow", ImVec2(70, 40), true);
    ImGui::TextUnformatted("32 lanes -> 16 lines, 16 sectors");
    ImGui::EndChild();
    ImGui::Button("a button label far too long", ImVec2(60, 0));
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(200, 10), ImVec2(260, 40), IM_COL32(200, 50, 50, 255));
    ImGui::SetCursorPos(ImVec2(200, 60));
    ImGui::TextUnformatted("9");
    ImGui::SetCursorPos(ImVec2(203, 60));
    ImGui::TextUnformatted("10");
    ImGui::SetCursorPos(ImVec2(200, 100));
    ImGui::PushTextWrapPos(300);
    ImGui::TextUnformatted("a caption that wraps onto a second line");
    ImGui::PopTextWrapPos();
    ImGui::SetCursorPos(ImVec2(10, 250));
    ImGui::TextUnformatted("left alone");
    ImGui::End();
    // A label past the right edge of the display, in its own window that reaches past it.
    ImGui::SetNextWindowPos(ImVec2(350, 200));
    ImGui::SetNextWindowSize(ImVec2(120, 60));
    ImGui::Begin("beyond", nullptr, ImGuiWindowFlags_NoDecoration);
    ImGui::TextUnformatted("beyond the edge");
    ImGui::End();
    ImGui::Render();
    return FindTextRuns(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts);
  }
};

const TextRun* Find(const std::vector<TextRun>& runs, const std::string& prefix) {
  for (const auto& r : runs)
    if (r.text.rfind(prefix, 0) == 0) return &r;
  return nullptr;
}

TEST_F(TextRunsFrame, TextThatFitsIsFoundWithItsSpacesAndIsNotClipped) {
  const auto runs = Frame();
  const TextRun* fits = Find(runs, "fits");
  ASSERT_NE(fits, nullptr);
  EXPECT_EQ(fits->text, "fits here");
  EXPECT_FALSE(fits->clipped);
  EXPECT_FALSE(fits->outside);
  EXPECT_EQ(fits->window, "root");
  EXPECT_GT(fits->rect.w, 40);  // nine characters at 16 px
  ASSERT_NE(Find(runs, "two words"), nullptr);
  const TextRun* alone = Find(runs, "left alone");
  ASSERT_NE(alone, nullptr);
  EXPECT_FALSE(alone->clipped);
}

TEST_F(TextRunsFrame, TextWiderThanItsChildIsClipped) {
  const auto runs = Frame();
  const TextRun* cut = Find(runs, "32 lanes");
  ASSERT_NE(cut, nullptr);
  EXPECT_TRUE(cut->clipped);
  EXPECT_NE(cut->window.find("narrow"), std::string::npos) << cut->window;
  EXPECT_GT(cut->rect.x + cut->rect.w, cut->clip.x + cut->clip.w);
  EXPECT_LE(cut->text.size(), std::string("32 lanes -> 16 lines, 16 sectors").size());
}

TEST_F(TextRunsFrame, ButtonLabelCutOnTheCpuIsClipped) {
  const auto runs = Frame();
  const TextRun* label = Find(runs, "a button");
  ASSERT_NE(label, nullptr);
  EXPECT_TRUE(label->clipped);
}

TEST_F(TextRunsFrame, TextPastTheDisplayIsOutside) {
  const auto runs = Frame();
  const TextRun* beyond = Find(runs, "beyon");  // the glyphs past the display are dropped
  ASSERT_NE(beyond, nullptr);
  EXPECT_TRUE(beyond->outside);
  const TextRun* fits = Find(runs, "fits");
  ASSERT_NE(fits, nullptr);
  EXPECT_FALSE(fits->outside);
}

TEST_F(TextRunsFrame, LabelsDrawnOverEachOtherOverlapAndOthersDoNot) {
  const auto runs = Frame();
  int nine = -1, ten = -1;
  for (int i = 0; i < int(runs.size()); ++i) {
    if (runs[i].text == "9") nine = i;
    if (runs[i].text == "10") ten = i;
  }
  ASSERT_GE(nine, 0);
  ASSERT_GE(ten, 0);  // "10" starts 3 px after "9": a separate run, not "910"
  const auto pairs = OverlappingRuns(runs);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], std::make_pair(std::min(nine, ten), std::max(nine, ten)));
}

TEST_F(TextRunsFrame, AWrappedCaptionIsOneRunOfSeveralLines) {
  const auto runs = Frame();
  const TextRun* caption = Find(runs, "a caption");
  ASSERT_NE(caption, nullptr);
  EXPECT_GE(caption->lines.size(), 2u);
  EXPECT_NE(caption->text.find('\n'), std::string::npos) << caption->text;
  EXPECT_FALSE(caption->clipped);
}

TEST_F(TextRunsFrame, FilledRectanglesAreNotText) {
  const auto runs = Frame();
  for (const auto& r : runs)  // the red rectangle at (200..260, 10..40) uses the white pixel
    EXPECT_FALSE(r.rect.x >= 199 && r.rect.x + r.rect.w <= 261 && r.rect.y >= 9 && r.rect.y + r.rect.h <= 41) << r.text;
  EXPECT_EQ(runs.size(), 9u);  // the nine labels above, each once
}

}  // namespace
}  // namespace ws::app
