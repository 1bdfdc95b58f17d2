// The desktop program: window, fonts and scale, settings, keyboard, the simulation worker, the
// GPU timings, scripted runs (steps, screenshots, benchmarks). The views live in visual/.
// Sections: options · panes and stepping · timings · layout of one frame · main loop.
#include "app/gui_main.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "app/cli.h"
#include "app/gui_capture.h"
#include "app/gui_settings.h"
#include "app/gui_worker.h"
#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"
#include "visual/banks.h"
#include "visual/counters.h"
#include "visual/memory_grid.h"
#include "visual/palette.h"
#include "visual/source_view.h"
#include "visual/steps.h"
#include "visual/timeline.h"
#include "visual/warp_lanes.h"

namespace ws::app {
namespace {

using Clock = std::chrono::steady_clock;
double Ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

// ---- options ----

struct GuiOptions {
  std::string variant, compare;
  bool no_compare = false;
  int n = 0;
  int block = 0, warp = 0, step = 0, iterations = 0;
  bool whole_block = false;
  std::string focus = "A";
  std::string keys;  // scripted key presses: "right,right,up,tab,space"
  float scale = 0;
  std::string size;
  bool fullscreen = false;
  std::string screenshot, layout_out;
  int frames = 3;
  bool quit = false;
  int benchmark_frames = 0;
  bool no_settings = false;
};

// ---- panes and stepping ----

struct Pane {
  std::string name;  // "A" / "B"
  std::string id;    // "family/variant"
  int n = 0;
  std::shared_ptr<kernels::SimOutcome> outcome;
  uint64_t generation = 0;
  bool loading = false;
  std::string error;
  std::vector<uint32_t> steps;  // the shown warp's instructions
  int step = 0;
  visual::StepFrame frame;
  visual::MemoryGridView grid;
  visual::WarpLanesView lanes;
  visual::BanksView banks;
  visual::SourceView source;
  Clock::time_point requested;
  bool HasShared() const {
    if (!outcome) return false;
    for (const auto& a : outcome->trace.arrays)
      if (a.space == sim::Space::Shared) return true;
    return false;
  }
};

uint64_t g_version = 1;

void RebuildFrame(Pane& p, const visual::Playback& pb) {
  p.frame = {};
  p.frame.pane = p.name;
  p.frame.version = ++g_version;
  if (!p.outcome) return;
  const sim::Trace& t = p.outcome->trace;
  p.frame.trace = &t;
  p.steps = visual::WarpSteps(t, pb.block, pb.warp);
  p.step = std::clamp(p.step, 0, std::max(int(p.steps.size()) - 1, 0));
  if (p.steps.empty()) return;
  p.frame.current.push_back(&t.instructions[p.steps[p.step]]);
  for (int k = p.step - 1; k >= 0 && k >= p.step - 8; --k) p.frame.trail.push_back(&t.instructions[p.steps[k]]);
  for (int k = 0; k <= p.step; ++k) p.frame.history.push_back(&t.instructions[p.steps[k]]);
  if (pb.whole_block) {
    const uint32_t warps = uint32_t((t.shape.block.Count() + 31) / 32);
    for (uint32_t w = 0; w < warps; ++w) {
      if (w == pb.warp) continue;
      const auto other = visual::WarpSteps(t, pb.block, w);
      if (p.step < int(other.size())) p.frame.current.push_back(&t.instructions[other[p.step]]);
      for (int k = 0; k <= p.step && k < int(other.size()); ++k) p.frame.history.push_back(&t.instructions[other[k]]);
    }
  }
}

const sim::Finding* FirstError(const Pane& p) {
  if (!p.outcome) return nullptr;
  for (const auto& f : p.outcome->trace.findings)
    if (sim::IsError(f.kind)) return &f;
  return nullptr;
}

std::string SourcePath(const std::string& id) {
  try {
    return kernels::FindVariant(id).variant->source;
  } catch (const std::exception&) {
    return {};
  }
}

std::string FirstVariant() {
  const auto& c = kernels::Catalog();
  return c.empty() || c[0].info.variants.empty() ? "" : c[0].info.name + "/" + c[0].info.variants[0].name;
}

bool Known(const std::string& id) {
  try {
    kernels::FindVariant(id);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::string FamilyOf(const std::string& id) { return id.substr(0, id.find('/')); }

// ---- the program ----

class Gui {
 public:
  Gui(GuiOptions opt, GuiSettings settings, std::string settings_message);
  int Run();

 private:
  bool InitWindow();
  void LoadFonts();
  void Request(Pane& p);
  void PollWorker();
  void ApplyKeys();
  void StepAll(int delta);
  void IterationAll(int dir);
  void SetStepAll(int step);
  void Reselect();
  void DrawFrame();
  void DrawPicker();
  void DrawPane(Pane& p, float width, float height);
  void DrawHelp();
  void PollTimings();
  bool Loaded() const;
  Pane& Focused() { return pane_[focus_]; }
  bool Compare() const { return compare_on_; }

  GuiOptions opt_;
  GuiSettings settings_;
  std::string message_;  // one line under the picker: clamps, ignored settings, errors
  GLFWwindow* window_ = nullptr;
  float scale_ = 1.0f;
  bool fonts_dirty_ = true;
  ImFont* mono_ = nullptr;
  ImFont* big_ = nullptr;
  Pane pane_[2];
  int focus_ = 0;
  bool compare_on_ = true;
  int n_ = 0;          // the size both panes simulate (0: family's teaching size)
  int n_edit_ = 0;
  int timing_n_ = 0;
  visual::Playback pb_;
  double play_accum_ = 0;
  SimWorker worker_;
  visual::TimelineView timeline_;
  visual::CountersView counters_;
  visual::Timings timings_;
  std::unique_ptr<kernels::GpuRunner> gpu_;
  bool cuda_ = false;
  std::string cuda_why_;
  std::string timings_family_;
  bool help_ = false;
  bool fullscreen_ = false;
  int windowed_[4] = {100, 100, 1600, 1000};
  std::vector<visual::Placed> placed_;
  Clock::time_point start_;
};

Gui::Gui(GuiOptions opt, GuiSettings settings, std::string settings_message)
    : opt_(std::move(opt)), settings_(std::move(settings)), message_(std::move(settings_message)) {
  start_ = Clock::now();
  scale_ = opt_.scale > 0 ? opt_.scale : settings_.scale;
  scale_ = std::clamp(scale_, 0.5f, 4.0f);
  pane_[0].name = "A";
  pane_[1].name = "B";
  std::string a = !opt_.variant.empty() ? opt_.variant : !settings_.variant.empty() ? settings_.variant : kDefaultVariant;
  std::string b = !opt_.compare.empty() ? opt_.compare : !settings_.compare.empty() ? settings_.compare : kDefaultCompare;
  compare_on_ = opt_.no_compare ? false : !opt_.compare.empty() ? true : opt_.variant.empty() ? settings_.compare_on : false;
  if (!Known(a)) {
    if (!opt_.variant.empty()) message_ = "unknown variant '" + a + "'; showing " + FirstVariant();
    a = FirstVariant();
  }
  if (!Known(b) || FamilyOf(b) != FamilyOf(a)) {
    if (!opt_.compare.empty()) message_ = "variant B '" + b + "' is not in " + FamilyOf(a) + "; comparing with the next variant";
    const auto ref = kernels::FindVariant(a);
    const auto& vs = ref.family->info.variants;
    size_t i = size_t(ref.variant - vs.data());
    b = ref.family->info.name + "/" + vs[std::min(i + 1, vs.size() - 1)].name;
  }
  pane_[0].id = a;
  pane_[1].id = b;
  n_ = opt_.n;
  pb_.block = uint32_t(std::max(opt_.block, 0));
  pb_.warp = uint32_t(std::max(opt_.warp, 0));
  pb_.whole_block = opt_.whole_block;
  focus_ = opt_.focus == "B" && compare_on_ ? 1 : 0;
  cuda_ = kernels::CudaAvailable(&cuda_why_);
}

bool Gui::InitWindow() {
  glfwSetErrorCallback([](int code, const char* what) { std::cerr << "warpscope: GLFW error " << code << ": " << what << "\n"; });
  if (!glfwInit()) {
    std::cerr << "warpscope: cannot open a window (no display?); the CLI still works: warpscope --help\n";
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
  int w = settings_.width, h = settings_.height;
  if (!opt_.size.empty() && std::sscanf(opt_.size.c_str(), "%dx%d", &w, &h) != 2) {
    message_ = "--size '" + opt_.size + "' is not WIDTHxHEIGHT; using 1600x1000";
    w = 1600, h = 1000;
  }
  w = std::clamp(w, 320, 16384);
  h = std::clamp(h, 240, 16384);
  window_ = glfwCreateWindow(w, h, "warpscope", nullptr, nullptr);
  if (!window_) {
    std::cerr << "warpscope: cannot create an OpenGL 3.3 window\n";
    glfwTerminate();
    return false;
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(opt_.benchmark_frames || !opt_.screenshot.empty() ? 0 : 1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  // Scripted runs must not depend on where the pointer happens to be (Xvfb puts it mid-screen).
  if (!opt_.screenshot.empty() || opt_.benchmark_frames) ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  if (opt_.fullscreen) fullscreen_ = false, windowed_[2] = w, windowed_[3] = h;
  return true;
}

void Gui::LoadFonts() {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
  const std::string dir = "/usr/share/fonts/truetype/dejavu/";
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  ImFont* sans = nullptr;
  if (std::filesystem::exists(dir + "DejaVuSans.ttf"))
    sans = io.Fonts->AddFontFromFileTTF((dir + "DejaVuSans.ttf").c_str(), 16.0f * scale_, &cfg, ranges);
  if (!sans) {
    ImFontConfig def;
    def.SizePixels = 13.0f * scale_;
    io.Fonts->AddFontDefault(&def);
    if (message_.empty()) message_ = "DejaVu fonts not found (apt install fonts-dejavu-core): using the built-in font";
  }
  mono_ = std::filesystem::exists(dir + "DejaVuSansMono.ttf")
              ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSansMono.ttf").c_str(), 15.0f * scale_, &cfg, ranges)
              : nullptr;
  big_ = std::filesystem::exists(dir + "DejaVuSans-Bold.ttf")
             ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSans-Bold.ttf").c_str(), 19.0f * scale_, &cfg, ranges)
             : nullptr;
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.ScaleAllSizes(scale_);
  ImGui::GetStyle() = style;
  fonts_dirty_ = false;
}

void Gui::Request(Pane& p) {
  const auto ref = kernels::FindVariant(p.id);
  int n = n_ ? n_ : ref.family->info.teaching_n;
  const int max_n = ref.family->info.max_sim_n;
  if (n < 1 || n > max_n) {
    const int clamped = std::clamp(n, 1, max_n);
    message_ = "n=" + std::to_string(n) + " is outside 1.." + std::to_string(max_n) + " for " + ref.family->info.name +
               " (" + ref.family->info.size_meaning + "); using " + std::to_string(clamped);
    n = clamped;
    n_ = n;
  }
  n_edit_ = n;
  p.n = n;
  p.loading = true;
  p.requested = Clock::now();
  worker_.Submit({p.name == "A" ? 0 : 1, ++p.generation, p.id, n, pb_.block});
}

void Gui::PollWorker() {
  for (auto& r : worker_.Poll()) {
    Pane& p = pane_[r.job.pane];
    if (r.job.generation != p.generation) continue;
    p.loading = false;
    if (!r.outcome) {
      p.error = r.error;
      message_ = p.name + ": " + r.error;
      continue;
    }
    p.error.clear();
    const uint64_t blocks = r.outcome->trace.shape.grid.Count();
    const uint64_t warps = (r.outcome->trace.shape.block.Count() + 31) / 32;
    if (pb_.warp >= warps) {
      message_ = "warp " + std::to_string(pb_.warp) + " is outside a block of " + std::to_string(warps) + " warps; showing warp 0";
      pb_.warp = 0;
    }
    if (pb_.block >= blocks && blocks > 0) {
      message_ = "block " + std::to_string(pb_.block) + " is outside the grid of " + std::to_string(blocks) + " blocks; showing block 0";
      pb_.block = 0;
      p.outcome = r.outcome;  // keep something on screen while block 0 loads
      Request(pane_[0]);
      if (Compare()) Request(pane_[1]);
      continue;
    }
    p.outcome = r.outcome;
    RebuildFrame(p, pb_);
  }
}

bool Gui::Loaded() const {
  if (pane_[0].loading || !pane_[0].outcome) return false;
  if (Compare() && (pane_[1].loading || !pane_[1].outcome)) return false;
  return true;
}

void Gui::StepAll(int delta) {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    Pane& p = pane_[i];
    p.step = std::clamp(p.step + delta, 0, std::max(int(p.steps.size()) - 1, 0));
    RebuildFrame(p, pb_);
  }
}

void Gui::SetStepAll(int step) {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    pane_[i].step = step;
    RebuildFrame(pane_[i], pb_);
  }
}

// ↑/↓: the focused pane moves to the same line one iteration on; the other pane follows to the
// same iteration and the same position within it (lockstep by iteration).
void Gui::IterationAll(int dir) {
  Pane& f = Focused();
  if (!f.outcome || f.steps.empty()) return;
  f.step = visual::IterationStep(f.outcome->trace, f.steps, f.step, dir);
  RebuildFrame(f, pb_);
  if (!Compare()) return;
  Pane& o = pane_[1 - focus_];
  if (!o.outcome || o.steps.empty()) return;
  const auto& ins = f.outcome->trace.instructions[f.steps[f.step]];
  const int offset = visual::OffsetInIteration(f.outcome->trace, f.steps, f.step);
  o.step = visual::StepAtIteration(o.outcome->trace, o.steps, ins.epoch, offset);
  RebuildFrame(o, pb_);
}

void Gui::Reselect() {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    Pane& p = pane_[i];
    if (p.outcome && !p.outcome->trace.instructions.empty() && p.outcome->trace.instructions.front().block != pb_.block)
      Request(p);
    else
      RebuildFrame(p, pb_);
  }
}

void Gui::ApplyKeys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl && (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD))) {
    scale_ = std::min(scale_ + 0.25f, 4.0f);
    fonts_dirty_ = true;
  }
  if (io.KeyCtrl && (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))) {
    scale_ = std::max(scale_ - 0.25f, 0.5f);
    fonts_dirty_ = true;
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) help_ = !help_;
  if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) help_ = false;
  if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) {
    GLFWmonitor* mon = glfwGetPrimaryMonitor();
    if (!fullscreen_ && mon) {
      glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
      glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
      const GLFWvidmode* mode = glfwGetVideoMode(mon);
      glfwSetWindowMonitor(window_, mon, 0, 0, mode->width, mode->height, mode->refreshRate);
      fullscreen_ = true;
    } else if (fullscreen_) {
      glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], 0);
      fullscreen_ = false;
    }
  }
  if (io.WantTextInput) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) pb_.playing = !pb_.playing;
  if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) StepAll(+1);
  if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) StepAll(-1);
  if (ImGui::IsKeyPressed(GLFW_KEY_HOME)) SetStepAll(0);
  if (ImGui::IsKeyPressed(GLFW_KEY_UP)) IterationAll(+1);
  if (ImGui::IsKeyPressed(GLFW_KEY_DOWN)) IterationAll(-1);
  if (ImGui::IsKeyPressed(GLFW_KEY_TAB, false) && Compare()) focus_ = 1 - focus_;
}

