// The desktop program's window (see gui_app.h).
// Sections: panes and stepping · the program · keys · timings · layout of one frame · main loop.
#include "app/gui_app.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "app/cli.h"
#include "app/gui_bench.h"
#include "app/gui_script.h"
#include "visual/glossary.h"
#include "visual/palette.h"
#include "visual/steps.h"
#include "visual/text_fit.h"

namespace ws::app {
namespace {

// ---- panes and stepping ----

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

// The catalog's variant named `id`, or none.
std::optional<kernels::VariantRef> Lookup(const std::string& id) {
  try {
    return kernels::FindVariant(id);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

kernels::VariantRef FirstVariant() {
  const auto& f = kernels::Catalog().front();  // the catalog registers at least one family
  return {&f, &f.info.variants.front()};
}

// The variant after `v` in its family (or `v` itself when it is the last).
kernels::VariantRef NextInFamily(const kernels::VariantRef& v) {
  const auto& vs = v.family->info.variants;
  const size_t i = size_t(v.variant - vs.data());
  return {v.family, &vs[std::min(i + 1, vs.size() - 1)]};
}

std::string FamilyOf(const std::string& id) { return id.substr(0, id.find('/')); }

}  // namespace

bool Pane::HasShared() const {
  if (!outcome) return false;
  for (const auto& a : outcome->trace.arrays)
    if (a.space == sim::Space::Shared) return true;
  return false;
}

// ---- the program ----

Gui::Gui(GuiOptions opt, GuiSettings settings, std::string settings_message)
    : opt_(std::move(opt)), settings_(std::move(settings)), message_(std::move(settings_message)),
      worker_([this] { WakeOnResult(); }) {
  start_ = Clock::now();
  base_scale_ = std::clamp(opt_.scale > 0 ? opt_.scale : settings_.scale, kMinScale, kMaxScale);
  present_ = opt_.present;
  chart_shown_ = opt_.side == "chart" || opt_.side == "l1";  // the source view's height is right from the first frame
  UpdateScale();
  std::vector<std::string> ncu_problems;
  ncu_ = LoadRecordedNcuFiles(&ncu_problems);
  for (const auto& why : ncu_problems) std::cerr << "warpscope: skipped " << why << "\n";
  pane_[0].name = "A";
  pane_[1].name = "B";
  std::string a = !opt_.variant.empty() ? opt_.variant : !settings_.variant.empty() ? settings_.variant : kDefaultVariant;
  std::string b = !opt_.compare.empty() ? opt_.compare : !settings_.compare.empty() ? settings_.compare : kDefaultCompare;
  compare_on_ = opt_.no_compare ? false : !opt_.compare.empty() ? true : opt_.variant.empty() ? settings_.compare_on : false;
  auto ref_a = Lookup(a);
  if (!ref_a) {
    ref_a = FirstVariant();
    if (!opt_.variant.empty()) message_ = "unknown variant '" + a + "'; showing " + ref_a->Id();
  }
  auto ref_b = Lookup(b);
  // Kernel files compare with anything (two files A/B); catalog variants within their family.
  const bool across = ref_b && (ref_a->family->from_file || ref_b->family->from_file);
  if (!ref_b || (ref_b->family != ref_a->family && !across)) {
    if (!opt_.compare.empty())
      message_ = "variant B '" + b + "' is not in " + ref_a->family->info.name + "; comparing with the next variant";
    ref_b = NextInFamily(*ref_a);
  }
  pane_[0].variant = *ref_a;
  pane_[1].variant = *ref_b;
  n_ = opt_.n;
  pb_.block = uint32_t(std::max(opt_.block, 0));
  pb_.warp = uint32_t(std::max(opt_.warp, 0));
  pb_.whole_block = opt_.whole_block;
  focus_ = opt_.focus == "B" && compare_on_ ? 1 : 0;
  cuda_ = kernels::CudaAvailable(&cuda_why_);
}

// GLFW's start, connecting to the display. A display that is named (DISPLAY set) but refuses the
// connection is tried again for about a second: an X server under heavy load now and then refuses
// a client while it is busy, and a lecturer's double-click should not fail for it.
bool Gui::OpenDisplay() {
  const char* display = std::getenv("DISPLAY");
  const int tries = display && *display ? 5 : 1;
  const GLFWerrorfun report = glfwSetErrorCallback(nullptr);
  for (int i = 0; i < tries; ++i) {
    if (i) std::this_thread::sleep_for(std::chrono::milliseconds(250));
    if (i == tries - 1) glfwSetErrorCallback(report);  // the last try says why it failed
    if (glfwInit()) {
      glfwSetErrorCallback(report);
      return true;
    }
  }
  return false;
}

bool Gui::InitWindow() {
  glfwSetErrorCallback([](int code, const char* what) { std::cerr << "warpscope: GLFW error " << code << ": " << what << "\n"; });
  if (!OpenDisplay()) {
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
    w = 1600;
    h = 1000;
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
  {
    std::lock_guard lock(wake_mutex_);
    wake_ok_ = true;
  }
  glfwSwapInterval(opt_.benchmark_frames || !opt_.screenshot.empty() || !opt_.gif.empty() ? 0 : 1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  // Scripted runs must not depend on where the pointer happens to be (Xvfb puts it mid-screen).
  if (!opt_.screenshot.empty() || !opt_.gif.empty() || opt_.benchmark_frames) ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;
  WatchInput();  // before the backend, which chains the callbacks installed before it
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  const char* renderer = std::getenv("WARPSCOPE_RENDERER");
  runs_renderer_ = !(renderer && std::string(renderer) == "imgui") && renderer_.Init();
  if (opt_.fullscreen) ToggleFullscreen();
  return true;
}

void Gui::MarkInput(GLFWwindow* w) {
  if (auto* g = static_cast<Gui*>(glfwGetWindowUserPointer(w))) g->last_input_ = Clock::now();
}

void Gui::WatchInput() {
  glfwSetWindowUserPointer(window_, this);
  last_input_ = Clock::now();
  glfwSetCursorPosCallback(window_, [](GLFWwindow* w, double, double) { MarkInput(w); });
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int, int, int) { MarkInput(w); });
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double) { MarkInput(w); });
  glfwSetKeyCallback(window_, [](GLFWwindow* w, int, int, int, int) { MarkInput(w); });
  glfwSetCharCallback(window_, [](GLFWwindow* w, unsigned int) { MarkInput(w); });
  glfwSetWindowFocusCallback(window_, [](GLFWwindow* w, int) { MarkInput(w); });
  glfwSetCursorEnterCallback(window_, [](GLFWwindow* w, int) { MarkInput(w); });
  glfwSetWindowRefreshCallback(window_, [](GLFWwindow* w) { MarkInput(w); });
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) { MarkInput(w); });
}

