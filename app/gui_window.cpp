// The window: GLFW, the OpenGL context and Dear ImGui started and shut down, full screen, and the
// input that keeps the event loop drawing (see gui_app.h).
#include "app/gui_app.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

namespace ws::app {

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
  // --pointer holds it where the script says instead.
  if ((!opt_.screenshot.empty() || !opt_.gif.empty() || opt_.benchmark_frames) && opt_.pointer.empty())
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NoMouse;
  WatchInput();  // before the backend, which chains the callbacks installed before it
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  const char* renderer = std::getenv("WARPSCOPE_RENDERER");
  runs_renderer_ = !(renderer && std::string(renderer) == "imgui") && renderer_.Init();
  if (opt_.fullscreen) ToggleFullscreen();
  return true;
}

// The frame's draw data into the back buffer, cleared to the window colour first.
void Gui::RenderFrame(int fw, int fh) {
  glViewport(0, 0, fw, fh);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  if (runs_renderer_) renderer_.Render(ImGui::GetDrawData());
  else ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Gui::CloseWindow() {
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

}  // namespace ws::app