// ---- timings ----

void Gui::PollTimings() {
  const std::string family = FamilyOf(pane_[0].id);
  if (gpu_) {
    const auto st = gpu_->Poll();
    timings_.running = st.running;
    timings_.progress = st.progress;
    timings_.status = st.running ? st.message : st.report.device.empty() ? st.message : "measured now on " + st.report.device;
    timings_.rows.clear();
    for (const auto& t : st.report.timings) {
      if (FamilyOf(t.variant) != family) continue;
      timings_.rows.push_back({t.variant, t.ms_median, t.ms_min, t.ms_max, t.gbps, t.pct_of_peak, t.speedup, t.n, t.error});
      timings_.peak_meaning = t.peak_meaning;
    }
    if (!timings_.rows.empty() || st.running) return;
  }
  if (timings_family_ == family) return;
  timings_family_ = family;
  timings_ = {};
  // The first recorded file (by name) that has this family's rows.
  std::vector<std::string> problems;
  std::optional<kernels::BenchReport> rec;
  for (auto& f : LoadRecordedResults(&problems)) {
    std::erase_if(f.report.timings, [&](const kernels::Timing& t) { return FamilyOf(t.variant) != family; });
    if (!f.report.timings.empty()) { rec = std::move(f.report); break; }
  }
  const std::string why = problems.empty() ? "" : problems.front();
  const std::string no_device = cuda_ ? "press \"run on GPU\" to time this family" : cuda_why_;
  if (!rec) {
    timings_.status = no_device + (why.empty() ? "" : " (" + why + ")");
    return;
  }
  timings_.status = (cuda_ ? "" : no_device + "; ") + std::string("recorded on ") + rec->device +
                    (rec->date.empty() ? "" : " (" + rec->date + ")");
  for (const auto& t : rec->timings) {
    timings_.rows.push_back({t.variant, t.ms_median, t.ms_min, t.ms_max, t.gbps, t.pct_of_peak, t.speedup, t.n, t.error});
    timings_.peak_meaning = t.peak_meaning;
  }
}

