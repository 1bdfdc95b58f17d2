// The key table is the one list of keys: the README's key list is the table's own rows, every
// action a key or a button does can be pressed by name in a scripted run, and names are unique.
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

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
                        Action::Follow, Action::FullScreen, Action::ScaleUp, Action::ScaleDown, Action::RunOnGpu};
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
