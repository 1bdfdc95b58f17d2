// Polling what runs beside the window: the simulation worker's results, the kernel files shown
// (rebuilt on every save) and the GPU timings, recorded or measured now (see gui_app.h).
// Sections, each marked by its line:
//   // ---- simulations ----
//   // ---- kernel files ----
//   // ---- timings ----
#include "app/gui_app.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include "app/cli.h"

namespace ws::app {

// ---- simulations ----

void Gui::Request(Pane& p) {
  const auto& ref = p.variant;
  int n = n_ ? n_ : ref.TeachingN();
  const int max_n = ref.family->info.max_sim_n;
  if (n < 1 || n > max_n) {
    const int clamped = std::clamp(n, 1, max_n);
    message_ = "n=" + std::to_string(n) + " is outside 1.." + std::to_string(max_n) + " for " + ref.family->info.name +
               " (" + ref.family->info.size_meaning + "); using " + std::to_string(clamped);
    n = clamped;
    n_ = n;
  }
  n_edit_ = n;
  p.n = n;
  p.loading = true;
  p.counting = false;
  p.marks_pending = false;
  p.counts_cancelled = false;
  // The cores are the panes': each simulates on half of them while both show (at least one).
  const uint32_t cores = opt_.threads > 0 ? uint32_t(opt_.threads) : DefaultThreads();
  const uint32_t threads = compare_on_ ? std::max(1u, cores / 2) : cores;
  // The first picture has the marks of the step the window will show (a scripted run's --step).
  const uint32_t step = uint32_t(std::max({p.step, opt_.step, 0}));
  worker_.Submit({p.name == "A" ? 0 : 1, ++p.generation, p.Id(), n, p.shape, pb_.block, !opt_.no_caches, "", threads,
                  pb_.warp, step});
}

void Gui::PollWorker() {
  for (auto& r : worker_.Poll()) {
    Pane& p = pane_[r.job.pane];
    if (r.job.generation != p.generation) continue;
    p.loading = false;
    const bool had_picture = p.counting;  // this job's first picture is on screen
    p.counting = r.first_picture;
    p.marks_pending = r.marks_pending;
    if (r.cancelled) {
      p.counts_cancelled = had_picture;
      message_ = p.name + ": simulation of " + r.job.variant + " at n=" + std::to_string(r.job.n) + " cancelled" +
                 (had_picture ? "; the picture stays, without the whole launch's counters"
                              : p.outcome ? "; the previous picture stays" : "");
      continue;
    }
    if (!r.outcome) {
      p.counts_cancelled = had_picture;  // the first picture stays, without counters
      p.error = r.error;
      message_ = p.name + ": " + r.error;
      continue;
    }
    p.error.clear();
    const uint64_t blocks = r.outcome->trace.shape.grid.Count();
    const uint64_t warps = r.outcome->trace.shape.WarpsPerBlock();
    if (pb_.warp >= warps) {
      message_ = "warp " + std::to_string(pb_.warp) + " is outside a block of " + std::to_string(warps) + " warps; showing warp 0";
      pb_.warp = 0;
    }
    if (pb_.block >= blocks && blocks > 0) {
      message_ = "block " + std::to_string(pb_.block) + " is outside the grid of " + std::to_string(blocks) + " blocks; showing block 0";
      pb_.block = 0;
      p.outcome = r.outcome;  // keep something on screen while block 0 loads
      p.compiled = r.compiled;
      Request(pane_[0]);
      if (Compare()) Request(pane_[1]);
      continue;
    }
    p.outcome = r.outcome;
    p.compiled = r.compiled;
    p.flow = FlowOf(p);
    ShowStep(p);
    // Time to the first picture and to the whole launch, for docs/PERFORMANCE.md.
    if (opt_.log_times)
      std::cerr << "warpscope: " << p.name << ": " << p.Id() << " n=" << p.n << ": "
                << (r.marks_pending ? std::string("steps (marks to come)")
                    : !r.first_picture ? std::string("whole launch")
                    : p.MarksToCome() ? "steps (the marks of the first " + std::to_string(p.FinalSteps()) + ", not this one)"
                    : p.FinalSteps() < p.steps.size() ? "first picture (marks of the first " + std::to_string(p.FinalSteps()) + " steps)"
                                                      : std::string("first picture"))
                << " at "
                << std::chrono::duration<double>(Clock::now() - start_).count() << " s (simulated "
                << r.outcome->trace.seconds << " s"
                << (r.first_picture ? std::string() : "; " + LaunchSummary(r.outcome->trace)) << ")\n";
    if (p.saved != Clock::time_point{}) {
      // Save-to-picture: from the save noticed to the new simulation on screen (docs/PERFORMANCE.md).
      char buf[96];
      std::snprintf(buf, sizeof buf, "; new picture %.2f s after the save",
                    std::chrono::duration<double>(Clock::now() - p.saved).count());
      message_ += buf;
      std::cerr << "warpscope: " << p.name << ": " << p.Id() << buf + 1 << "\n";
      p.saved = {};
      ++reloads_;
    }
  }
}

// ---- kernel files ----

void Gui::PollFiles() {
  std::vector<std::string> shown;
  for (int i = 0; i < 2; ++i)
    if (pane_[i].variant.family && pane_[i].variant.family->from_file && (i == 0 || Compare()))
      shown.push_back(pane_[i].variant.family->info.name);
  files_.Watch(shown);
  for (auto& e : files_.Poll()) {
    const auto asked = opening_.find(e.file);
    const int open_pane = asked != opening_.end() ? asked->second : -1;
    if (asked != opening_.end()) opening_.erase(asked);
    if (!e.family) {
      file_problems_[e.file] = {e.diagnostics, e.text};
      message_ = e.message;
      std::cerr << "warpscope: " << e.message << "\n";
      continue;
    }
    file_problems_.erase(e.file);
    message_ = e.message;
    if (open_pane >= 0) {  // "open file": show its first kernel
      const kernels::VariantRef first{e.family, &e.family->info.variants.front()};
      if (open_pane == 1) {
        compare_on_ = true;
        pane_[1].variant = first;
        pane_[1].step = pane_[0].step;
        Request(pane_[1]);
      } else {
        ShowVariant(0, first, true);
        if (e.family->info.variants.size() > 1) {
          pane_[1].variant = NextInFamily(first);
          pane_[1].step = 0;
          if (Compare()) Request(pane_[1]);
        } else {
          compare_on_ = false;
          focus_ = 0;
        }
      }
      continue;
    }
    // A save: every pane showing the file gets the new build, at the same kernel, step and size.
    for (int i = 0; i < 2; ++i) {
      Pane& p = pane_[i];
      if (!p.variant.family || !p.variant.family->from_file || p.variant.family->info.name != e.file) continue;
      const auto& vs = e.family->info.variants;
      auto it = std::find_if(vs.begin(), vs.end(), [&](const kernels::VariantInfo& v) { return v.name == p.variant.variant->name; });
      p.variant = {e.family, it != vs.end() ? &*it : &vs.front()};
      p.saved = e.change_seen;
      if (i == 0 || Compare()) Request(p);
    }
  }
}

// ---- timings ----

namespace {

std::string FamilyOf(const std::string& id) { return id.substr(0, id.find('/')); }

visual::TimingRow RowOf(const kernels::Timing& t) {
  return {t.variant, t.ms_median, t.ms_min, t.ms_max, t.rate, t.rate_unit, t.pct_of_peak, t.peak_name,
          t.peak_meaning, t.speedup, t.n, t.error};
}

}  // namespace

void Gui::StartGpuTimings() {
  if (!cuda_) {
    message_ = "no GPU to time on: " + cuda_why_;
    return;
  }
  if (!gpu_) gpu_ = std::make_unique<kernels::GpuRunner>();
  if (timing_n_ == 0) timing_n_ = pane_[0].variant.family->info.timing_n;
  std::vector<std::string> ids;
  const auto* fam = pane_[0].variant.family;
  for (const auto& v : fam->info.variants) ids.push_back(fam->info.name + "/" + v.name);
  gpu_->Start(ids, timing_n_, 7);
  timings_.running = true;  // until the first poll says otherwise
}

void Gui::PollTimings() {
  const std::string& family = pane_[0].variant.family->info.name;
  if (gpu_) {
    const auto st = gpu_->Poll();
    timings_.running = st.running;
    timings_.progress = st.progress;
    timings_.status = st.running ? st.message : st.report.device.empty() ? st.message : "measured now on " + st.report.device;
    timings_.status_detail.clear();
    timings_.rows.clear();
    for (const auto& t : st.report.timings)
      if (FamilyOf(t.variant) == family) timings_.rows.push_back(RowOf(t));
    if (!timings_.rows.empty() || st.running) return;
  }
  if (timings_family_ == family) return;
  timings_family_ = family;
  timings_ = {};
  // The first recorded file (by name) that has this family's rows.
  std::vector<std::string> problems;
  std::optional<kernels::BenchReport> rec;
  for (auto& f : LoadRecordedResults(&problems)) {
    std::erase_if(f.report.timings, [&](const kernels::Timing& t) { return FamilyOf(t.variant) != family; });
    if (!f.report.timings.empty()) { rec = std::move(f.report); break; }
  }
  // One line on screen; the driver's reason and the files' problems in its tooltip.
  const std::string head = cuda_ ? "Press \"run on GPU\" to time this family" : "No GPU";
  timings_.status_detail = cuda_ ? "" : cuda_why_;
  for (const auto& why : problems) timings_.status_detail += (timings_.status_detail.empty() ? "" : "\n") + why;
  if (!rec) {
    timings_.status = head + " \xe2\x80\x94 no recorded results for " + family;
    return;
  }
  timings_.status = head + " \xe2\x80\x94 results recorded on " + rec->device + (rec->date.empty() ? "" : ", " + rec->date);
  if (!rec->command.empty())
    timings_.status_detail += (timings_.status_detail.empty() ? "" : "\n") + std::string("recorded with: ") + rec->command;
  for (const auto& t : rec->timings) timings_.rows.push_back(RowOf(t));
}

visual::MemoryFlow Gui::FlowOf(const Pane& p) const {
  auto f = visual::FlowFromCounters(p.Id(), p.outcome->trace.total, !p.outcome->trace.caches.device.empty());
  if (const auto rec = kernels::FindRecordedRun(ncu_, p.Id(), p.n)) visual::AddRecorded(f, rec.run->metrics, rec.file->device, p.n);
  return f;
}

}  // namespace ws::app