// ---- layout of one frame ----

void Gui::DrawPicker() {
  const auto& catalog = kernels::Catalog();
  const std::string family = FamilyOf(pane_[0].id);
  ImGui::AlignTextToFramePadding();
  if (big_) ImGui::PushFont(big_);
  ImGui::TextUnformatted("warpscope");
  if (big_) ImGui::PopFont();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(150 * scale_);
  if (ImGui::BeginCombo("family##pick", family.c_str())) {
    for (size_t i = 0; i < catalog.size(); ++i) {
      ImGui::PushID(int(i));
      const auto& f = catalog[i].info;
      if (ImGui::Selectable(f.name.c_str(), f.name == family) && f.name != family && !f.variants.empty()) {
        pane_[0].id = f.name + "/" + f.variants[0].name;
        pane_[1].id = f.name + "/" + f.variants[std::min<size_t>(1, f.variants.size() - 1)].name;
        n_ = 0;
        pane_[0].step = pane_[1].step = 0;
        Request(pane_[0]);
        if (Compare()) Request(pane_[1]);
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.title.c_str());
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  const kernels::FamilyEntry* fam = nullptr;
  for (const auto& f : catalog)
    if (f.info.name == family) fam = &f;
  if (!fam) return;
  auto variant_combo = [&](Pane& p, const char* label) {
    const std::string cur = p.id.substr(p.id.find('/') + 1);
    ImGui::SetNextItemWidth(160 * scale_);
    if (ImGui::BeginCombo(label, cur.c_str())) {
      for (size_t i = 0; i < fam->info.variants.size(); ++i) {
        ImGui::PushID(int(i));
        const auto& v = fam->info.variants[i];
        if (ImGui::Selectable(v.name.c_str(), v.name == cur) && v.name != cur) {
          p.id = family + "/" + v.name;
          p.step = 0;
          Request(p);
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", v.title.c_str(), v.description.c_str());
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
  };
  ImGui::SameLine();
  variant_combo(pane_[0], "A##pick");
  ImGui::SameLine();
  if (ImGui::Checkbox("compare with##pick", &compare_on_)) {
    if (compare_on_) {
      pane_[1].step = pane_[0].step;
      Request(pane_[1]);
    } else {
      focus_ = 0;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show variant B beside A; both step in lockstep.");
  if (Compare()) {
    ImGui::SameLine();
    variant_combo(pane_[1], "B##pick");
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110 * scale_);
  ImGui::InputInt("n##pick", &n_edit_, 16, 256);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Problem size for the pictures: %s (teaching size %d, simulator limit %d). Enter applies.",
                      fam->info.size_meaning.c_str(), fam->info.teaching_n, fam->info.max_sim_n);
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    n_ = n_edit_;
    Request(pane_[0]);
    if (Compare()) Request(pane_[1]);
  }
  ImGui::SameLine();
  if (timing_n_ == 0) timing_n_ = fam->info.timing_n;
  ImGui::SetNextItemWidth(110 * scale_);
  ImGui::InputInt("timing n##pick", &timing_n_, 0, 0);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Size for GPU timings (family default %d).", fam->info.timing_n);
  timing_n_ = std::clamp(timing_n_, 1, 1 << 20);
  ImGui::SameLine();
  if (ImGui::SmallButton("help (F1)##pick")) help_ = !help_;
  ImGui::SameLine();
  ImGui::TextDisabled("scale %.2g (Ctrl+=/Ctrl+-)", scale_);
  if (!message_.empty()) {
    ImGui::TextColored(ImVec4(0.9f, 0.62f, 0.0f, 1), "%s", message_.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("dismiss##msg")) message_.clear();
  } else {
    ImGui::TextDisabled("%s", fam->info.story.c_str());
  }
}

void Gui::DrawPane(Pane& p, float width, float height) {
  ImGui::PushID(p.name.c_str());
  const bool focused = &p == &Focused();
  ImGui::PushStyleColor(ImGuiCol_Border, focused && Compare() ? ImVec4(0.94f, 0.89f, 0.26f, 1) : ImGui::GetStyle().Colors[ImGuiCol_Border]);
  ImGui::BeginChild("pane", ImVec2(width, height), true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleColor();
  std::string title = p.name + ": " + p.id;
  try {
    title += " \xe2\x80\x94 " + kernels::FindVariant(p.id).variant->title;
  } catch (const std::exception&) {
  }
  if (big_) ImGui::PushFont(big_);
  ImGui::TextUnformatted(title.c_str());
  if (big_) ImGui::PopFont();
  if (ImGui::IsItemHovered()) {
    try {
      ImGui::SetTooltip("%s", kernels::FindVariant(p.id).variant->description.c_str());
    } catch (const std::exception&) {
    }
  }
  try {
    const std::string& note = kernels::FindVariant(p.id).variant->on_hardware;
    if (!note.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.90f, 0.62f, 0.0f, 1));  // Okabe-Ito orange
      ImGui::TextWrapped("On the GPU: %s", note.c_str());
      ImGui::PopStyleColor();
    }
  } catch (const std::exception&) {
  }
  if (p.loading) {
    ImGui::SameLine();
    ImGui::TextDisabled("  simulating n=%d ...", p.n);
  }
  if (!p.error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.3f, 1), "%s", p.error.c_str());
  if (p.outcome) {
    const auto& t = p.outcome->trace;
    ImGui::TextDisabled("n=%d  grid %ux%u  block %ux%u  check: %s%s", p.n, t.shape.grid.x, t.shape.grid.y, t.shape.block.x,
                        t.shape.block.y, p.outcome->check.passed ? "matches the CPU reference" : "DIFFERS from the CPU reference",
                        t.truncated ? "  (trace truncated)" : "");
    if (p.steps.empty()) ImGui::TextDisabled("warp %u of block %u issues no memory instruction", pb_.warp, pb_.block);
    p.lanes.Draw(p.frame, scale_, &placed_);
    const float rest = ImGui::GetContentRegionAvail().y;
    const bool shared = p.HasShared();
    const float banks_h = shared ? std::clamp(rest * 0.36f, 90.0f * scale_, 260.0f * scale_) : 0.0f;
    p.grid.Draw(p.frame, rest - banks_h, scale_, &placed_);
    if (shared) p.banks.Draw(p.frame, banks_h, scale_, &placed_);
  }
  ImGui::EndChild();
  if (ImGui::IsItemClicked() && Compare()) focus_ = p.name == "A" ? 0 : 1;
  ImGui::PopID();
}

void Gui::DrawHelp() {
  if (!help_) return;
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.95f);
  if (ImGui::Begin("Keyboard (F1 closes)##help", &help_, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
    const char* rows[][2] = {{"Space", "play / pause"},
                             {"Right / Left", "next / previous warp instruction"},
                             {"Up / Down", "same source line, next / previous loop iteration"},
                             {"Home", "first instruction"},
                             {"Tab", "switch focus between A and B (compare mode)"},
                             {"F11", "full screen"},
                             {"Ctrl+= / Ctrl+-", "larger / smaller UI"},
                             {"F1", "this help"}};
    if (ImGui::BeginTable("keys##help", 2)) {
      for (auto& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r[0]);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r[1]);
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextUnformatted("Click a block in the grid map and a thread in the block map to choose the warp.");
    ImGui::TextUnformatted("Hover a cell, a lane, a bank, a source line or a counter for what it means.");
  }
  ImGui::End();
}

void Gui::DrawFrame() {
  placed_.clear();
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  // No background: the frame is cleared to the window colour, so the software rasteriser under
  // Xvfb does not blend 1.6 million pixels a frame twice.
  const ImGuiWindowFlags root = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings |
                                ImGuiWindowFlags_NoBackground;
  if (ImGui::Begin("warpscope##root", nullptr, root)) {
    DrawPicker();
    // A fault the simulator found: block, thread, line, address.
    for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
      const sim::Finding* f = FirstError(pane_[i]);
      if (!f) continue;
      const auto& t = pane_[i].outcome->trace;
      const uint32_t line = f->site >= 0 && f->site < int(t.sites.size()) ? t.sites[f->site].line : 0;
      ImGui::PushID(i);
      ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(visual::kError.r / 255.f, visual::kError.g / 255.f, visual::kError.b / 255.f, 1));
      ImGui::BeginChild("fault##banner", ImVec2(0, ImGui::GetFrameHeightWithSpacing() * 1.2f), false, ImGuiWindowFlags_NoScrollbar);
      ImGui::AlignTextToFramePadding();
      ImGui::Text(" %s: %s in block (%u,%u,%u) thread (%u,%u,%u), line %u, address 0x%llx: %s", pane_[i].name.c_str(),
                  sim::ToString(f->kind), f->block.x, f->block.y, f->block.z, f->thread.x, f->thread.y, f->thread.z, line,
                  (unsigned long long)f->address, f->message.c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton("go there##fault")) {
        const auto& sh = t.shape;
        pb_.block = f->block.x + f->block.y * sh.grid.x + f->block.z * sh.grid.x * sh.grid.y;
        pb_.warp = (f->thread.x + f->thread.y * sh.block.x + f->thread.z * sh.block.x * sh.block.y) / 32;
        Reselect();
        // Same block: jump to the faulting line now.
        Pane& p = pane_[i];
        for (int s = 0; s < int(p.steps.size()); ++s)
          if (int(t.instructions[p.steps[s]].site) == f->site) {
            p.step = s;
            RebuildFrame(p, pb_);
            break;
          }
      }
      ImGui::EndChild();
      ImGui::PopStyleColor();
      ImGui::PopID();
    }

    const float timeline_h = ImGui::GetFrameHeightWithSpacing() * 2 + 70 * scale_;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float body_h = avail.y - timeline_h - ImGui::GetStyle().ItemSpacing.y;
    const float right_w = std::clamp(avail.x * 0.30f, 260.0f * scale_, avail.x * 0.45f);
    const float left_w = avail.x - right_w - ImGui::GetStyle().ItemSpacing.x;
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    if (Compare()) {
      DrawPane(pane_[0], (left_w - spacing) * 0.5f, body_h);
      ImGui::SameLine();
      DrawPane(pane_[1], (left_w - spacing) * 0.5f, body_h);
    } else {
      DrawPane(pane_[0], left_w, body_h);
    }
    ImGui::SameLine();
    ImGui::BeginChild("side##root", ImVec2(right_w, body_h), false);
    const float source_h = body_h * 0.5f;
    Pane& f = Focused();
    f.source.Draw(f.frame, SourcePath(f.id), kernels::KernelSource(SourcePath(f.id)), source_h, scale_, mono_);
    ImGui::BeginChild("counters##side", ImVec2(0, 0), true);
    const bool run = counters_.Draw(pane_[0].id, pane_[0].outcome ? &pane_[0].outcome->trace : nullptr,
                                    Compare() ? pane_[1].id : "", Compare() && pane_[1].outcome ? &pane_[1].outcome->trace : nullptr,
                                    timings_, cuda_, scale_);
    if (run && cuda_) {
      if (!gpu_) gpu_ = std::make_unique<kernels::GpuRunner>();
      {
      std::vector<std::string> ids;
      const auto ref = kernels::FindVariant(pane_[0].id);
      for (const auto& v : ref.family->info.variants) ids.push_back(ref.family->info.name + "/" + v.name);
      gpu_->Start(ids, timing_n_, 7);
      }
    }
    ImGui::EndChild();
    ImGui::EndChild();

    ImGui::BeginChild("timeline##root", ImVec2(0, timeline_h), true, ImGuiWindowFlags_NoScrollbar);
    pb_.step = f.step;
    pb_.steps = int(f.steps.size());
    const auto in = timeline_.Draw(f.outcome ? &f.outcome->trace : nullptr, pb_, scale_);
    if (in.step_changed) SetStepAll(pb_.step);
    if (in.iteration) IterationAll(in.iteration);
    if (in.selection_changed) Reselect();
    ImGui::EndChild();
  }
  ImGui::End();
  DrawHelp();
}

// ---- main loop ----

int Gui::Run() {
  if (!InitWindow()) return kFailed;
  Request(pane_[0]);
  if (Compare()) Request(pane_[1]);

  bool script_applied = false;
  int frames_after = 0;
  bool first_frame = true, first_loaded = true;
  std::vector<double> frame_ms;
  enum class Bench { Off, Playing, Switching, Done } bench = opt_.benchmark_frames ? Bench::Playing : Bench::Off;
  Clock::time_point switch_start;
  double switch_ms = 0;
  const auto deadline = start_ + std::chrono::seconds(120);
  int rc = kOk;
  auto last = Clock::now();

  while (!glfwWindowShouldClose(window_)) {
    const auto t0 = Clock::now();
    glfwPollEvents();
    if (fonts_dirty_) LoadFonts();
    PollWorker();
    PollTimings();

    // Scripted runs: once everything is simulated, apply the steps, then count frames.
    const bool scripted = !opt_.screenshot.empty() || opt_.quit || opt_.benchmark_frames || !opt_.keys.empty();
    if (scripted && !script_applied && Loaded()) {
      script_applied = true;
      SetStepAll(opt_.step);
      for (int i = 0; i < std::abs(opt_.iterations); ++i) IterationAll(opt_.iterations > 0 ? 1 : -1);
      std::stringstream keys(opt_.keys);
      for (std::string k; std::getline(keys, k, ',');) {
        if (k == "right") StepAll(1);
        else if (k == "left") StepAll(-1);
        else if (k == "up") IterationAll(1);
        else if (k == "down") IterationAll(-1);
        else if (k == "tab" && Compare()) focus_ = 1 - focus_;
        else if (k == "space") pb_.playing = !pb_.playing;
        else if (k == "help") help_ = !help_;
        else if (!k.empty()) std::cerr << "warpscope: unknown key '" << k << "' in --keys\n";
      }
    }
    if (scripted && Clock::now() > deadline) {
      std::cerr << "warpscope: scripted run timed out waiting for the simulation\n";
      rc = kFailed;
      break;
    }

    // Playback.
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    if (bench == Bench::Playing && script_applied) {
      Pane& f = Focused();
      StepAll(f.step + 1 >= int(f.steps.size()) ? -f.step : 1);  // one step a frame, wrapping
    } else if (pb_.playing && Loaded()) {
      play_accum_ += dt * pb_.speed;
      while (play_accum_ >= 1.0) {
        play_accum_ -= 1.0;
        Pane& f = Focused();
        if (f.step + 1 >= int(f.steps.size())) SetStepAll(0);
        else StepAll(1);
      }
    } else {
      play_accum_ = 0;
    }
    if (!ImGui::GetIO().WantCaptureKeyboard || true) {
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      ApplyKeys();
    }
    DrawFrame();
    ImGui::Render();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window_, &fw, &fh);
    glViewport(0, 0, fw, fh);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    if (script_applied && !opt_.screenshot.empty() && ++frames_after == opt_.frames) {
      std::string why;
      if (!SaveScreenshot(opt_.screenshot, fw, fh, &why)) std::cerr << "warpscope: " << why << "\n", rc = kFailed;
      if (!opt_.layout_out.empty() && !SaveLayout(opt_.layout_out, placed_, fw, fh, scale_, &why))
        std::cerr << "warpscope: " << why << "\n", rc = kFailed;
      if (opt_.quit) glfwSetWindowShouldClose(window_, 1);
    } else if (script_applied && opt_.quit && opt_.screenshot.empty() && !opt_.benchmark_frames && ++frames_after >= opt_.frames) {
      glfwSetWindowShouldClose(window_, 1);
    }
    glfwSwapBuffers(window_);
    glFinish();
    const auto t1 = Clock::now();
    if (first_frame) {
      first_frame = false;
      if (opt_.benchmark_frames) std::printf("startup_to_first_frame_ms=%.1f\n", Ms(start_, t1));
    }
    if (first_loaded && Loaded()) {
      first_loaded = false;
      if (opt_.benchmark_frames) std::printf("startup_to_lesson_frame_ms=%.1f\n", Ms(start_, t1));
    }

    if (bench == Bench::Playing && script_applied) {
      frame_ms.push_back(Ms(t0, t1));
      if (int(frame_ms.size()) >= opt_.benchmark_frames) {
        std::sort(frame_ms.begin(), frame_ms.end());
        std::printf("frames=%zu median_frame_ms=%.2f p90_frame_ms=%.2f\n", frame_ms.size(), frame_ms[frame_ms.size() / 2],
                    frame_ms[frame_ms.size() * 9 / 10]);
        // Switch A to another variant of the family at its teaching size: time to its first frame.
        const auto ref = kernels::FindVariant(pane_[0].id);
        const auto& vs = ref.family->info.variants;
        pane_[0].id = ref.family->info.name + "/" + vs[(size_t(ref.variant - vs.data()) + 1) % vs.size()].name;
        n_ = 0;
        pane_[0].step = 0;
        switch_start = Clock::now();
        Request(pane_[0]);
        bench = Bench::Switching;
      }
    } else if (bench == Bench::Switching && !pane_[0].loading) {
      switch_ms = Ms(switch_start, t1);
      std::printf("switch_variant_to_first_frame_ms=%.1f (%s at n=%d)\n", switch_ms, pane_[0].id.c_str(), pane_[0].n);
      std::fflush(stdout);
      bench = Bench::Done;
      glfwSetWindowShouldClose(window_, 1);
    }
  }

  if (!opt_.no_settings) {
    settings_.scale = scale_;
    settings_.variant = pane_[0].id;
    settings_.compare = pane_[1].id;
    settings_.compare_on = compare_on_;
    if (!fullscreen_) glfwGetWindowSize(window_, &settings_.width, &settings_.height);
    std::string why;
    if (!SaveSettings(settings_, SettingsPath(), &why)) std::cerr << "warpscope: " << why << "\n";
  }
  gpu_.reset();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
  return rc;
}

}  // namespace

