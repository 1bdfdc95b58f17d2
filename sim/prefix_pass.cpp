// The prefix pass (see sim/prefix_pass.h): one pass at a cut, the check that its blocks read what
// the whole run's read, and the doubling of the cut until the asked step is final.
#include "sim/prefix_pass.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "sim/parallel_run.h"

namespace ws::sim::detail {

namespace {

enum class Outcome { Picture, Refused, NotWorth };

struct Pass {
  Outcome outcome = Outcome::Refused;
  Trace trace;
  uint64_t whole_progress = 0;  // the most accesses and synchronisations a thread of block 0 made
};

// The bytes of each global word the pass wrote, as they were before its first write (the shadow
// calls Keep before it), put back in reverse order: the pass costs memory and time for what it
// writes, not for the arrays' size.
struct Undo {
  const EngineImpl* e = nullptr;
  uint64_t base = 0;  // the shadow's first address
  struct Word {
    unsigned char* p;
    uint32_t bytes;
    uint32_t n;
  };
  std::vector<Word> words;
  static void Keep(void* context, uint64_t word) {
    Undo& u = *static_cast<Undo*>(context);
    const uint64_t addr = u.base + word * 4;
    for (const ArrayInfo& a : u.e->trace.arrays) {
      const uint64_t size = uint64_t(a.elem_bytes) * a.count;
      if (a.space != Space::Global || addr < a.base || addr >= a.base + size) continue;
      Word w{static_cast<unsigned char*>(u.e->array_data[size_t(a.id)]) + (addr - a.base), 0,
             uint32_t(std::min<uint64_t>(4, a.base + size - addr))};
      std::memcpy(&w.bytes, w.p, w.n);
      u.words.push_back(w);
      return;
    }
  }
  void PutBack() {
    for (auto w = words.rbegin(); w != words.rend(); ++w) std::memcpy(w->p, &w->bytes, w->n);
    words.clear();
  }
};

// Whether an array of the pass has words written and other words only read (prefix_pass.h).
bool WrittenAndRead(const GlobalShadow& shadow, const EngineImpl& e) {
  for (const ArrayInfo& a : e.trace.arrays) {
    if (a.space != Space::Global || a.base < shadow.base_) continue;
    const uint64_t first = (a.base - shadow.base_) >> 2;
    const uint64_t last = std::min(shadow.words_, first + (uint64_t(a.elem_bytes) * a.count + 3) / 4);
    bool written = false, read = false;
    for (uint64_t w = first; w < last && !(written && read); ++w) {
      const uint32_t s = shadow.shadow_[w];
      if (s & ShadowWords::kWritten) written = true;
      else if (s) read = true;
    }
    if (written && read) return true;
  }
  return false;
}

// The first wave with every thread of its blocks but block 0 and the selected one cut after `cut`.
Pass RunPass(EngineImpl& m, const LaunchShape& s, uint64_t cut) {
  Pass pass;
  LaunchOptions o = m.opt;
  o.threads = 1;
  o.before_launch = nullptr;
  o.on_selected_final = nullptr;
  o.on_selected_ran = nullptr;
  o.on_selected_prefix = nullptr;
  EngineImpl e(std::move(o));
  e.trace.arrays = m.trace.arrays;
  e.array_data = m.array_data;
  e.next_global_base = m.next_global_base;
  e.trace.shape = s;
  e.shared.SetDynamicBytes(s.dynamic_shared_bytes);
  e.body = m.body;
  e.run_start = m.run_start;
  uint64_t lo = ~0ull, hi = 0;
  for (const ArrayInfo& a : e.trace.arrays) {
    lo = std::min(lo, a.base);
    hi = std::max(hi, a.base + uint64_t(a.elem_bytes) * a.count);
  }
  GlobalShadow shadow(lo == ~0ull ? 0 : lo, hi > lo ? hi - lo : 0);
  // The arrays no block writes are not checked (their words stay unmarked, never written: the
  // rule of WrittenAndRead holds of them either way), as on several threads.
  shadow.SetConst(e.trace.arrays, m.const_arrays);
  e.shadow = &shadow;
  Undo undo;
  undo.e = &e;
  undo.base = shadow.base_;
  shadow.first_write = &Undo::Keep;
  shadow.first_write_context = &undo;
  struct PutBack {
    Undo& u;
    ~PutBack() { u.PutBack(); }
  } put_back{undo};  // whatever the pass's end
  const Selection& sel = e.opt.selection;
  e.hierarchy = std::make_unique<MemoryHierarchy>(e.Device(), e.opt.registers_per_thread, s, &e.per_site,
                                                  &e.trace, int64_t(sel.block));
  if (e.opt.control) e.hierarchy->StopWhen(&e.opt.control->cancel);
  e.hierarchy->ReadsCode(e.opt.code_bytes);
  e.cut_after = cut;
  e.whole_block = sel.block;
  FaultGuard guard(KernelThread);
  e.guard = &guard;
  Watchdog watchdog(guard, e.opt.watchdog_seconds, KernelProgress, e.opt.control ? &e.opt.control->cancel : nullptr);
  e.watchdog = &watchdog;
  const uint64_t total = s.grid.Count(), gx = s.grid.x, gy = s.grid.y;
  bool ok = true;
  for (uint64_t b = 0; b < total && ok; ++b) {
    const uint64_t wave = e.hierarchy->BlocksPerWave();
    if (wave && b >= wave) break;
    FollowNicer(e.opt.control);
    e.RunBlock(s, uint32_t(b % gx), uint32_t(b / gx % gy), uint32_t(b / (gx * gy)));
    ok = !e.abort && !e.Cancelled() && shadow.reason() == GlobalShadow::kNone;
    if (b == 0) {
      for (const ThreadCtx& t : e.threads) pass.whole_progress = std::max(pass.whole_progress, t.progress);
      // A cut that saves less than half of each block's work is not worth a pass.
      if (pass.whole_progress <= 2 * cut) pass.outcome = Outcome::NotWorth, ok = false;
    }
    // The selected block must be in the first wave (known once block 1 began).
    if (b == 1 && e.hierarchy->BlocksPerWave() <= sel.block) pass.outcome = Outcome::NotWorth, ok = false;
  }
  e.watchdog = nullptr;
  e.guard = nullptr;
  if (!ok) return pass;
  for (const Finding& f : e.trace.findings)
    if (f.kind == FindingKind::UninitializedShared) return pass;
  if (WrittenAndRead(shadow, e)) return pass;
  e.hierarchy->Finish(e.shared.bytes());
  e.hierarchy.reset();
  if (e.Cancelled()) return pass;
  pass.trace = std::move(e.trace);
  Trace& t = pass.trace;
  // Past the final steps nothing is the whole launch's: no marks there.
  const size_t k = std::min(t.caches.final_steps, t.instructions.size());
  t.caches.final_steps = k;
  for (size_t i = k; i < t.instructions.size(); ++i) t.instructions[i].served = 0;
  t.threads = 1;
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m.run_start).count();
  pass.outcome = Outcome::Picture;
  return pass;
}

// Whether the selected warp's step `step` is among the trace's final steps.
bool Covers(const Trace& t, uint32_t warp, uint32_t step) {
  uint32_t seen = 0;
  for (size_t i = 0; i < t.caches.final_steps && i < t.instructions.size(); ++i)
    if (t.instructions[i].warp == warp && seen++ == step) return true;
  return false;
}

}  // namespace

