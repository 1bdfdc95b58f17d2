// The keyboard: this frame's key presses looked up in the key table (key_table.h) and done as
// actions (see gui_app.h).
#include "app/gui_app.h"

#include <imgui.h>

namespace ws::app {

void Gui::ApplyKeys() {
  const ImGuiIO& io = ImGui::GetIO();
  for (const KeyBinding& k : KeyTable()) {
    if (k.key == 0 || (k.ctrl && !io.KeyCtrl) || (io.WantTextInput && !k.while_typing)) continue;
    if (ImGui::IsKeyPressed(k.key, k.repeats)) Do(k.action);
  }
}

}  // namespace ws::app
