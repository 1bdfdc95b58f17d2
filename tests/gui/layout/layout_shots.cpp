// Takes the layout rules' shots once per run (see layout_shots.h), and checks that every one of
// them produced a layout: the other rules skip a shot that did not, this test names it.
#include "layout_shots.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>

#include "kernels/catalog.h"

namespace ws::visual::layout_shots {
namespace {

const Config kConfigs[] = {{1280, 720, 1, false}, {1280, 720, 2, false}, {1920, 1080, 1, false}, {1920, 1080, 2, false},
                           {1280, 720, 1, true},  {1280, 720, 2, true},  {1920, 1080, 1, true},  {1920, 1080, 2, true}};
// The cache tabs' shots add scale 1.5 (issue 24: on screen at every scale from 1 to 2, in either mode).
const Config kCacheConfigs[] = {{1280, 720, 1.5f, false}, {1920, 1080, 1.5f, false}, {1280, 720, 1.5f, true}, {1920, 1080, 1.5f, true}};

}  // namespace

const std::vector<Shot>& Shots() {
  static std::vector<Shot> shots = [] {
    std::vector<Shot> out;
    const std::string dir = std::string(WARPSCOPE_TEST_OUT) + "/layout";
    std::filesystem::create_directories(dir);
    // Every family's pair with the side panel's first tab, again at its last step (where results
    // are stored, often by atomics; "FAMILY+last"), and the first family's again with the memory
    // chart's tab and with the L1 cache's and the L2 cache's (named "FAMILY+chart", "FAMILY+l1",
    // "FAMILY+l2"), the L1 cache's at a whole block's third step, a read by 8 warps of 16
    // lines each ("FAMILY+l1block"), and the L2's at its first, where the 8 warps read them from DRAM
    // ("FAMILY+l2block").
    // The cache tabs' shots are taken in presenter mode too, and at scale 1.5.
    // And the transpose lesson's tile read (its third step, "transpose+tile"), where a 32-way conflict
    // meets the padded tile; and pairs v1 beside v3 at v1's atomic (step 64, "pairs+atomic", at
    // 1280x720 scale 1 in both modes), which by role stands beside v3's atomic; and pairs v2 beside
    // v2_diagonal at their first read of the tile _b ("pairs+broadcast"): one word read by all 32
    // lanes beside 32 words in 32 banks.
    std::vector<std::pair<const kernels::FamilyEntry*, std::string>> runs;
    for (const auto& f : kernels::Catalog()) {
      runs.push_back({&f, ""}), runs.push_back({&f, "last"});
      if (f.info.name == "transpose") runs.push_back({&f, "tile"});
      if (f.info.name == "pairs") runs.push_back({&f, "atomic"}), runs.push_back({&f, "broadcast"});
    }
    if (!kernels::Catalog().empty()) {
      runs.push_back({&kernels::Catalog().front(), "chart"});
      runs.push_back({&kernels::Catalog().front(), "l1"});
      runs.push_back({&kernels::Catalog().front(), "l1block"});
      runs.push_back({&kernels::Catalog().front(), "l2"});
      runs.push_back({&kernels::Catalog().front(), "l2block"});
    }
    for (const auto& [fp, side] : runs) {
      const auto& f = *fp;
      const auto& vs = f.info.variants;
      if (vs.empty()) continue;
      const std::string a = f.info.name + "/" + vs[0].name;
      std::string pair = vs.size() > 1 ? "--variant " + a + " --compare " + f.info.name + "/" + vs[1].name
                                       : "--variant " + a + " --no-compare";
      if (side == "tile") pair = "--variant transpose/shared --compare transpose/shared_padded --step 2";
      else if (side == "atomic") pair = "--variant pairs/v1 --compare pairs/v3 --step 64";
      else if (side == "broadcast") pair = "--variant pairs/v2 --compare pairs/v2_diagonal --step 2";
      else if (side == "last") pair += " --step 1000000";  // clamped to the last step
      else if (side == "l1block") pair += " --side l1 --whole-block --step 2";
      else if (side == "l2block") pair += " --side l2 --whole-block --step 0";  // at step 2 every warp hits in L1
      else if (!side.empty()) pair += " --side " + side;
      const bool cache = side.rfind("l1", 0) == 0 || side.rfind("l2", 0) == 0;
      std::vector<Config> configs(std::begin(kConfigs), std::end(kConfigs));
      if (cache) configs.insert(configs.end(), std::begin(kCacheConfigs), std::end(kCacheConfigs));
      for (const Config& c : configs) {
        if (c.present && side == "chart") continue;  // presenter mode has no side panel (a cache asked for has its column)
        if (side == "atomic" && (c.w != 1280 || c.scale != 1)) continue;
        Shot s;
        s.family = f.info.name + (side.empty() ? "" : "+" + side);
        s.config = c;
        const std::string base = dir + "/" + s.family + "_" + std::to_string(c.w) + "_" + std::to_string(int(c.scale * 10)) +
                                 (c.present ? "_present" : "");
        std::ostringstream cmd;
        cmd << WARPSCOPE_BINARY << " gui --no-settings --size " << c.w << "x" << c.h << " --scale " << c.scale << " " << pair
            << (c.present ? " --present" : "") << " --screenshot " << base << ".png --layout-out " << base << ".json --quit > "
            << base << ".log 2>&1";
        s.cmd = cmd.str();
        s.layout = base + ".json";  // the path, until it is read
        out.push_back(s);
      }
    }
    std::mutex m;
    size_t next = 0;
    auto worker = [&] {
      for (;;) {
        size_t i;
        {
          std::lock_guard<std::mutex> l(m);
          if (next == out.size()) return;
          i = next++;
        }
        const std::string path = out[i].layout.get<std::string>();
        std::filesystem::remove(path);
        const int rc = std::system(out[i].cmd.c_str());
        std::ifstream in(path);
        nlohmann::json j = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
        std::lock_guard<std::mutex> l(m);
        out[i].layout = rc == 0 && j.is_object() ? j : nlohmann::json();
        if (!out[i].layout.is_object()) {
          std::ifstream lin(path.substr(0, path.size() - 5) + ".log");
          out[i].log = "exit status " + std::to_string(rc) + ", output:\n" +
                       std::string(std::istreambuf_iterator<char>(lin), std::istreambuf_iterator<char>());
        }
      }
    };
    std::thread t1(worker), t2(worker);
    t1.join(), t2.join();
    return out;
  }();
  return shots;
}

void Judge(const std::string& check, const Failures& failed) {
  for (const auto& [key, details] : failed) ADD_FAILURE() << check << " " << key << ": " << details;
  std::printf("%s: %zu configurations fail\n", check.c_str(), failed.size());
}

std::string Key(const Shot& s) { return s.family + " " + s.config.Name(); }

void Fail(Failures& failed, const Shot& s, const std::string& what) {
  auto& all = failed[Key(s)];
  all += (all.empty() ? "" : "; ") + what;
}

const nlohmann::json* GridOf(const nlohmann::json& layout, const nlohmann::json& pane, const nlohmann::json& array) {
  const nlohmann::json* grid = nullptr;  // the last one, should a pane draw two
  for (const auto& p : layout["placed"])
    if (p["kind"] == "grid" && p["pane"] == pane && p["name"] == array) grid = &p;
  return grid;
}

bool IsPane(const std::string& window) {
  const size_t at = window.rfind("/pane_");
  return at != std::string::npos && window.find('/', at + 1) == std::string::npos;
}

Rect RectOf(const nlohmann::json& r) { return {r[0].get<float>(), r[1].get<float>(), r[2].get<float>(), r[3].get<float>()}; }

std::string WindowName(const std::string& full, const nlohmann::json& rect) {
  std::string w = full.substr(full.rfind('/') == std::string::npos ? 0 : full.rfind('/') + 1);
  if (w.size() > 9 && w[w.size() - 9] == '_') w.resize(w.size() - 9);
  w = w.substr(0, w.find("##"));
  return w + "@" + std::to_string(int(rect[0].get<float>())) + "," + std::to_string(int(rect[1].get<float>()));
}

std::string Quote(const nlohmann::json& t) {
  std::string text = t["text"].get<std::string>();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  for (char& c : text)
    if (c == '\n') c = '|';
  return "\"" + text + "\" in " + WindowName(t["window"].get<std::string>(), t["window_rect"]);
}

float CellSize(const nlohmann::json& g) {
  if (g.contains("cell")) return g["cell"].get<float>();
  return LayoutGrid(g["rows"].get<uint64_t>(), g["cols"].get<uint64_t>(), RectOf(g["rect"]), g["zoom"].get<float>()).cell;
}

namespace {

TEST(LayoutRules, EveryConfigurationProducedALayout) {
  ASSERT_FALSE(Shots().empty());
  for (const auto& s : Shots()) {
    EXPECT_TRUE(s.layout.is_object()) << "no layout from: " << s.cmd << "\n" << s.log;
    if (s.layout.is_object()) {
      EXPECT_FALSE(s.layout["text"].empty()) << "no text found in the frame of " << Key(s);
    }
  }
}

}  // namespace
}  // namespace ws::visual::layout_shots
