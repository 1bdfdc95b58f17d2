// Warp view: the 32 lanes of the current instruction as a strip, active in lane colours or
// masked off in grey, each lane's element underneath, and the cost in one caption.
#pragma once
#include <string>
#include <vector>

#include "visual/frame.h"

namespace ws::visual {

// "32 lanes → 16 lines, 16 sectors (ideal 4), 12.5% of bytes moved are used", or for shared
// memory "32 lanes → 32 wavefronts (ideal 1): 32-way bank conflict".
std::string CostCaption(const sim::WarpInstruction& ins);

class WarpLanesView {
 public:
  void Draw(const StepFrame& frame, float scale, std::vector<Placed>* placed);

  bool show_addresses = false;  // list every lane's element and address (set by the pane's view menu)
};

}  // namespace ws::visual