bool RunPrefixPass(EngineImpl& m, const LaunchShape& s) {
  const Selection& sel = m.opt.selection;
  if (!m.opt.on_selected_prefix || !m.opt.caches || m.abort) return false;
  if (sel.kind != Selection::Kind::Block && sel.kind != Selection::Kind::Warp) return false;
  if (s.grid.Count() <= 2 || sel.block >= s.grid.Count()) return false;
  // Only on the engine's first launch that places shared arrays (their slots register again) and
  // where every array's bytes can be put back.
  for (const ArrayInfo& a : m.trace.arrays)
    if (a.space != Space::Global || size_t(a.id) >= m.array_data.size() || !m.array_data[size_t(a.id)]) return false;
  for (uint64_t cut = m.opt.prefix_cut ? m.opt.prefix_cut : kFirstCut;; cut *= 2) {
    Pass pass = RunPass(m, s, cut);
    if (pass.outcome != Outcome::Picture) return false;
    const bool covered = Covers(pass.trace, sel.warp, m.opt.prefix_step);
    // Doubling again costs twice this pass: only while the cut stays a small part of a block.
    if (covered || 8 * cut > pass.whole_progress) {
      if (covered) m.opt.on_selected_prefix(std::move(pass.trace));
      return covered;
    }
  }
}

}  // namespace ws::sim::detail
