// Simulator speed: whole-launch counters (no trace) for every catalog variant, reported as
// lane accesses per second, plus the headline case shortcut/v1 at n=512 with 16x16 blocks.
// Figures are recorded in docs/PERFORMANCE.md with the command that printed them.
#include <benchmark/benchmark.h>

#include <string>

#include "kernels/catalog.h"

namespace {

void SimulateWhole(benchmark::State& state, std::string id, int n) {
  auto v = ws::kernels::FindVariant(id);
  ws::kernels::RunRequest r;
  r.n = n;
  ws::sim::LaunchOptions opt;
  opt.selection.kind = ws::sim::Selection::Kind::None;
  uint64_t lanes = 0;
  bool passed = true;
  for (auto _ : state) {
    auto o = ws::kernels::Simulate(v, r, opt);
    lanes = o.trace.total.lane_accesses;
    passed = passed && o.check.passed;
  }
  state.counters["lane_accesses"] = double(lanes);
  state.counters["lane_accesses_per_s"] =
      benchmark::Counter(double(lanes) * state.iterations(), benchmark::Counter::kIsRate);
  if (!passed) state.SkipWithError("output differs from the CPU reference");
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& f : ws::kernels::Catalog())
    for (const auto& v : f.info.variants) {
      std::string id = f.info.name + "/" + v.name;
      benchmark::RegisterBenchmark(("teaching/" + id).c_str(), SimulateWhole, id, f.info.teaching_n)
          ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
    }
  try {
    ws::kernels::FindVariant("shortcut/v1");
    benchmark::RegisterBenchmark("headline/shortcut/v1/n=512", SimulateWhole, std::string("shortcut/v1"), 512)
        ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
  } catch (const ws::kernels::BadRequest&) {
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