int GuiMain(int argc, char** argv) {
  CLI::App app{"warpscope gui: the desktop program. Scripted runs (tests, screenshots, benchmarks) use the flags below."};
  GuiOptions o;
  app.add_option("--variant", o.variant, "variant A, FAMILY/VARIANT (default: the last lesson, or shortcut/v0)");
  app.add_option("--compare", o.compare, "variant B, shown beside A in lockstep");
  app.add_flag("--no-compare", o.no_compare, "show A alone");
  app.add_option("--n", o.n, "problem size (default: the family's teaching size; clamped to the simulator's limit)");
  app.add_option("--block", o.block, "linear block index to show");
  app.add_option("--warp", o.warp, "warp index within the block");
  app.add_option("--step", o.step, "open at this warp instruction (0-based)");
  app.add_option("--iteration", o.iterations, "then press Up (or Down, if negative) this many times");
  app.add_flag("--whole-block", o.whole_block, "show every warp of the block at once");
  app.add_option("--focus", o.focus, "A or B: which pane the source view and the keys follow")->check(CLI::IsMember({"A", "B"}));
  app.add_option("--keys", o.keys, "key presses applied after loading: right,left,up,down,tab,space,help");
  app.add_option("--scale", o.scale, "UI scale (0.5 .. 4)");
  app.add_option("--size", o.size, "window size WIDTHxHEIGHT");
  app.add_flag("--fullscreen", o.fullscreen, "start full screen (F11 toggles)");
  app.add_option("--screenshot", o.screenshot, "save a PNG of the window once loaded and stepped");
  app.add_option("--layout-out", o.layout_out, "with --screenshot: save where the views put their grids as JSON");
  app.add_option("--frames", o.frames, "frames to draw after loading before the screenshot / quit (default 3)");
  app.add_flag("--quit", o.quit, "quit after the screenshot (or after --frames frames)");
  app.add_option("--benchmark-frames", o.benchmark_frames,
                 "play one step a frame for N frames; print median frame time, variant switch and start-up times; quit");
  app.add_flag("--no-settings", o.no_settings, "neither read nor write the settings file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "warpscope gui: " << e.what() << " (see warpscope gui --help)\n";
    return kBadArguments;
  }
  o.frames = std::max(o.frames, 1);
  std::string message;
  GuiSettings s = o.no_settings ? GuiSettings{} : LoadSettings(SettingsPath(), &message);
  if (!message.empty()) std::cerr << "warpscope: " << message << "\n";
  try {
    Gui gui(o, s, message);
    return gui.Run();
  } catch (const kernels::BadRequest& e) {
    std::cerr << "warpscope: " << e.what() << "\n";
    return kBadArguments;
  }
}

}  // namespace ws::app
