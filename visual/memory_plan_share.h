// The plan two panes' memory views share, so that an array of one name has the same slot and
// cell size in A and B (visual/memory_grid.h draws with it; layout.h's PlanMemoryView plans).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "visual/layout.h"

namespace ws::visual {

// Lets the two panes' memory views agree on one plan (same name, same slot and cell size): each
// offers its arrays and room every frame; each plans with the union of the arrays and the
// smallest room offered in this or the previous frame.
class MemoryPlanShare {
 public:
  void Offer(const std::string& pane, int frame, const std::vector<PlanArray>& arrays, float w, float h);
  std::vector<PlanArray> Arrays(int frame) const;
  float Width(int frame, float own) const;
  float Height(int frame, float own) const;

 private:
  struct Offered {
    int frame = -10;
    std::vector<PlanArray> arrays;
    float w = 0, h = 0;
  };
  std::vector<std::pair<std::string, Offered>> offers_;  // by pane, in pane order
};

}  // namespace ws::visual