void Gui::WakeOnResult() {
  std::lock_guard lock(wake_mutex_);
  if (wake_ok_) glfwPostEmptyEvent();  // the one GLFW call any thread may make
}

// Full screen on the primary monitor, or back to the window's last place and size.
void Gui::ToggleFullscreen() {
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
  // The cost badge: the largest text on screen, read from the back of the hall.
  badge_ = std::filesystem::exists(dir + "DejaVuSans-Bold.ttf")
               ? io.Fonts->AddFontFromFileTTF((dir + "DejaVuSans-Bold.ttf").c_str(), 24.0f * scale_, &cfg, ranges)
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
  const auto& ref = p.variant;
  int n = n_ ? n_ : ref.TeachingN();
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
  worker_.Submit({p.name == "A" ? 0 : 1, ++p.generation, p.Id(), n, pb_.block, !opt_.no_caches});
}

void Gui::PollWorker() {
  for (auto& r : worker_.Poll()) {
    Pane& p = pane_[r.job.pane];
    if (r.job.generation != p.generation) continue;
    p.loading = false;
    if (r.cancelled) {
      message_ = p.name + ": simulation of " + r.job.variant + " at n=" + std::to_string(r.job.n) + " cancelled" +
                 (p.outcome ? "; the previous picture stays" : "");
      continue;
    }
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
    p.flow = FlowOf(p);
    RebuildFrame(p, pb_);
    if (p.saved != Clock::time_point{}) {
      // Save-to-picture: from the save noticed to the new simulation on screen (docs/PERFORMANCE.md).
      char buf[96];
      std::snprintf(buf, sizeof buf, "; new picture %.2f s after the save",
                    std::chrono::duration<double>(Clock::now() - p.saved).count());
      message_ += buf;
      std::cerr << "warpscope: " << p.name << ": " << p.Id() << buf + 1 << "\n";
      p.saved = {};
      ++reloads_;
    }
  }
}

void Gui::PollFiles() {
  std::vector<std::string> shown;
  for (int i = 0; i < 2; ++i)
    if (pane_[i].variant.family && pane_[i].variant.family->from_file && (i == 0 || Compare()))
      shown.push_back(pane_[i].variant.family->info.name);
  files_.Watch(shown);
  for (auto& e : files_.Poll()) {
    const auto asked = opening_.find(e.file);
    const int open_pane = asked != opening_.end() ? asked->second : -1;
    if (asked != opening_.end()) opening_.erase(asked);
    if (!e.family) {
      file_problems_[e.file] = {e.diagnostics, e.text};
      message_ = e.message;
      std::cerr << "warpscope: " << e.message << "\n";
      continue;
    }
    file_problems_.erase(e.file);
    message_ = e.message;
    if (open_pane >= 0) {  // "open file": show its first kernel
      const kernels::VariantRef first{e.family, &e.family->info.variants.front()};
      if (open_pane == 1) {
        compare_on_ = true;
        pane_[1].variant = first;
        pane_[1].step = pane_[0].step;
        Request(pane_[1]);
      } else {
        ShowVariant(0, first, true);
        if (e.family->info.variants.size() > 1) {
          pane_[1].variant = NextInFamily(first);
          pane_[1].step = 0;
          if (Compare()) Request(pane_[1]);
        } else {
          compare_on_ = false;
          focus_ = 0;
        }
      }
      continue;
    }
    // A save: every pane showing the file gets the new build, at the same kernel, step and size.
    for (int i = 0; i < 2; ++i) {
      Pane& p = pane_[i];
      if (!p.variant.family || !p.variant.family->from_file || p.variant.family->info.name != e.file) continue;
      const auto& vs = e.family->info.variants;
      auto it = std::find_if(vs.begin(), vs.end(), [&](const kernels::VariantInfo& v) { return v.name == p.variant.variant->name; });
      p.variant = {e.family, it != vs.end() ? &*it : &vs.front()};
      p.saved = e.change_seen;
      if (i == 0 || Compare()) Request(p);
    }
  }
}


bool Gui::Loaded() const {
  if (pane_[0].loading || !pane_[0].outcome) return false;
  if (Compare() && (pane_[1].loading || !pane_[1].outcome)) return false;
  return true;
}

// Steps: in lockstep both panes move by the same number of steps; otherwise the focused pane
// moves and the other follows by source role or stays (FollowFocused).
void Gui::StepAll(int delta) {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    Pane& p = pane_[i];
    if (follow_ != visual::Follow::Lockstep && &p != &Focused()) continue;
    p.step = std::clamp(p.step + delta, 0, std::max(int(p.steps.size()) - 1, 0));
    RebuildFrame(p, pb_);
  }
  FollowFocused();
}

void Gui::SetStepAll(int step) {
  for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
    if (follow_ != visual::Follow::Lockstep && i != focus_) continue;
    pane_[i].step = step;
    RebuildFrame(pane_[i], pb_);
  }
  FollowFocused();
}

// By source role: the other pane shows the instruction with the focused one's role.
void Gui::FollowFocused() {
  if (!Compare() || follow_ != visual::Follow::Role) return;
  Pane& f = Focused();
  Pane& o = pane_[1 - focus_];
  if (!f.outcome || !o.outcome) return;
  o.step = visual::RoleStep(f.outcome->trace, f.steps, f.step, o.outcome->trace, o.steps, o.step);
  RebuildFrame(o, pb_);
}

