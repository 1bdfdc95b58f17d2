// The key table is the one list of keys: the README's key list is the table's own rows, every
// action a key or a button does can be pressed by name in a scripted run, and names are unique.
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/key_table.h"

namespace ws::app {
namespace {

// The README's key list: from its header line to the first line that is not a table row.
std::string ReadmeKeyList() {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/README.md");
  std::string line, table;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("| key |", 0) == 0) inside = true;
    else if (inside && line.rfind("|", 0) != 0) break;
    if (inside) table += line + "\n";
  }
  return table;
}

// The keys of the README's list, one per label: "← / →" is two keys.
std::set<std::string> ReadmeKeys() {
  std::set<std::string> keys;
  std::stringstream table(ReadmeKeyList());
  std::string line;
  for (int row = 0; std::getline(table, line); ++row) {
    if (row < 2) continue;  // the header and its rule
    const size_t a = line.find("| ") + 2, b = line.find(" |", a);
    std::stringstream cell(line.substr(a, b - a));
    for (std::string key; std::getline(cell, key, '/');) {
      key.erase(0, key.find_first_not_of(' '));
      key.erase(key.find_last_not_of(' ') + 1);
      keys.insert(key);
    }
  }
  return keys;
}

TEST(KeyTable, EveryReadmeKeyIsInTheTableAndViceVersa) {
  const std::set<std::string> readme = ReadmeKeys();
  ASSERT_FALSE(readme.empty()) << "no key list found in README.md";
  std::set<std::string> table;
  for (const auto& k : KeyTable())
    if (k.label) table.insert(k.label);
  for (const auto& key : readme) EXPECT_TRUE(table.count(key)) << "README.md lists " << key << ", the key table does not";
  for (const auto& key : table) EXPECT_TRUE(readme.count(key)) << "the key table has " << key << ", README.md does not list it";
}

TEST(KeyTable, ReadmeKeyListIsTheTablesRows) {
  EXPECT_EQ(ReadmeKeyList(), KeyRowsMarkdown()) << "README.md's key list should read:\n" << KeyRowsMarkdown();
}

TEST(KeyTable, KeysNamesAreUniqueAndNameTheirAction) {
  std::set<std::string> names;
  for (const auto& k : KeyTable()) {
    if (!k.name) continue;
    EXPECT_TRUE(names.insert(k.name).second) << "two bindings named " << k.name;
    EXPECT_EQ(ActionNamed(k.name), k.action) << k.name;
  }
  EXPECT_EQ(ActionNamed("no-such-key"), std::nullopt);
}

TEST(KeyTable, EveryActionCanBePressedByName) {
  const Action all[] = {Action::PlayPause, Action::Next, Action::Previous, Action::First, Action::NextIteration,
                        Action::PreviousIteration, Action::SwitchFocus, Action::Help, Action::CloseHelp, Action::Present,
                        Action::Follow, Action::FullScreen, Action::ScaleUp, Action::ScaleDown, Action::RunOnGpu,
                        Action::NextSlide, Action::PreviousSlide};
  for (const Action a : all) {
    bool named = false;
    for (const auto& k : KeyTable()) named |= k.action == a && k.name;
    EXPECT_TRUE(named) << "action " << int(a) << " has no --keys name";
  }
}

// F11 and Ctrl+= / Ctrl+- are actions like the others (a scripted run can press them).
TEST(KeyTable, FullScreenAndScaleAreKeysOfTheTable) {
  auto find = [](int key) -> const KeyBinding* {
    for (const auto& k : KeyTable())
      if (k.key == key) return &k;
    return nullptr;
  };
  ASSERT_NE(find(GLFW_KEY_F11), nullptr);
  EXPECT_EQ(find(GLFW_KEY_F11)->action, Action::FullScreen);
  ASSERT_NE(find(GLFW_KEY_EQUAL), nullptr);
  EXPECT_EQ(find(GLFW_KEY_EQUAL)->action, Action::ScaleUp);
  EXPECT_TRUE(find(GLFW_KEY_EQUAL)->ctrl);
  ASSERT_NE(find(GLFW_KEY_MINUS), nullptr);
  EXPECT_EQ(find(GLFW_KEY_MINUS)->action, Action::ScaleDown);
  EXPECT_EQ(ActionNamed("fullscreen"), Action::FullScreen);
  EXPECT_EQ(ActionNamed("larger"), Action::ScaleUp);
  EXPECT_EQ(ActionNamed("smaller"), Action::ScaleDown);
}

