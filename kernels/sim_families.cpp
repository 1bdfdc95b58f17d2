// Every family compiled for the simulator: the kernels see the simulator's dialect.
#include "kernels/catalog.h"
#include "kernels/common.h"
#include "kernels/sim_backend.h"

namespace ws::kernels::simk {
using namespace ::ws::dialect;
using B = SimBackend;
#include "kernels/transpose/family.inl"
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
  using namespace simk;
  static const std::vector<FamilyEntry> families = {
      {transpose::Info(), transpose::WorkFor, SimulateWith<transpose::Run<B>>},
  };
  return families;
}
}  // namespace ws::kernels
