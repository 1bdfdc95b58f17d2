// Every family compiled for the simulator: the kernels see the simulator's dialect.
#include "kernels/catalog.h"
#include "kernels/common.h"
#include "kernels/sim_backend.h"

namespace ws::kernels::simk {
using namespace ::ws::dialect;
using B = SimBackend;
#define WS_FAMILY_INCLUDES
#include "kernels/families.inc"
#undef WS_FAMILY_INCLUDES
}  // namespace ws::kernels::simk

namespace ws::kernels {
namespace {
template <Check (*Run)(SimBackend&, const std::string&, const RunRequest&)>
Check SimulateWith(sim::Engine& e, const std::string& variant, const RunRequest& r) {
  SimBackend b(e);
  return Run(b, variant, r);
}
}  // namespace

const std::vector<FamilyEntry>& Catalog() {
  static const std::vector<FamilyEntry> families = {
#define WS_FAMILY(f) {simk::f::Info(), simk::f::WorkFor, SimulateWith<simk::f::Run<simk::B>>},
#include "kernels/families.inc"
#undef WS_FAMILY
  };
  return families;
}
}  // namespace ws::kernels