// Records what each pressed action asks the window to do.
struct RecordingTarget : KeyTarget {
  std::vector<std::string> calls;
  void PlayPause() override { calls.push_back("play"); }
  void Step(int d) override { calls.push_back("step " + std::to_string(d)); }
  void GoToStep(int s) override { calls.push_back("go to " + std::to_string(s)); }
  void Iterate(int d) override { calls.push_back("iterate " + std::to_string(d)); }
  void SwitchFocus() override { calls.push_back("focus"); }
  void ToggleHelp() override { calls.push_back("help"); }
  void CloseHelp() override { calls.push_back("close help"); }
  void TogglePresent() override { calls.push_back("present"); }
  void NextFollow() override { calls.push_back("follow"); }
  void ToggleFullScreen() override { calls.push_back("full screen"); }
  void Scale(int d) override { calls.push_back("scale " + std::to_string(d)); }
  void RunOnGpu() override { calls.push_back("gpu"); }
  void NextSlide(int d) override { calls.push_back("slide " + std::to_string(d)); }
  void ToggleSass() override { calls.push_back("sass"); }
  void ToggleAsCompiled() override { calls.push_back("as compiled"); }
  void NextCacheView() override { calls.push_back("cache view"); }
};

// Each name does what the README's key list says of its key (expected calls written from it).
TEST(KeyTable, EachNamePressesItsFunction) {
  const std::pair<const char*, const char*> expected[] = {
      {"space", "play"},        {"left", "step -1"},      {"right", "step 1"},     {"up", "iterate 1"},
      {"down", "iterate -1"},   {"home", "go to 0"},      {"tab", "focus"},        {"follow", "follow"},
      {"present", "present"},   {"fullscreen", "full screen"}, {"larger", "scale 1"}, {"smaller", "scale -1"},
      {"help", "help"},         {"escape", "close help"}, {"gpu", "gpu"},
      {"next-slide", "slide 1"}, {"previous-slide", "slide -1"}, {"sass", "sass"},
      {"as-compiled", "as compiled"}, {"cache", "cache view"}};
  for (const auto& [name, call] : expected) {
    RecordingTarget t;
    const auto a = ActionNamed(name);
    ASSERT_TRUE(a) << name;
    Press(*a, t);
    EXPECT_EQ(t.calls, std::vector<std::string>{call}) << name;
  }
}

// The keypad's + and - scale as Ctrl+= and Ctrl+- do.
TEST(KeyTable, KeypadKeysScaleLikeTheirRow) {
  for (const auto& k : KeyTable())
    if (k.key == GLFW_KEY_KP_ADD || k.key == GLFW_KEY_KP_SUBTRACT) {
      RecordingTarget t;
      k.run(t);
      EXPECT_EQ(t.calls, std::vector<std::string>{k.key == GLFW_KEY_KP_ADD ? "scale 1" : "scale -1"});
    }
}

// A row joins the keys of one action pair: "← / →" with "left / right".
TEST(KeyTable, PairedKeysShareOneRow) {
  bool found = false;
  for (const auto& r : KeyRows())
    if (r.names == "left / right") {
      found = true;
      EXPECT_EQ(r.keys, "\xe2\x86\x90 / \xe2\x86\x92");
      EXPECT_EQ(r.help, "one warp instruction back / forward");
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace ws::app
