// Saving what is on screen: the back buffer as a PNG, and where the views put things as JSON
// (for scripted runs and the GUI tests).
#pragma once
#include <string>
#include <vector>

#include "visual/frame.h"

namespace ws::app {

bool SaveScreenshot(const std::string& path, int width, int height, std::string* why);
bool SaveLayout(const std::string& path, const std::vector<visual::Placed>& placed, int width, int height,
                float scale, std::string* why);

}  // namespace ws::app
