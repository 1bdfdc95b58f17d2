// The plan two panes' memory views share (see memory_plan_share.h).
#include "visual/memory_plan_share.h"

#include <algorithm>

namespace ws::visual {

void MemoryPlanShare::Offer(const std::string& pane, int frame, const std::vector<PlanArray>& arrays, float w, float h) {
  auto it = std::find_if(offers_.begin(), offers_.end(), [&](const auto& o) { return o.first == pane; });
  if (it == offers_.end()) {
    offers_.push_back({pane, {}});
    std::sort(offers_.begin(), offers_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    it = std::find_if(offers_.begin(), offers_.end(), [&](const auto& o) { return o.first == pane; });
  }
  it->second = {frame, arrays, w, h};
}

std::vector<PlanArray> MemoryPlanShare::Arrays(int frame) const {
  std::vector<PlanArray> out;
  for (const auto& [pane, o] : offers_) {
    if (o.frame < frame - 1) continue;
    for (const auto& a : o.arrays) {
      auto it = std::find_if(out.begin(), out.end(), [&](const PlanArray& b) { return b.name == a.name; });
      if (it == out.end()) {
        out.push_back(a);
      } else {  // the same name in both: plan for the larger shape so both fit the same slot
        it->shape.rows = std::max(it->shape.rows, a.shape.rows);
        it->shape.cols = std::max(it->shape.cols, a.shape.cols);
        it->lesson = it->lesson || a.lesson;
        it->tile = it->tile || a.tile;
        it->step_touches = it->step_touches || a.step_touches;
        it->warp_rows = std::max(it->warp_rows, a.warp_rows);
        it->warp_cols = std::max(it->warp_cols, a.warp_cols);
        it->min_cols = it->min_cols && a.min_cols ? std::max(it->min_cols, a.min_cols) : 0;  // both may wrap
        it->label_w = std::max(it->label_w, a.label_w);
      }
    }
  }
  return out;
}

float MemoryPlanShare::Width(int frame, float own) const {
  for (const auto& [pane, o] : offers_)
    if (o.frame >= frame - 1) own = std::min(own, o.w);
  return own;
}

float MemoryPlanShare::Height(int frame, float own) const {
  for (const auto& [pane, o] : offers_)
    if (o.frame >= frame - 1) own = std::min(own, o.h);
  return own;
}

}  // namespace ws::visual
