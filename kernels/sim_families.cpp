// Every family compiled for the simulator: the kernels see the simulator's dialect. The families
// and variants are found at build time (kernels/discover_catalog.cmake, kernels/declare.h).
#include "kernels/catalog.h"
#include "kernels/common.h"
#include "kernels/declare.h"
#include "kernels/family_run.h"
#include "kernels/sim_backend.h"

namespace ws::kernels::simk {
using namespace ::ws::dialect;
using Backend = SimBackend;
#include "generated/catalog.inc"
}  // namespace ws::kernels::simk

namespace ws::kernels {

const std::vector<FamilyEntry>& Catalog() {
  static const std::vector<FamilyEntry> families = [] {
    std::vector<FamilyEntry> out;
    for (const auto& f : FamiliesInLessonOrder<SimBackend>()) {
      if (f.source.empty())
        throw std::logic_error("kernels/" + f.name + ": variants but no WS_FAMILY in its family.inl");
      FamilyEntry e;
      FamilyInfo& info = e.info;
      info.name = f.name;
      info.title = f.decl.title;
      info.story = f.decl.story;
      info.teaching_n = f.decl.teaching_n;
      info.timing_n = f.decl.timing_n;
      info.max_sim_n = f.decl.max_sim_n;
      info.size_meaning = f.decl.size_meaning;
      info.arithmetic_bound = f.decl.arithmetic_bound;
      for (const auto& v : f.variants)
        info.variants.push_back({v.name, v.decl.title, v.decl.watch, v.source, v.decl.on_hardware,
                                 v.decl.work ? v.decl.work : f.decl.work, v.decl.warns});
      e.simulate = [variants = f.variants, family = f.name](sim::Engine& engine, const std::string& variant,
                                                            const RunRequest& request) -> Check {
        for (const auto& v : variants) {
          if (v.name != variant) continue;
          SimBackend b(engine);
          return v.run(b, request);
        }
        throw BadRequest(family + " has no variant '" + variant + "'");
      };
      out.push_back(std::move(e));
    }
    return out;
  }();
  return families;
}

}  // namespace ws::kernels