// ↑/↓: the focused pane moves to the same line one iteration on; in lockstep the other pane
// follows to the same iteration and the same position within it.
void Gui::IterationAll(int dir) {
  Pane& f = Focused();
  if (!f.outcome || f.steps.empty()) return;
  f.step = visual::IterationStep(f.outcome->trace, f.steps, f.step, dir);
  RebuildFrame(f, pb_);
  if (!Compare() || follow_ == visual::Follow::Alone) return;
  if (follow_ == visual::Follow::Role) return FollowFocused();
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
    base_scale_ = std::min(base_scale_ + 0.25f, kMaxScale);
    UpdateScale();
  }
  if (io.KeyCtrl && (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))) {
    base_scale_ = std::max(base_scale_ - 0.25f, kMinScale);
    UpdateScale();
  }
  if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) Do(Action::Help);
  if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) help_ = false;
  if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) ToggleFullscreen();
  if (io.WantTextInput) return;
  // Keys that repeat while held step; the others act once per press.
  const struct {
    int key;
    bool repeat;
    Action action;
  } keys[] = {{GLFW_KEY_SPACE, false, Action::PlayPause},     {GLFW_KEY_RIGHT, true, Action::Next},
              {GLFW_KEY_LEFT, true, Action::Previous},        {GLFW_KEY_HOME, true, Action::First},
              {GLFW_KEY_UP, true, Action::NextIteration},     {GLFW_KEY_DOWN, true, Action::PreviousIteration},
              {GLFW_KEY_TAB, false, Action::SwitchFocus},     {GLFW_KEY_P, false, Action::Present},
              {GLFW_KEY_L, false, Action::Follow}};
  for (const auto& k : keys)
    if (ImGui::IsKeyPressed(k.key, k.repeat)) Do(k.action);
}

void Gui::Do(Action a) {
  switch (a) {
    case Action::PlayPause: pb_.playing = !pb_.playing; break;
    case Action::Next: StepAll(+1); break;
    case Action::Previous: StepAll(-1); break;
    case Action::First: SetStepAll(0); break;
    case Action::NextIteration: IterationAll(+1); break;
    case Action::PreviousIteration: IterationAll(-1); break;
    case Action::SwitchFocus:
      if (Compare()) focus_ = 1 - focus_;
      break;
    case Action::Help: help_ = !help_; break;
    case Action::Present:
      present_ = !present_;
      UpdateScale();
      break;
    case Action::Follow:
      follow_ = visual::Follow((int(follow_) + 1) % 3);
      FollowFocused();
      break;
      case Action::RunOnGpu: StartGpuTimings(); break;
  }
}

void Gui::StartGpuTimings() {
  if (!cuda_) {
    message_ = "no GPU to time on: " + cuda_why_;
    return;
  }
  if (!gpu_) gpu_ = std::make_unique<kernels::GpuRunner>();
  if (timing_n_ == 0) timing_n_ = pane_[0].variant.family->info.timing_n;
  std::vector<std::string> ids;
  const auto* fam = pane_[0].variant.family;
  for (const auto& v : fam->info.variants) ids.push_back(fam->info.name + "/" + v.name);
  gpu_->Start(ids, timing_n_, 7);
  timings_.running = true;  // until the first poll says otherwise
}

// Presenter mode draws larger than the chosen scale, as far as the window's height allows (a
// 720-line projector at scale 2 is already as large as the views can bear).
void Gui::UpdateScale() {
  int w = 0, h = 0;
  if (window_) glfwGetWindowSize(window_, &w, &h);
  const float room = h > 0 ? float(h) / 450.0f : base_scale_;
  const float s = present_ ? std::clamp(std::min(base_scale_ * kPresentZoom, room), base_scale_, kMaxScale) : base_scale_;
  if (s != scale_) fonts_dirty_ = true;
  scale_ = s;
}

void Gui::ShowVariant(int index, const kernels::VariantRef& v, bool teaching_size) {
  Pane& p = pane_[index];
  p.variant = v;
  p.step = 0;
  if (teaching_size) n_ = 0;
  Request(p);
}

void Gui::Close() { glfwSetWindowShouldClose(window_, 1); }

// ---- timings ----

namespace {
visual::TimingRow RowOf(const kernels::Timing& t) {
  return {t.variant, t.ms_median, t.ms_min, t.ms_max, t.rate, t.rate_unit, t.pct_of_peak, t.peak_name,
          t.peak_meaning, t.speedup, t.n, t.error};
}
}  // namespace

