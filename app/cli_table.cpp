// warpscope table: seed 001's table for a family, every variant simulated beside Nsight
// Compute's recorded figures (and, with --gpu, timed live).
#include <algorithm>
#include <iostream>
#include <optional>

#include "app/cli.h"
#include "app/cli_commands.h"
#include "app/compiled_lines.h"
#include "app/seed_table.h"
#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"

namespace ws::app::cli {

int Table(const std::string& family_name, int n, bool gpu, int runs, bool json, bool csv,
          const sim::LaunchOptions& base, const std::string& device) {
  const kernels::FamilyEntry* family = nullptr;
  std::string known;
  for (const auto& f : kernels::Catalog()) {
    known += (known.empty() ? "" : ", ") + f.info.name;
    if (f.info.name == family_name) family = &f;
  }
  if (!family) throw kernels::BadRequest("unknown family '" + family_name + "'; known: " + known);
  if (n == 0) n = family->info.teaching_n;
  kernels::ValidateSize(*family, n);
  std::vector<std::string> names, ids;
  std::vector<sim::Counters> sims;
  std::vector<std::string> compiled_notes;  // what nvcc made of each variant's lines (app/compiled_lines.h)
  bool failed = false;
  for (const auto& v : family->info.variants) {
    names.push_back(v.name);
    ids.push_back(family->info.name + "/" + v.name);
    kernels::RunRequest r;
    r.n = n;
    sim::LaunchOptions opt = base;
    opt.selection = {sim::Selection::Kind::Block, 0, 0};  // block 0's warps: the shape of each line
    const auto ref = kernels::FindVariant(ids.back());
    const CompiledListing listing = ListingFor(ref);
    ConfigureCaches(opt, ids.back(), device, ListingRegisters(listing, ref));
    auto o = kernels::Simulate(ref, r, opt);
    if (base.control && base.control->cancel) {
      std::cerr << "warpscope: interrupted while simulating " << ids.back() << "\n";
      return kFailed;
    }
    if (Fail(o) != kOk) {
      std::cerr << "warpscope: " << ids.back() << ": " << (o.check.passed ? "the simulation has errors" : o.check.detail)
                << " (warpscope stats " << ids.back() << " --n " << n << " says more)\n";
      failed = true;
    }
    const CompilerView cv = Compare(listing, ref, o.trace);
    if (AddCompilerFindings(listing, cv, o.trace) > 0) failed = true;
    sims.push_back(o.trace.total);
    if (!cv.available && compiled_notes.empty()) compiled_notes.push_back("compiled: " + cv.status);
    for (const auto& note : cv.comparison.notes)
      compiled_notes.push_back(v.name + " line " + std::to_string(note.line) + " as compiled: " + note.text);
  }
  std::vector<std::string> problems;
  const auto files = LoadRecordedNcuFiles(&problems);
  const RecordedNcu* recorded = kernels::FindRecordedFamily(files, family->info.name);
  for (const auto& p : problems) std::cerr << "warpscope: skipped " << p << "\n";
  std::vector<std::optional<double>> live;
  std::string live_device;
  if (gpu) {
    std::string why;
    if (!kernels::CudaAvailable(&why)) {
      std::cerr << "warpscope: no live GPU figures: " << why << "\n";
    } else {
      const auto s = MeasureOnGpu(ids, n, runs, false);
      live_device = s.report.device;
      if (live_device.empty()) std::cerr << "warpscope: no live GPU figures: " << s.message << "\n";
      for (const auto& id : ids) {
        auto it = std::find_if(s.report.timings.begin(), s.report.timings.end(),
                               [&](const kernels::Timing& t) { return t.variant == id; });
        live.push_back(it != s.report.timings.end() && it->ms_median > 0 ? std::optional<double>(it->ms_median)
                                                                          : std::nullopt);
      }
    }
  }
  auto table = BuildSeedTable(family->info.name, n, names, sims, recorded, live, live_device);
  table.notes.insert(table.notes.end(), compiled_notes.begin(), compiled_notes.end());
  if (json) std::cout << SeedTableJson(table).dump(1) << "\n";
  else if (csv) PrintSeedTableCsv(std::cout, table);
  else PrintSeedTable(std::cout, table);
  return failed ? kFailed : kOk;
}

}  // namespace ws::app::cli
