// Export for slides from the window (see gui_export.h).
#include "app/gui_export.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/gui_app.h"
#include "app/gui_capture.h"
#include "visual/palette.h"

namespace ws::app {
namespace {

// The colours frames are drawn in, so that the GIF's fixed palette reproduces them exactly.
std::vector<visual::Rgb> KeyColours() {
  std::vector<visual::Rgb> keys;
  const ImGuiStyle& st = ImGui::GetStyle();
  const ImVec4 bg = st.Colors[ImGuiCol_WindowBg];
  auto add = [&](ImVec4 c) {  // composited over the window background
    auto mix = [&](float a, float b) { return uint8_t(std::lround(std::clamp(a * c.w + b * (1 - c.w), 0.0f, 1.0f) * 255)); };
    keys.push_back({mix(c.x, bg.x), mix(c.y, bg.y), mix(c.z, bg.z)});
  };
  add(bg);
  for (const ImGuiCol c : {ImGuiCol_Text, ImGuiCol_TextDisabled, ImGuiCol_ChildBg, ImGuiCol_Border, ImGuiCol_FrameBg,
                           ImGuiCol_Button, ImGuiCol_CheckMark, ImGuiCol_Header, ImGuiCol_Separator})
    add(st.Colors[c]);
  for (int lane = 0; lane < 32; ++lane) keys.push_back(visual::LaneRgb(lane));
  for (visual::Rgb c : {visual::kBackground, visual::kMasked, visual::kConflict, visual::kBankOk, visual::kLine, visual::kSector,
                        visual::kError, visual::kErrorText, visual::kWarning, visual::kWarningText,
                        visual::kHighlight, visual::kBlack})
    keys.push_back(c);
  for (int i = 0; i <= 8; ++i) keys.push_back(visual::HeatRgb(i / 8.0f));
  return keys;
}

visual::Rect PanesRegion(const Gui& gui) {
  visual::Rect r = gui.pane(0).rect;
  if (gui.compare()) {
    const visual::Rect& b = gui.pane(1).rect;
    const float x1 = std::max(r.x + r.w, b.x + b.w), y1 = std::max(r.y + r.h, b.y + b.h);
    r.x = std::min(r.x, b.x), r.y = std::min(r.y, b.y), r.w = x1 - r.x, r.h = y1 - r.y;
  }
  return {std::floor(r.x), std::floor(r.y), std::ceil(r.w), std::ceil(r.h)};
}

}  // namespace

struct SlideExport::Job {
  std::string path;
  StepRange steps;
  int step = 0, frames_at_step = 0;
  visual::Rect region;
  GifWriter writer;
};

SlideExport::SlideExport() = default;
SlideExport::~SlideExport() = default;

void SlideExport::RequestGif(const std::string& path, StepRange steps, int fps) {
  request_ = Request{path, steps, fps};
  request_wait_ = 2;
}

bool SlideExport::Busy() const { return job_ || request_ || !png_.empty(); }

void SlideExport::Finish(Gui& gui, std::string outcome, bool ok) {
  outcome_ = std::move(outcome);
  succeeded_ = ok;
  gui.Say(outcome_);
}

void SlideExport::StartGif(Gui& gui) {
  const Request req = *request_;
  request_.reset();
  const int available = int(std::max(gui.pane(0).steps.size(), gui.compare() ? gui.pane(1).steps.size() : size_t(0)));
  if (req.steps.first >= available) {
    Finish(gui, "cannot export steps " + std::to_string(req.steps.first) + ".." + std::to_string(req.steps.last) +
                    ": this warp has " + std::to_string(available) + " steps (0.." + std::to_string(std::max(available - 1, 0)) + ")",
           false);
    return;
  }
  auto job = std::make_unique<Job>();
  job->path = req.path;
  job->steps = {req.steps.first, std::min(req.steps.last, available - 1)};  // stops at the warp's last step
  job->step = job->steps.first;
  job->region = PanesRegion(gui);
  std::string why;
  if (!job->writer.Open(req.path, int(job->region.w), int(job->region.h), req.fps, SlidePalette(KeyColours()), &why)) {
    Finish(gui, why, false);
    return;
  }
  gui.SetStepAll(job->step);
  job_ = std::move(job);
}

// After a frame is rendered: the pending PNG first, then the GIF's frames. Each step is drawn
// twice and read on the second, so that anything laid out from the previous frame has settled.
void SlideExport::AfterRender(Gui& gui, int fw, int fh) {
  std::string why;
  if (!png_.empty()) {
    if (--png_wait_ > 0) return;
    if (SaveScreenshot(png_, fw, fh, &why)) Finish(gui, "wrote " + std::filesystem::absolute(png_).string() + "; writing the GIF ...", true);
    else Finish(gui, why, false);
    png_.clear();
    if (!succeeded_) request_.reset(), return_step_ = -1;
    return;
  }
  if (request_) {
    if (--request_wait_ <= 0) StartGif(gui);
    return;
  }
  if (!job_) return;
  Job& g = *job_;
  if (++g.frames_at_step < 2) return;
  const auto px = ReadPixels(int(g.region.x), int(g.region.y), int(g.region.w), int(g.region.h), fh);
  if (!g.writer.AddFrame(px.data(), &why)) {
    job_.reset();
    Finish(gui, why, false);
    return;
  }
  if (g.step < g.steps.last) {
    g.frames_at_step = 0;
    gui.SetStepAll(++g.step);
    return;
  }
  if (g.writer.Close(&why)) {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(g.path, ec);
    Finish(gui,
           "wrote " + std::filesystem::absolute(g.path).string() + " (" + std::to_string(g.writer.Frames()) + " frames, steps " +
               std::to_string(g.steps.first) + ".." + std::to_string(g.steps.last) + ", " + std::to_string(g.writer.Width()) + "x" +
               std::to_string(g.writer.Height()) + ", " + std::to_string((bytes + 1023) / 1024) + " KiB)",
           true);
  } else {
    Finish(gui, why, false);
  }
  job_.reset();
  if (return_step_ >= 0) gui.SetStepAll(return_step_), return_step_ = -1;
}

void SlideExport::DrawButton(Gui& gui, float scale) {
  if (ImGui::Button(Busy() ? "exporting...##export" : "export##export") && !Busy()) {
    const Pane& f = gui.pane(gui.focus());
    first_ = f.step;
    last_ = std::min(f.step + 40, std::max(int(f.steps.size()) - 1, f.step));
    if (!path_[0]) {
      std::string base = "warpscope-" + gui.pane(0).Id() + (gui.compare() ? "-vs-" + gui.pane(1).variant.variant->name : "");
      std::replace(base.begin(), base.end(), '/', '-');
      std::snprintf(path_, sizeof path_, "%s", base.c_str());
    }
    ImGui::OpenPopup("export##popup");
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Write an animated GIF of the panes over a range of steps, and a PNG of the window.");
  if (!ImGui::BeginPopup("export##popup")) return;
  ImGui::TextUnformatted("GIF of the panes and PNG of the window");
  ImGui::SetNextItemWidth(120 * scale);
  ImGui::InputInt("first step##export", &first_);
  ImGui::SetNextItemWidth(120 * scale);
  ImGui::InputInt("last step##export", &last_);
  ImGui::SetNextItemWidth(120 * scale);
  ImGui::InputInt("steps per second##export", &fps_);
  ImGui::SetNextItemWidth(320 * scale);
  ImGui::InputText("file name (.gif, .png added)##export", path_, sizeof path_);
  if (ImGui::Button("write##export")) {
    const std::string base = path_;
    std::string why;
    if (first_ < 0 || first_ > last_) {
      Finish(gui, "export: the first step must be from 0 to the last step", false);
    } else if (!CheckGifRequest(base + ".gif", fps_, &why) || !CanWrite(base + ".png", &why)) {
      Finish(gui, why, false);
    } else {
      png_ = base + ".png";
      png_wait_ = 2;  // the popup is gone from the frame after next
      RequestGif(base + ".gif", {first_, last_}, fps_);
      return_step_ = gui.pane(gui.focus()).step;
    }
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("cancel##export")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace ws::app
