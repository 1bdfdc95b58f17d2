// The desktop program with a kernel file open, under Xvfb: the file is saved with a syntax error
// (reported at its line, the last good build stays), then with a new access pattern, and the
// picture reloads in place at the same step with the new sectors. A file whose process dies is an
// error in the window, which stays. A file's title is whole in the family box.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace fs = std::filesystem;

namespace {

// Four reads x[(i * STRIDE + 32 r) % n] and one store per thread: five warp instructions.
std::string Sum4(int stride, bool broken = false) {
  return "// four strided reads\n"                                                       // 1
         "__global__ void sum4(Global<float> y, Global<const float> x, int n) {\n"       // 2
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                            // 3
         + std::string(broken ? "  float s = ;\n" : "  float s = 0.0f;\n") +             // 4
         "  for (int r = 0; r < 4; ++r)\n"                                               // 5
         "    if (i < n) s += x[(i * " + std::to_string(stride) + " + r * 32) % n];\n"   // 6
         "  if (i < n) y[i] = s;\n"                                                      // 7
         "}\n"
         "WS_KERNEL(sum4, .title = \"four strided reads\", .teaching_n = 1000) {\n"
         "  auto x = k.Input<const float>(\"x\", k.n);\n"
         "  auto y = k.Output<float>(\"y\", k.n);\n"
         "  k.Launch(dim3((k.n + 127) / 128), dim3(128), sum4, y, x, k.n);\n"
         "}\n";
}

void Write(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".new";
  std::ofstream(tmp, std::ios::binary) << text;
  fs::rename(tmp, p);  // as editors save: a new file under the old name
}

// A folder of the test's own under WARPSCOPE_TEST_OUT ("NAME-PID"), created where it is missing.
fs::path TestFolder(const std::string& name) {
  const fs::path dir = fs::path(WARPSCOPE_TEST_OUT) / (name + "-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

// `warpscope open FILE` in a 1280x720 window at `scale`, with `args` (what to write, when to quit).
std::string Open(const fs::path& file, const std::string& scale, const std::string& args) {
  return std::string(WARPSCOPE_BINARY) + " open " + file.string() + " --no-settings --size 1280x720 --scale " + scale +
         " " + args + " 2>&1";
}

// Runs `cmd` to its end: its output in *out, its status as pclose gives it (-1: it did not start).
int RunToEnd(const std::string& cmd, std::string* out) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char line[4096];
  while (fgets(line, sizeof line, p)) *out += line;
  return pclose(p);
}

bool ExitedZero(int status) { return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0; }

nlohmann::json Layout(const fs::path& layout) {
  std::ifstream in(layout);
  return nlohmann::json::parse(in);
}

std::vector<std::string> Texts(const fs::path& layout) {
  const nlohmann::json j = Layout(layout);
  std::vector<std::string> out;
  for (const auto& t : j["text"]) out.push_back(t["text"].get<std::string>());
  return out;
}

bool Has(const std::vector<std::string>& texts, const std::string& s) {
  for (const auto& t : texts)
    if (t.find(s) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(GuiReload, SavedFileReloadsInPlaceKeepingTheStepAndErrorsKeepTheLastGoodBuild) {
  const fs::path dir = TestFolder("reload");
  const fs::path file = dir / "sum4.cu", layout = dir / "layout.json", shot = dir / "shot.png";
  Write(file, Sum4(1));
  const std::string cmd = Open(file, "1", "--step 2 --wait-reload 120 --screenshot " + shot.string() + " --layout-out " +
                                              layout.string() + " --quit");
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char line[4096];
  bool waiting = false;
  while (!waiting && fgets(line, sizeof line, p)) {
    out += line;
    waiting = out.find("to be saved") != std::string::npos;
  }
  ASSERT_TRUE(waiting) << out;
  // A syntax error on line 4: reported there; nothing reloads.
  Write(file, Sum4(4, true));
  while (out.find("error") == std::string::npos && fgets(line, sizeof line, p)) out += line;
  EXPECT_NE(out.find("the first at line 4"), std::string::npos) << out;
  EXPECT_NE(out.find("showing the last good build"), std::string::npos) << out;
  // Stride 4: now the picture reloads.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a new modification time on coarse clocks
  Write(file, Sum4(4));
  while (fgets(line, sizeof line, p)) out += line;
  ASSERT_TRUE(ExitedZero(pclose(p))) << out;
  EXPECT_NE(out.find("new picture"), std::string::npos) << out;
  const auto texts = Texts(layout);
  // The step stays where it was (the third of five instructions), now with the new pattern:
  // warp 0's third read is x[4i + 64], floats 64..188 four apart: bytes 256..755, lines 2..5 and
  // sectors 8..23 — 4 lines, 16 sectors, where stride 1 read one line of 4 sectors.
  EXPECT_TRUE(Has(texts, "step 2 (0\xe2\x80\x93" "4)")) << out;  // counted from 0: steps 0 to 4
  EXPECT_TRUE(Has(texts, "16 sectors (ideal 4)")) << out;
  EXPECT_FALSE(Has(texts, "does not compile")) << out;
  fs::remove_all(dir);
}

// A file whose process dies (abort() in its description) is an error in the window, which stays:
// the scripted run takes its picture instead of waiting out its deadline, and exits 0.
TEST(GuiReload, AFileWhoseProcessDiesIsAnErrorInTheWindow) {
  const fs::path dir = TestFolder("dies");
  const fs::path file = dir / "sum4.cu", layout = dir / "layout.json", shot = dir / "shot.png";
  std::string text = Sum4(1);
  const std::string launch = "sum4, y, x, k.n);\n";
  text.insert(text.find(launch) + launch.size(), "  abort();\n");  // line 13
  Write(file, text);
  std::string out;
  const int status =
      RunToEnd(Open(file, "1", "--screenshot " + shot.string() + " --layout-out " + layout.string() + " --quit"), &out);
  ASSERT_TRUE(ExitedZero(status)) << out;
  EXPECT_TRUE(fs::exists(shot)) << out;
  const auto texts = Texts(layout);
  EXPECT_TRUE(Has(texts, "abort() was called at line 13")) << out;
  EXPECT_TRUE(Has(texts, "its process stopped")) << out;
  fs::remove_all(dir);
}

// The family box shows a file's title whole: .family_title "Strided copies, one stride a lesson"
// (35 characters) was cut to "Strided copies, o" by the box's 140 px of a catalog family name,
// at 1280x720 scale 1 and 2. (The box is as wide as its label now, within the toolbar's row.)
TEST(GuiReload, AFilesTitleIsWholeInTheFamilyBox) {
  const fs::path dir = TestFolder("title");
  const fs::path file = dir / "sum4.cu";
  const std::string title = "Strided copies, one stride a lesson";
  std::string text = Sum4(1);
  text.replace(text.find(".teaching_n = 1000)"), 19, ".teaching_n = 1000, .family_title = \"" + title + "\")");
  Write(file, text);
  for (const char* scale : {"1", "2"}) {
    const fs::path layout = dir / (std::string("layout_") + scale + ".json"), shot = dir / (std::string("shot_") + scale + ".png");
    std::string out;
    const int status =
        RunToEnd(Open(file, scale, "--screenshot " + shot.string() + " --layout-out " + layout.string() + " --quit"), &out);
    ASSERT_TRUE(ExitedZero(status)) << out;
    const nlohmann::json j = Layout(layout);
    bool whole = false;
    std::string seen;
    for (const auto& t : j["text"]) {
      const std::string s = t["text"].get<std::string>();
      if (s.rfind("Strided", 0) != 0) continue;
      seen += "\"" + s + "\"" + (t["clipped"].get<bool>() ? " (clipped) " : " ");
      whole = whole || (s == title && !t["clipped"].get<bool>());
    }
    EXPECT_TRUE(whole) << "scale " << scale << ": " << seen << "\n" << out;
  }
  fs::remove_all(dir);
}