void Gui::PollTimings() {
  const std::string& family = pane_[0].variant.family->info.name;
  if (gpu_) {
    const auto st = gpu_->Poll();
    timings_.running = st.running;
    timings_.progress = st.progress;
    timings_.status = st.running ? st.message : st.report.device.empty() ? st.message : "measured now on " + st.report.device;
    timings_.status_detail.clear();
    timings_.rows.clear();
    for (const auto& t : st.report.timings)
      if (FamilyOf(t.variant) == family) timings_.rows.push_back(RowOf(t));
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
  // One line on screen; the driver's reason and the files' problems in its tooltip.
  const std::string head = cuda_ ? "Press \"run on GPU\" to time this family" : "No GPU";
  timings_.status_detail = cuda_ ? "" : cuda_why_;
  for (const auto& why : problems) timings_.status_detail += (timings_.status_detail.empty() ? "" : "\n") + why;
  if (!rec) {
    timings_.status = head + " \xe2\x80\x94 no recorded results for " + family;
    return;
  }
  timings_.status = head + " \xe2\x80\x94 results recorded on " + rec->device + (rec->date.empty() ? "" : ", " + rec->date);
  if (!rec->command.empty())
    timings_.status_detail += (timings_.status_detail.empty() ? "" : "\n") + std::string("recorded with: ") + rec->command;
  for (const auto& t : rec->timings) timings_.rows.push_back(RowOf(t));
}

visual::MemoryFlow Gui::FlowOf(const Pane& p) const {
  auto f = visual::FlowFromCounters(p.Id(), p.outcome->trace.total, !p.outcome->trace.caches.device.empty());
  if (!f.cache_source.empty()) return f;
  for (const auto& rec : ncu_) {
    const auto* run = rec.Find(p.Id(), p.n);
    if (!run) continue;
    auto get = [&](const char* name) -> std::optional<double> {
      auto it = run->metrics.find(name);
      return it == run->metrics.end() ? std::nullopt : std::optional<double>(it->second);
    };
    f.l1_hit_pct = get("l1tex__t_sector_hit_rate.pct");
    f.l2_read_sectors = get("lts__t_sectors_srcunit_tex_op_read.sum");
    f.dram_read_bytes = get("dram__bytes_read.sum");
    f.dram_write_bytes = get("dram__bytes_write.sum");
    f.cache_source = "measured by Nsight Compute on " + rec.device + " at n=" + std::to_string(p.n);
    break;
  }
  return f;
}

// ---- layout of one frame ----

namespace {

// Puts the next item of `w` pixels on this row if it fits, otherwise on a new one, so that the
// toolbar wraps instead of clipping at large scales.
void FlowNext(float w) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SameLine();
  if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
}

// Width of a framed widget with a label to its right.
float LabelledWidth(float field_w, const char* label) {
  return field_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

}  // namespace

void Gui::DrawOpenFile() {
  const ImGuiStyle& style = ImGui::GetStyle();
  FlowNext(ImGui::CalcTextSize("open file\xe2\x80\xa6").x + style.FramePadding.x * 2);
  if (ImGui::Button("open file\xe2\x80\xa6##pick")) ImGui::OpenPopup("open##file");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Your own kernel file (warpscope new my_kernel.cu writes one): compiled now and again on every save.");
  if (ImGui::BeginPopup("open##file")) {
    ImGui::TextUnformatted("A kernel file in the dialect, with WS_KERNEL descriptions:");
    ImGui::SetNextItemWidth(420 * scale_);
    const bool enter = ImGui::InputText("##path", open_path_, sizeof open_path_, ImGuiInputTextFlags_EnterReturnsTrue);
    int pane = enter ? 0 : -1;
    if (ImGui::Button("open as A")) pane = 0;
    ImGui::SameLine();
    if (ImGui::Button("open as B (compare)")) pane = 1;
    if (pane >= 0 && open_path_[0]) {
      const std::string key = kernels::KernelFileKey(open_path_);
      opening_[key] = pane;
      files_.Load(key);
      message_ = "compiling " + std::string(open_path_) + "\xe2\x80\xa6";
      ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
  }
}

void Gui::DrawPicker() {
  const auto& catalog = kernels::Catalog();
  const kernels::FamilyEntry* fam = pane_[0].variant.family;
  const std::string& family = fam->info.name;
  const std::string family_label = fam->from_file ? fam->info.title : family;
  ImGui::AlignTextToFramePadding();
  if (big_) ImGui::PushFont(big_);
  ImGui::TextUnformatted("warpscope");
  if (big_) ImGui::PopFont();
  const float family_w = 140 * scale_, variant_w = 130 * scale_, n_w = 100 * scale_;
  FlowNext(LabelledWidth(family_w, "family"));
  ImGui::SetNextItemWidth(family_w);
  if (ImGui::BeginCombo("family##pick", family_label.c_str())) {
    for (size_t i = 0; i < catalog.size(); ++i) {
      ImGui::PushID(int(i));
      const auto& f = catalog[i].info;
      if (ImGui::Selectable(f.name.c_str(), f.name == family) && f.name != family && !f.variants.empty()) {
        const kernels::VariantRef first{&catalog[i], &f.variants[0]};
        ShowVariant(0, first, true);
        pane_[1].variant = NextInFamily(first);
        pane_[1].step = 0;
        if (Compare()) Request(pane_[1]);
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", f.title.c_str());
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n\n%s", fam->info.title.c_str(), fam->info.story.c_str());
  DrawOpenFile();
  auto variant_combo = [&](int index, const char* label) {
    const Pane& p = pane_[index];
    ImGui::SetNextItemWidth(variant_w);
    if (ImGui::BeginCombo(label, p.variant.variant->name.c_str())) {
      for (size_t i = 0; i < fam->info.variants.size(); ++i) {
        ImGui::PushID(int(i));
        const auto& v = fam->info.variants[i];
        const bool current = &v == p.variant.variant;
        if (ImGui::Selectable(v.name.c_str(), current) && !current) ShowVariant(index, {fam, &v}, false);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", v.title.c_str(), v.description.c_str());
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
  };
  FlowNext(LabelledWidth(variant_w, "A"));
  variant_combo(0, "A##pick");
  FlowNext(LabelledWidth(ImGui::GetFrameHeight(), "compare") + (Compare() ? ImGui::GetStyle().ItemSpacing.x + LabelledWidth(variant_w, "B") : 0));
  if (ImGui::Checkbox("compare##pick", &compare_on_)) {
    if (compare_on_) {
      pane_[1].step = pane_[0].step;
      Request(pane_[1]);
    } else {
      focus_ = 0;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show variant B beside A; L chooses how B follows A's steps.");
  if (Compare()) {
    ImGui::SameLine();
    variant_combo(1, "B##pick");
  }
  FlowNext(LabelledWidth(n_w, "n"));
  ImGui::SetNextItemWidth(n_w);
  ImGui::InputInt("n##pick", &n_edit_, 0, 0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Problem size for the pictures: %s (teaching size %d, simulator limit %d). Enter applies.",
                      fam->info.size_meaning.c_str(), fam->info.teaching_n, fam->info.max_sim_n);
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    n_ = n_edit_;
    Request(pane_[0]);
    if (Compare()) Request(pane_[1]);
  }
  // Rarely used settings live in a menu.
  if (timing_n_ == 0) timing_n_ = fam->info.timing_n;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float more_w = ImGui::CalcTextSize("more\xe2\x80\xa6").x + style.FramePadding.x * 2;
  const float help_w = ImGui::CalcTextSize("help (F1)").x + style.FramePadding.x * 2;
  FlowNext(more_w + style.ItemSpacing.x + help_w);
  if (ImGui::Button("more\xe2\x80\xa6##pick")) ImGui::OpenPopup("more##pick");
  if (ImGui::BeginPopup("more##pick")) {
    ImGui::SetNextItemWidth(n_w);
    ImGui::InputInt("timing n##pick", &timing_n_, 0, 0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Size for GPU timings (family default %d).", fam->info.timing_n);
    timing_n_ = std::clamp(timing_n_, 1, 1 << 20);
    ImGui::Text("UI scale %.2g (Ctrl+= / Ctrl+-)", base_scale_);
    if (ImGui::MenuItem("presenter mode", "P", present_)) Do(Action::Present);
    if (ImGui::MenuItem("full screen", "F11", fullscreen_)) ToggleFullscreen();
    ImGui::EndPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("help (F1)##pick")) help_ = !help_;
  FlowNext(ImGui::CalcTextSize("exporting...").x + style.FramePadding.x * 2);
  export_.DrawButton(*this, scale_);
  if (!message_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.9f, 0.62f, 0.0f, 1));
    ImGui::TextWrapped("%s", message_.c_str());
    ImGui::PopStyleColor();
    FlowNext(ImGui::CalcTextSize("dismiss").x + style.FramePadding.x * 2);
    if (ImGui::SmallButton("dismiss##msg")) message_.clear();
  } else if (ImGui::GetIO().DisplaySize.y > 32 * ImGui::GetTextLineHeightWithSpacing()) {
    // The family's story where there is room for it; otherwise it is the family box's tooltip.
    ImGui::PushStyleColor(ImGuiCol_Text, style.Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", fam->info.story.c_str());
    ImGui::PopStyleColor();
  }
}

void Gui::DrawPane(Pane& p, float width, float height) {
  ImGui::PushID(p.name.c_str());
  const bool focused = &p == &Focused();
  ImGui::PushStyleColor(ImGuiCol_Border, focused && Compare() ? ImVec4(0.94f, 0.89f, 0.26f, 1) : ImGui::GetStyle().Colors[ImGuiCol_Border]);
  // The views fill the pane; a pane too short for its badge, lanes and one row of cells scrolls
  // rather than hides them (from the frame after they ran past its bottom edge).
  ImGui::BeginChild("pane", ImVec2(width, height), true,
                    p.overflowed ? 0 : ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleColor();
  const kernels::VariantInfo& info = *p.variant.variant;
  // A short pane (a 720-line projector at a large scale) keeps its height for the picture: the
  // title and the notes take one line each, the rest in their tooltips.
  const bool short_pane = height < 18 * ImGui::GetTextLineHeightWithSpacing();
  // The family is in the toolbar; the title names the pane and the variant, and wraps.
  const std::string full_title = p.name + ": " + info.title;
  // The pane's view settings sit in a menu at the title's right (hidden in presenter mode).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float menu_w = present_ ? 0 : ImGui::CalcTextSize("view\xe2\x80\xa6").x + style.FramePadding.x * 2;
  const float title_x = ImGui::GetCursorPosX();
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float title_w = right - title_x - (menu_w > 0 ? menu_w + style.ItemSpacing.x : 0);
  // The large font where the title fits on one line; otherwise the body font, wrapped.
  ImFont* title_font = big_ && big_->CalcTextSizeA(big_->FontSize, FLT_MAX, 0, full_title.c_str()).x <= title_w ? big_ : nullptr;
  const std::string title = title_font || !short_pane ? full_title : visual::Ellipsize(full_title, title_w);
  if (title_font) ImGui::PushFont(title_font);
  ImGui::PushTextWrapPos(title_x + title_w);
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopTextWrapPos();
  if (title_font) ImGui::PopFont();
  const bool title_hovered = ImGui::IsItemHovered();
  if (!present_) {
    const float after_title_y = ImGui::GetCursorPosY();
    ImGui::SameLine(std::max(right - menu_w, title_x));
    if (ImGui::SmallButton("view\xe2\x80\xa6##pane")) ImGui::OpenPopup("view##pane");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Zoom, trail and lane addresses for this pane");
    if (ImGui::BeginPopup("view##pane")) {
      ImGui::SetNextItemWidth(160 * scale_);
      ImGui::SliderFloat("zoom##view", &p.grid.zoom, 1.0f, 16.0f, "%.1fx");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Magnify the grids; scroll to move around.");
      ImGui::SetNextItemWidth(160 * scale_);
      ImGui::SliderInt("trail##view", &p.grid.trail_steps, 0, 8);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("How many earlier steps of this warp stay lit, fading.");
      ImGui::Checkbox("lane addresses##view", &p.lanes.show_addresses);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("List every lane's element and address under the lanes.");
      ImGui::EndPopup();
    }
    ImGui::SetCursorPosY(std::max(after_title_y, ImGui::GetCursorPosY()));
  }
  if (title_hovered) {
    if (p.outcome) {
      const auto& sh = p.outcome->trace.shape;
      ImGui::SetTooltip("%s\n%s at n=%d: grid %u\xc3\x97%u blocks of %u\xc3\x97%u threads; output %s.\n\n%s%s%s", full_title.c_str(),
                        p.Id().c_str(), p.n, sh.grid.x, sh.grid.y, sh.block.x, sh.block.y,
                        p.outcome->check.passed ? "matches the CPU reference" : "DIFFERS from the CPU reference",
                        info.description.c_str(), info.on_hardware.empty() ? "" : "\n\nOn the GPU: ", info.on_hardware.c_str());
    } else {
      ImGui::SetTooltip("%s\n%s\n\n%s", full_title.c_str(), p.Id().c_str(), info.description.c_str());
    }
  }
  // The cost of the current instruction comes first: it carries the lesson.
  if (p.outcome && !p.steps.empty()) p.lanes.DrawCost(p.frame, scale_, &placed_, badge_ ? badge_ : big_);
  if (p.loading) {
    // Large sizes take seconds: say how far the simulation is and let the lecturer stop it.
    const SimProgress pr = worker_.Progress(p.name == "A" ? 0 : 1);
    const float frac = pr.blocks_total ? float(double(pr.blocks_done) / double(pr.blocks_total)) : 0.0f;
    const std::string label = pr.blocks_total ? "simulating n=" + std::to_string(p.n) + ": block " +
                                                    std::to_string(pr.blocks_done) + " of " + std::to_string(pr.blocks_total)
                                              : "simulating n=" + std::to_string(p.n) + " ...";
    ImGui::ProgressBar(frac, ImVec2(std::max(ImGui::GetContentRegionAvail().x - 90 * scale_, 60 * scale_), 0), label.c_str());
    ImGui::SameLine();
    if (ImGui::Button("cancel##load")) worker_.Cancel(p.name == "A" ? 0 : 1);
  }
  if (!p.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.3f, 1));
    ImGui::TextWrapped("%s", p.error.c_str());
    ImGui::PopStyleColor();
  }
  if (p.outcome) {
    const auto& t = p.outcome->trace;
    // The launch shape is in the title's tooltip; what must not be missed is said here.
    if (!p.outcome->check.passed || t.truncated) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.90f, 0.62f, 0.0f, 1));
      ImGui::TextWrapped("%s%s%s", p.outcome->check.passed ? "" : "output DIFFERS from the CPU reference",
                         !p.outcome->check.passed && t.truncated ? "; " : "", t.truncated ? "trace truncated" : "");
      ImGui::PopStyleColor();
    }
    if (p.steps.empty()) ImGui::TextDisabled("warp %u of block %u issues no memory instruction", pb_.warp, pb_.block);
    // A short pane keeps room for the picture (a label and three rows of legible cells, and the
    // banks' header where the kernel uses shared memory): the lane strip loses its numbers and
    // the GPU's note goes to the title's tooltip.
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const float picture_min = line_h + 3 * visual::LegibleCell(scale_) + (p.HasShared() ? 3 * line_h : 0.0f);
    const float lanes_h = ImGui::GetTextLineHeight() + 24.0f * scale_ + style.ItemSpacing.y;
    p.lanes.Draw(p.frame, scale_, &placed_, ImGui::GetContentRegionAvail().y < lanes_h + picture_min);
    if (!info.on_hardware.empty() && !present_ && (!short_pane || ImGui::GetContentRegionAvail().y >= line_h + picture_min)) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.90f, 0.62f, 0.0f, 1));  // Okabe-Ito orange
      const std::string note = "On the GPU: " + info.on_hardware;
      // The note is a footnote to the picture: wrapped whole only in a pane tall enough that its
      // lines do not take the rows a warp's footprint needs (24 lines); else one line and a tooltip.
      if (short_pane || height < 24 * line_h) {
        ImGui::TextUnformatted(visual::Ellipsize(note, ImGui::GetContentRegionAvail().x).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", note.c_str());
      } else {
        ImGui::TextWrapped("%s", note.c_str());
      }
      ImGui::PopStyleColor();
    }
    const float rest = ImGui::GetContentRegionAvail().y;
    const bool shared = p.HasShared();
    const float banks_h = shared ? std::clamp(rest * 0.36f, std::min(90.0f * scale_, rest * 0.45f), 260.0f * scale_) : 0.0f;
    p.grid.Draw(p.frame, rest - banks_h, scale_, &placed_, Compare() ? &grid_plan_ : nullptr);
    if (shared) p.banks.Draw(p.frame, banks_h, scale_, &placed_);
  }
  // What is seen of the pane ends half a padding above its bottom edge.
  const float content_bottom = ImGui::GetCursorScreenPos().y - style.ItemSpacing.y + ImGui::GetScrollY();
  const float visible_bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - style.WindowPadding.y * 0.5f;
  p.overflowed = content_bottom > visible_bottom + 1.0f;
  // A pane that scrolls (a 720-line projector at scale 2) brings the array the step touches into
  // sight, its label and first row of cells, in the first frames of each step (its scroll range
  // follows the content a frame late); then the user may scroll away from it.
  if (p.in_sight_step != p.step) p.in_sight_step = p.step, p.in_sight_frames = 0;
  if (p.overflowed && p.outcome && p.in_sight_frames < 8) {
    ++p.in_sight_frames;
    const sim::WarpInstruction* ins = p.frame.Focus();
    const visual::Placed* grid = nullptr;
    if (ins && ins->array >= 0)
      for (const auto& pl : placed_)
        if (pl.pane == p.name && pl.kind == "grid" && pl.name == p.outcome->trace.arrays[size_t(ins->array)].name) grid = &pl;
    if (grid) {
      const float top = ImGui::GetWindowPos().y + style.WindowPadding.y * 0.5f;
      const float below = grid->rect.y + std::min(grid->rect.h, grid->cell) - visible_bottom;
      const float above = top - (grid->rect.y - ImGui::GetTextLineHeightWithSpacing());
      // Down to its first row of cells, but not past its label; else up to its label.
      const float delta = below > 0.5f ? std::min(below, -above) : above > 0.5f ? -above : 0.0f;
      if (std::abs(delta) > 0.5f) ImGui::SetScrollY(std::max(ImGui::GetScrollY() + delta, 0.0f));
    }
  }
  ImGui::EndChild();
  p.rect = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x, ImGui::GetItemRectSize().y};
  if (ImGui::IsItemClicked() && Compare()) focus_ = p.name == "A" ? 0 : 1;
  ImGui::PopID();
}

void Gui::DrawHelp() {
  if (!help_) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(io.DisplaySize.x * 0.92f, 1400 * scale_), io.DisplaySize.y * 0.85f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.96f);
  if (ImGui::Begin("Keys and words (F1 closes)##help", &help_, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize)) {
    const char* rows[][2] = {{"Space", "play / pause"},
                             {"Right / Left", "next / previous warp instruction"},
                             {"Up / Down", "same source line, next / previous loop iteration"},
                             {"Home", "first instruction"},
                             {"Tab", "switch focus between A and B (the focused pane leads)"},
                             {"L", "how B follows A: in lockstep, by source role, or alone"},
                             {"P", "presenter mode: the two memory views alone, large"},
                             {"F11", "full screen"},
                             {"Ctrl+= / Ctrl+-", "larger / smaller UI"},
                             {"F1", "this help"}};
    if (ImGui::BeginTable("help##layout", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthStretch, 0.42f);
      ImGui::TableSetupColumn("words", ImGuiTableColumnFlags_WidthStretch, 0.58f);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (big_) ImGui::PushFont(big_);
      ImGui::TextUnformatted("Keys");
      if (big_) ImGui::PopFont();
      if (ImGui::BeginTable("keys##help", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
        for (auto& r : rows) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(r[0]);
          ImGui::TableNextColumn();
          ImGui::TextWrapped("%s", r[1]);
        }
        ImGui::EndTable();
      }
      ImGui::Spacing();
      ImGui::TextWrapped("Click a block in the grid map and a warp in the block map to choose the warp. "
                         "Hover a cell, a lane, a bank, a source line, a counter or the legend for what it means.");
      ImGui::TableNextColumn();
      if (big_) ImGui::PushFont(big_);
      ImGui::TextUnformatted("Words");
      if (big_) ImGui::PopFont();
      visual::DrawGlossary(ImGui::GetContentRegionAvail().x);
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

void Gui::GoToFault(Pane& p, const sim::Finding& f) {
  const auto& t = p.outcome->trace;
  const auto& sh = t.shape;
  pb_.block = f.block.x + f.block.y * sh.grid.x + f.block.z * sh.grid.x * sh.grid.y;
  pb_.warp = (f.thread.x + f.thread.y * sh.block.x + f.thread.z * sh.block.x * sh.block.y) / 32;
  Reselect();
  // Same block: jump to the faulting line now.
  for (int s = 0; s < int(p.steps.size()); ++s)
    if (int(t.instructions[p.steps[s]].site) == f.site) {
      p.step = s;
      RebuildFrame(p, pb_);
      break;
    }
}

// Presenter mode's one line at the bottom: where we are and how B follows.
void Gui::DrawStatusLine() {
  const Pane& f = Focused();
  std::string s = "step " + std::to_string(f.steps.empty() ? 0 : f.step + 1) + " of " + std::to_string(f.steps.size()) +
                   " \xc2\xb7 block " + std::to_string(pb_.block) + ", warp " + std::to_string(pb_.warp) +
                   (pb_.whole_block ? " (whole block)" : "");
  if (Compare())
    s += std::string(" \xc2\xb7 ") + (focus_ ? "A" : "B") + " follows " + (focus_ ? "B" : "A") + " " +
         visual::ToString(follow_) + " (L)";
  s += " \xc2\xb7 P leaves presenter mode";
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", s.c_str());
  ImGui::PopStyleColor();
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
    if (!present_) DrawPicker();
    // A fault the simulator found: what, and where when the finding has a place.
    for (int i = 0; i < (Compare() ? 2 : 1); ++i) {
      Pane& p = pane_[i];
      const sim::Finding* f = FirstError(p);
      if (f && p.fault.Draw(p.name, p.outcome->trace, *f, scale_)) GoToFault(p, *f);
    }

    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float legend_h = visual::LegendView::Height(avail.x, scale_);
    // Presenter mode: one status line at the bottom; otherwise the timeline bar.
    const float bottom_h = present_ ? ImGui::GetTextLineHeightWithSpacing() * 2
                                    : visual::TimelineView::Height(Compare(), scale_);
    const float body_h = avail.y - legend_h - bottom_h - style.ItemSpacing.y * 2;
    const float spacing = style.ItemSpacing.x;
    // The source and the timings beside the panes, unless the window is less than 700 px wide at
    // scale 1 (1280 px at scale 2): the panes then take the width, as in presenter mode.
    const bool side = !present_ && avail.x >= 700.0f * scale_;
    const float right_w = side ? std::clamp(avail.x * 0.28f, 200.0f * scale_, avail.x * 0.4f) : 0.0f;
    const float left_w = side ? avail.x - right_w - spacing : avail.x;
    if (Compare()) {
      DrawPane(pane_[0], (left_w - spacing) * 0.5f, body_h);
      ImGui::SameLine();
      DrawPane(pane_[1], (left_w - spacing) * 0.5f, body_h);
    } else {
      DrawPane(pane_[0], left_w, body_h);
    }
    Pane& f = Focused();
    if (side) {
      ImGui::SameLine();
      ImGui::BeginChild("side##root", ImVec2(right_w, body_h), false);
      // The memory chart (four levels and three arrows) and the L1 view are tall: the source view
      // gives them room.
      const float source_h = body_h * (chart_shown_ ? 0.3f : 0.5f);
      const std::string& path = f.variant.variant->source;
      const auto problem = file_problems_.find(path);
      if (problem != file_problems_.end()) {
        std::vector<visual::SourceMark> marks;
        for (const auto& d : problem->second.diagnostics) marks.push_back({d.line, d.severity + ": " + d.message});
        f.source.Draw(f.frame, path, problem->second.text, source_h, scale_, mono_, &marks);
      } else {
        f.source.Draw(f.frame, path, kernels::KernelSource(path), source_h, scale_, mono_);
      }
      ImGui::BeginChild("counters##side", ImVec2(0, 0), true);
      // Three tabs: the timings with the counters, the memory chart, and the L1 of the shown
      // block's SM (--side picks the first shown). The tabs' full names where they fit (a tab
      // bar's content is as wide as its tabs' names).
      const ImGuiStyle& st = ImGui::GetStyle();
      const float tabs_w = ImGui::CalcTextSize("timings & counters").x + ImGui::CalcTextSize("memory chart").x +
                           ImGui::CalcTextSize("L1 cache").x + 6 * st.FramePadding.x + 2 * st.ItemInnerSpacing.x;
      // Decided from the panel's width, which stays the same from frame to frame (the tab bar
      // lays out with the widths of the frame before), less the room a scrollbar may take.
      const bool long_tabs = tabs_w <= right_w - 2 * st.WindowPadding.x - 2 * st.WindowBorderSize - st.ScrollbarSize;
      if (ImGui::BeginTabBar("side##tabs")) {
        const ImGuiTabItemFlags pick_chart = side_tab_set_ || opt_.side != "chart" ? 0 : ImGuiTabItemFlags_SetSelected;
        const ImGuiTabItemFlags pick_l1 = side_tab_set_ || opt_.side != "l1" ? 0 : ImGuiTabItemFlags_SetSelected;
        if (ImGui::BeginTabItem(long_tabs ? "timings & counters###timings" : "timings###timings")) {
          const bool run = counters_.Draw(pane_[0].Id(), pane_[0].outcome ? &pane_[0].outcome->trace : nullptr,
                                          Compare() ? pane_[1].Id() : "",
                                          Compare() && pane_[1].outcome ? &pane_[1].outcome->trace : nullptr,
                                          timings_, cuda_, scale_);
          if (run) StartGpuTimings();
          ImGui::EndTabItem();
        }
        chart_shown_ = false;
        if (ImGui::BeginTabItem(long_tabs ? "memory chart###chart" : "chart###chart", nullptr, pick_chart)) {
          chart_shown_ = true;
          const Pane& pa = pane_[0];
          const Pane& pb = pane_[1];
          chart_.Draw(pa.outcome ? &pa.flow : nullptr, Compare() && pb.outcome ? &pb.flow : nullptr, scale_, &placed_);
          ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem(long_tabs ? "L1 cache###l1" : "L1###l1", nullptr, pick_l1)) {
          chart_shown_ = true;
          // A above B, each with half the height.
          const int shown = Compare() ? 2 : 1;
          const float each = (ImGui::GetContentRegionAvail().y - st.ItemSpacing.y * float(shown - 1)) / float(shown);
          for (int i = 0; i < shown; ++i)
            if (pane_[i].outcome) pane_[i].l1.Draw(pane_[i].frame, each, scale_, &placed_);
          ImGui::EndTabItem();
        }
        side_tab_set_ = true;
        ImGui::EndTabBar();
      }
      ImGui::EndChild();
      ImGui::EndChild();
    }

    legend_.Draw(scale_, &placed_);
    if (present_) {
      DrawStatusLine();
    } else {
      ImGui::BeginChild("timeline##root", ImVec2(0, bottom_h), true, ImGuiWindowFlags_NoScrollbar);
      pb_.step = f.step;
      pb_.steps = int(f.steps.size());
      pb_.compare = Compare();
      pb_.follow = follow_;
      pb_.leader = focus_ ? "B" : "A";
      const auto in = timeline_.Draw(f.outcome ? &f.outcome->trace : nullptr, pb_, scale_);
      if (in.step_changed) SetStepAll(pb_.step);
      if (in.iteration) IterationAll(in.iteration);
      if (in.selection_changed) Reselect();
      if (in.follow_changed) Do(Action::Follow);
      ImGui::EndChild();
    }
  }
  ImGui::End();
  DrawHelp();
}

// ---- main loop ----

constexpr double kLoadingFrameSeconds = 0.05;
constexpr double kIdleWaitSeconds = 0.25;

int Gui::Run() {
  if (!InitWindow()) return kFailed;
  Request(pane_[0]);
  if (Compare()) Request(pane_[1]);

  ScriptedRun script(opt_, start_);
  FrameBenchmark bench(opt_.benchmark_frames, start_);
  int rc = kOk;
  auto last = Clock::now();
  while (!glfwWindowShouldClose(window_)) {
    const auto t0 = Clock::now();
    glfwPollEvents();
    UpdateScale();  // the window may have been resized (presenter mode's scale follows its height)
    if (fonts_dirty_) LoadFonts();
    PollWorker();
    PollFiles();
    PollTimings();
    if (!script.BeforeFrame(*this)) {
      rc = kFailed;
      break;
    }

    // Playback.
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    if (bench.StepsEveryFrame(script.Applied())) {
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
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ApplyKeys();
    DrawFrame();
    ImGui::Render();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window_, &fw, &fh);
    glViewport(0, 0, fw, fh);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (runs_renderer_) renderer_.Render(ImGui::GetDrawData());
    else ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    export_.AfterRender(*this, fw, fh);
    if (!script.AfterFrame(*this, fw, fh)) rc = kFailed;
    glfwSwapBuffers(window_);
    glFinish();
    bench.AfterFrame(*this, t0, Clock::now(), script.Applied());
    // Frames only when something moves. While a pane loads or the GPU runs, a frame each 50 ms
    // shows the progress, so the cores go to the work (a software-rendered frame costs as much
    // CPU as a core can give). Idle (not playing, no scripted run or export, no input for half a
    // second), the window waits for an event, up to 250 ms (a kernel file saved, GPU results).
    // Input, and the worker's result, wake the loop at once.
    const bool loading = pane_[0].loading || (Compare() && pane_[1].loading) || timings_.running;
    const bool moving = (pb_.playing && Loaded()) || script.Active() || export_.Busy() ||
                        Clock::now() - last_input_ < std::chrono::milliseconds(500);
    if (loading) glfwWaitEventsTimeout(kLoadingFrameSeconds);
    else if (!moving) glfwWaitEventsTimeout(kIdleWaitSeconds);
  }

  if (!opt_.no_settings) {
    settings_.scale = base_scale_;
    settings_.variant = pane_[0].Id();
    settings_.compare = pane_[1].Id();
    settings_.compare_on = compare_on_;
    if (!fullscreen_) glfwGetWindowSize(window_, &settings_.width, &settings_.height);
    std::string why;
    if (!SaveSettings(settings_, SettingsPath(), &why)) std::cerr << "warpscope: " << why << "\n";
  }
  gpu_.reset();
  renderer_.Shutdown();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  {
    std::lock_guard lock(wake_mutex_);
    wake_ok_ = false;
  }
  glfwDestroyWindow(window_);
  glfwTerminate();
  return rc;
}

}  // namespace ws::app
