// Comparing the simulated lines with the compiled ones (sim/compiled_notes.h).
// Section index: [SECTION] groups · [SECTION] notes · [SECTION] as compiled
#include "sim/compiled_notes.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <tuple>

namespace ws::sim {

const char* ToString(CompilerNoteKind k) {
  switch (k) {
    case CompilerNoteKind::Merged: return "merged";
    case CompilerNoteKind::KeptInRegister: return "kept in a register";
    case CompilerNoteKind::Predicated: return "predicated";
    case CompilerNoteKind::Aggregated: return "aggregated";
    case CompilerNoteKind::Hoisted: return "hoisted";
  }
  return "?";
}

bool IsSameFile(const std::string& name, const std::string& file) {
  if (name == file) return true;
  auto ends = [](const std::string& a, const std::string& b) {  // a ends with "/" + b
    return a.size() > b.size() && a.compare(a.size() - b.size(), b.size(), b) == 0 && a[a.size() - b.size() - 1] == '/';
  };
  return ends(name, file) || ends(file, name);
}

std::string CompiledComparison::LineText(uint32_t line) const {
  std::string s;
  for (const auto& n : notes)
    if (n.line == line) s += (s.empty() ? "" : "; ") + n.text;
  return s;
}

namespace {

// ---- [SECTION] groups ---------------------------------------------------------------------
// A line's accesses are compared per space and operation: loads, stores, atomics (ATOM and RED
// together, as an atomicAdd may be either).
enum Group : int { kLoad = 0, kStore = 1, kAtomic = 2 };
int GroupOf(Op o) { return o == Op::Load ? kLoad : o == Op::Store ? kStore : kAtomic; }
const char* GroupWord(int g) { return g == kLoad ? "load" : g == kStore ? "store" : "atomic"; }
using Key = std::tuple<uint32_t, Space, int>;  // line, space, group

// What the traced warps issued for one key.
struct Simulated {
  int per_execution = 0;  // accesses the line's source makes: its distinct sites (a[x], b[i])
  uint8_t widest = 0;     // bytes per lane
  uint64_t instructions = 0, lane_bytes = 0;  // over the traced warps: for the mean width
  uint32_t executions = 0;  // the most times one warp made one of them: the iterations it ran the line
  double MeanWidth() const { return instructions ? double(lane_bytes) / double(instructions) : 0; }
};

// What the compiled code has for one key.
struct Compiled {
  std::vector<const CompiledInstruction*> ins;
  int outside_loops = 0, predicated = 0;
  uint8_t widest = 0;
  uint64_t bytes = 0;  // per lane, over the instructions
  double MeanWidth() const { return ins.empty() ? 0 : double(bytes) / double(ins.size()); }
};

// The line of `file` an instruction came from (the innermost of its inlining chain there), 0: none.
uint32_t LineIn(const CompiledInstruction& ins, const std::string& file) {
  for (const auto& w : ins.where)
    if (IsSameFile(w.file, file)) return w.line;
  return 0;
}

// The simulated space of a compiled one: a generic LD/ST is counted as global (the dialect's global
// arrays are plain pointers on the GPU); local memory is not simulated.
bool SpaceOf(MemSpace m, Space* s) {
  if (m == MemSpace::Shared) *s = Space::Shared;
  else if (m == MemSpace::Global || m == MemSpace::Generic) *s = Space::Global;
  else return false;
  return true;
}

// The whole launch's instructions of a key at one line, from the per-line counters.
uint64_t Count(const Counters& c, Space s, int g) {
  if (s == Space::Global)
    return g == kAtomic ? c.global_requests[2] + c.global_requests[3] : c.global_requests[g];
  return c.shared_inst[g];
}

std::string Plural(uint64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

bool IsVote(const std::string& opcode) {
  for (const char* v : {"VOTE", "VOTEU", "POPC", "FLO", "UFLO", "MATCH", "REDUX", "CREDUX"})
    if (opcode == v || opcode.rfind(std::string(v) + ".", 0) == 0) return true;
  return false;
}

}  // namespace

// ---- [SECTION] notes ----------------------------------------------------------------------

CompiledComparison CompareWithCompiled(const Trace& t, const CompiledKernel& k, const std::string& file) {
  CompiledComparison out;

  // The traced warps: per key, the accesses the source makes at the line (its distinct sites) and
  // how many times one warp made each (the iterations of the loop the line sits in, whether the
  // loop spans lines or is one line).
  std::map<Key, Simulated> sim;
  {
    std::map<Key, std::set<uint32_t>> sites;
    std::map<std::tuple<Key, uint32_t, uint32_t, uint32_t>, uint32_t> made;  // (key, site, block, warp) -> instructions
    for (const auto& ins : t.instructions) {
      const Site& site = t.sites[ins.site];
      if (!file.empty() && !site.file.empty() && !IsSameFile(site.file, file)) continue;
      const Key key{site.line, ins.space, GroupOf(ins.op)};
      auto& s = sim[key];
      s.widest = std::max(s.widest, ins.width);
      s.instructions += 1;
      s.lane_bytes += ins.width;
      sites[key].insert(ins.site);
      const uint32_t m = ++made[{key, ins.site, ins.block, ins.warp}];
      s.executions = std::max(s.executions, m);
    }
    for (const auto& [key, set] : sites) sim[key].per_execution = int(set.size());
  }

  // The compiled code per key, and per line whether it branches by predicates or votes.
  std::map<Key, Compiled> comp;
  std::map<uint32_t, std::map<std::string, int>> emitted;  // line -> name -> count
  std::map<uint32_t, bool> line_predicated;
  std::map<uint32_t, std::string> line_vote;
  for (const auto& ins : k.instructions) {
    const uint32_t line = LineIn(ins, file);
    if (line == 0) continue;
    if (!ins.predicate.empty() && ins.opcode.rfind("BRA", 0) != 0 && ins.opcode != "EXIT") line_predicated[line] = true;
    if (IsVote(ins.opcode) && line_vote[line].empty()) line_vote[line] = ins.opcode.substr(0, ins.opcode.find('.'));
    Space space;
    if (!ins.IsMemory() || !SpaceOf(ins.space, &space)) continue;
    emitted[line][ins.MemoryName()] += 1;
    auto& c = comp[{line, space, GroupOf(ins.op)}];
    c.ins.push_back(&ins);
    c.outside_loops += ins.loop < 0;
    c.predicated += !ins.predicate.empty();
    c.widest = std::max(c.widest, ins.width);
    c.bytes += ins.width;
  }
  for (const auto& [line, names] : emitted) {
    std::string s;
    for (const auto& [name, n] : names) s += (s.empty() ? "" : ", ") + name + " ×" + std::to_string(n);
    out.emitted[line] = s;
  }

  bool warp_race = false;  // a line reads a word another lane of its warp stored: lockstep assumed
  for (const auto& f : t.findings) warp_race |= f.kind == FindingKind::WarpSyncRace;

  // The keys the simulator counted at some line.
  std::set<Key> simulated;
  for (const auto& [line, c] : t.per_line)
    for (Space s : {Space::Global, Space::Shared})
      for (int g : {kLoad, kStore, kAtomic})
        if (Count(c, s, g) > 0) simulated.insert({line, s, g});
  for (const auto& [key, s] : sim) simulated.insert(key);

  // Compiled instructions at a line where the simulator has none of their kind: where a branch's
  // stores went when the branch became predicated instructions (divergence/divergent: the two
  // sides' stores are one STG at the loop's line).
  std::map<std::pair<Space, int>, std::vector<uint32_t>> orphans;
  for (const auto& [key, c] : comp)
    if (!simulated.count(key)) orphans[{std::get<1>(key), std::get<2>(key)}].push_back(std::get<0>(key));
  std::map<uint32_t, std::vector<uint32_t>> folded_into;  // orphan line -> the lines it serves

  // The line table may put an access at a neighbouring line (`float2 v = s[j]; y[i] = v;`: the LDS
  // at the line of the store that uses it). Where the kernel has exactly one line of a kind missing
  // in the compiled code and one line of that kind the simulator has not, within 3 lines and of the
  // same width, they are the same access: nothing to say, nothing to count.
  {
    std::map<std::pair<Space, int>, std::vector<Key>> missing;
    for (const Key& key : simulated)
      if (!comp.count(key) && !line_predicated[std::get<0>(key)])
        missing[{std::get<1>(key), std::get<2>(key)}].push_back(key);
    for (auto& [sg, lines] : orphans) {
      const auto m = missing.find(sg);
      if (lines.size() != 1 || m == missing.end() || m->second.size() != 1) continue;
      const Key from = m->second.front(), to{lines.front(), sg.first, sg.second};
      const uint32_t a = std::get<0>(from), b = lines.front();
      const auto s = sim.find(from);
      if ((a > b ? a - b : b - a) > 3 || (s != sim.end() && s->second.widest != comp[to].widest)) continue;
      comp[from] = comp[to];  // compared at the simulator's line
      comp.erase(to);
      lines.clear();
    }
  }

  for (const Key& key : simulated) {
    const auto [line, space, g] = key;
    const std::string sp = ToString(space);
    const auto cit = comp.find(key);
    const Compiled* c = cit == comp.end() ? nullptr : &cit->second;
    const auto sit = sim.find(key);
    const Simulated* s = sit == sim.end() ? nullptr : &sit->second;
    CompilerNote n;
    n.line = line;
    n.space = space;
    n.op = g == kLoad ? Op::Load : g == kStore ? Op::Store : Op::Atomic;

    if (!c) {
      // Nothing of this kind at the line. A store of a predicated branch made elsewhere?
      const auto o = orphans.find({space, g});
      if (g == kStore && line_predicated[line] && o != orphans.end() && o->second.size() == 1) {
        const uint32_t at = o->second.front();
        const auto& made = comp[{at, space, g}];
        n.kind = CompilerNoteKind::Predicated;
        n.factor = 0;
        n.text = "predicated: no branch; this " + sp + " store is the " + made.ins.front()->MemoryName() +
                 " at line " + std::to_string(at) + ", which every lane issues for both sides of the branch";
        folded_into[at].push_back(line);
      } else {
        n.kind = CompilerNoteKind::KeptInRegister;
        n.factor = 0;
        n.text = std::string("no ") + sp + " " + GroupWord(g) + ": kept in a register";
        if (g == kStore && space == Space::Shared && warp_race) {
          n.result_may_differ = true;
          n.text += "; without volatile other lanes read the old value: the GPU's result can differ";
        }
      }
      out.notes.push_back(n);
      continue;
    }

    if (g == kAtomic && !line_vote[line].empty() && c->predicated == int(c->ins.size())) {
      n.kind = CompilerNoteKind::Aggregated;
      n.text = "aggregated: one lane of each warp issues " + c->ins.front()->MemoryName() + " with the warp's sum (" +
               line_vote[line] + " at this line)";
      out.notes.push_back(n);
      continue;
    }

    if (!s) continue;  // the traced warps did not run this line: nothing to compare with

    if (c->widest > s->widest) {
      n.kind = CompilerNoteKind::Merged;
      n.keeps_ideal = true;
      n.factor = s->MeanWidth() / c->MeanWidth();
      std::string names;
      std::set<std::string> seen;
      for (const auto* i : c->ins)
        if (i->width > s->widest && seen.insert(i->MemoryName()).second) names += (names.empty() ? "" : ", ") + i->MemoryName();
      n.text = sp + " " + GroupWord(g) + "s of " + std::to_string(s->widest) + " B merged into " + names + " (" +
               std::to_string(c->widest) + " B per lane): " + Plural(c->ins.size(), "instruction") + " for " +
               std::to_string(std::llround(double(c->ins.size()) / n.factor)) + " accesses of the source";
      out.notes.push_back(n);
      continue;
    }

    // Fewer instructions than the source makes: per warp the compiled code runs each instruction
    // outside a loop once, the simulator the line's per_execution accesses in each of `executions`
    // iterations.
    const int per = s->per_execution;
    const uint32_t its = std::max<uint32_t>(1, s->executions);
    const int outside = c->outside_loops, total = int(c->ins.size());
    double factor = 1;
    if (outside == total) factor = double(total) / (double(per) * its);
    else if (its > 1 && outside > 0 && outside < per) factor = (double(per - outside) + double(outside) / its) / per;
    if (factor >= 1 - 1e-9) continue;
    n.factor = factor;
    if (its > 1) {
      n.kind = CompilerNoteKind::Hoisted;
      n.text = sp + " " + GroupWord(g) + (outside == total ? "" : " (" + std::to_string(outside) + " of " + std::to_string(per) + ")") +
               " made once per warp outside the loop, not in each of its " + std::to_string(its) +
               " iterations: the value is kept in a register";
    } else {
      n.kind = CompilerNoteKind::KeptInRegister;
      n.text = std::to_string(total) + " of its " + Plural(per, sp + " " + GroupWord(g)) +
               " issued; the rest kept in registers";
    }
    out.notes.push_back(n);
  }

  // Loads at a line where the simulator has none, outside every loop: a load of a later line's loop
  // hoisted before it (its address is the same in every iteration). The nearest following line of
  // the same space whose traced warps ran it in several iterations makes `h` fewer per iteration.
  for (const auto& [sg, at_lines] : orphans) {
    if (sg.second != kLoad) continue;
    for (uint32_t at : at_lines) {
      const auto& made = comp[{at, sg.first, kLoad}];
      if (made.outside_loops != int(made.ins.size()) || folded_into.count(at)) continue;
      const int h = int(made.ins.size());
      const Simulated* into = nullptr;
      uint32_t into_line = 0;
      for (const auto& [key, s] : sim)
        if (std::get<1>(key) == sg.first && std::get<2>(key) == kLoad && std::get<0>(key) > at && s.executions > 1 &&
            s.per_execution > h && (!into || std::get<0>(key) < into_line))
          into = &s, into_line = std::get<0>(key);
      if (!into) continue;
      const std::string sp = ToString(sg.first);
      const int per = into->per_execution;
      CompilerNote n;
      n.line = into_line;
      n.kind = CompilerNoteKind::Hoisted;
      n.space = sg.first;
      n.op = Op::Load;
      n.factor = (double(per - h) + double(h) / into->executions) / per;
      n.text = "hoisted: " + std::to_string(h) + " of its " + Plural(per, sp + " load") + " per iteration made once " +
               "per warp before the loop (the " + made.ins.front()->MemoryName() + " at line " + std::to_string(at) +
               "), not in each of its " + std::to_string(into->executions) + " iterations";
      out.notes.push_back(n);
      CompilerNote here = n;  // at the line the load sits at: no count of its own (counted at into_line)
      here.line = at;
      here.factor = 1;
      here.text = made.ins.front()->MemoryName() + " hoisted here from line " + std::to_string(into_line) + "'s loop";
      out.notes.push_back(here);
    }
  }

  for (const auto& [at, lines] : folded_into) {
    CompilerNote n;
    n.line = at;
    n.kind = CompilerNoteKind::Predicated;
    n.space = Space::Global;
    for (const auto& [key, c] : comp)
      if (std::get<0>(key) == at && std::get<2>(key) == kStore) n.space = std::get<1>(key);
    n.op = Op::Store;
    n.from_lines = lines;
    std::string which;
    for (size_t i = 0; i < lines.size(); ++i)
      which += (i == 0 ? "" : i + 1 == lines.size() ? " and " : ", ") + std::to_string(lines[i]);
    n.text = "the stores of lines " + which + " (a predicated branch): one instruction here, which every lane issues";
    out.notes.push_back(n);
  }

  std::stable_sort(out.notes.begin(), out.notes.end(),
                   [](const CompilerNote& a, const CompilerNote& b) { return a.line < b.line; });
  for (const auto& n : out.notes) out.result_may_differ |= n.result_may_differ;
  return out;
}

// ---- [SECTION] as compiled ----------------------------------------------------------------

namespace {

uint64_t Scaled(uint64_t v, double f) { return uint64_t(std::llround(double(v) * f)); }

// Scales c's counters of (space, group) by f; `keep_ideal` (a merge): the ideal figures stay.
void Scale(Counters& c, Space space, int g, double f, bool keep_ideal) {
  uint64_t before = 0, after = 0;
  auto each = [&](auto&& fn) {
    if (space == Space::Global) {
      if (g == kAtomic) fn(2), fn(3);
      else fn(g);
    } else {
      fn(g);
    }
  };
  each([&](int i) {
    if (space == Space::Global) {
      before += c.global_requests[i];
      c.global_requests[i] = Scaled(c.global_requests[i], f);
      after += c.global_requests[i];
      for (uint64_t* v : {&c.global_sectors[i], &c.global_lines[i], &c.global_l2_requests[i], &c.l1_hits[i],
                          &c.l2_sectors[i], &c.l2_hits[i]})
        *v = Scaled(*v, f);
      if (!keep_ideal) c.global_ideal_sectors[i] = Scaled(c.global_ideal_sectors[i], f);
    } else {
      before += c.shared_inst[i];
      c.shared_inst[i] = Scaled(c.shared_inst[i], f);
      after += c.shared_inst[i];
      c.shared_wavefronts[i] = Scaled(c.shared_wavefronts[i], f);
      c.shared_conflicts[i] = Scaled(c.shared_conflicts[i], f);
      if (!keep_ideal) c.shared_ideal_wavefronts[i] = Scaled(c.shared_ideal_wavefronts[i], f);
    }
  });
  c.mem_inst = c.mem_inst + after - before;
}

// Sets dst's counters of (space, group) to the most of each counter over `from`.
void TakeMost(Counters& dst, const std::vector<const Counters*>& from, Space space, int g) {
  const int first = space == Space::Global && g == kAtomic ? 2 : g;
  const int last = space == Space::Global && g == kAtomic ? 3 : g;
  for (int i = first; i <= last; ++i) {
    // The most over `from` of element i of a counter array (a pointer to the Counters member),
    // and that most taken into dst for each member named.
    auto most = [&](auto member) {
      uint64_t m = 0;
      for (const auto* f : from) m = std::max(m, (f->*member)[i]);
      return m;
    };
    auto take = [&](auto... members) { (((dst.*members)[i] = most(members)), ...); };
    // A count of instructions (requests, shared instructions): mem_inst moves with it.
    auto take_count = [&](auto member) {
      const uint64_t n = most(member);
      dst.mem_inst += n - (dst.*member)[i];
      (dst.*member)[i] = n;
    };
    if (space == Space::Global) {
      take_count(&Counters::global_requests);
      take(&Counters::global_sectors, &Counters::global_ideal_sectors, &Counters::global_lines,
           &Counters::global_l2_requests, &Counters::l1_hits, &Counters::l2_sectors, &Counters::l2_hits);
    } else {
      take_count(&Counters::shared_inst);
      take(&Counters::shared_wavefronts, &Counters::shared_ideal_wavefronts, &Counters::shared_conflicts);
    }
  }
}

}  // namespace

std::map<uint32_t, Counters> AsCompiled(const Trace& t, const CompiledComparison& c, Counters* total) {
  std::map<uint32_t, Counters> lines = t.per_line;
  for (const auto& n : c.notes) {
    if (!n.from_lines.empty()) {
      std::vector<const Counters*> from;
      for (uint32_t l : n.from_lines)
        if (auto it = t.per_line.find(l); it != t.per_line.end()) from.push_back(&it->second);
      TakeMost(lines[n.line], from, n.space, GroupOf(n.op));
    } else if (n.factor != 1) {
      Scale(lines[n.line], n.space, GroupOf(n.op), n.factor, n.keeps_ideal);
    }
  }
  if (total) {
    *total = Counters{};
    for (const auto& [line, counters] : lines) *total += counters;
    // What the lines do not hold (DRAM bytes are the launch's) stays the simulator's.
    total->dram_read_bytes = t.total.dram_read_bytes;
    total->dram_write_bytes = t.total.dram_write_bytes;
  }
  return lines;
}

}  // namespace ws::sim
