// Text, JSON and CSV renderings of counters, findings and traces.
#include "app/report.h"

#include <cstdio>
#include <set>

#include "sim/caption.h"
#include "sim/finding_text.h"
#include "sim/geometry.h"
#include "sim/metrics.h"

namespace ws::app {
namespace {

std::string Hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

nlohmann::json FindingsJson(const sim::Trace& t) {
  auto arr = nlohmann::json::array();
  for (const auto& f : t.findings) {
    // "message" is the finding's one text (sim::FindingText), as stats and the GUI say it; the
    // fields beside it are its parts, those its scope has.
    nlohmann::json j = {{"kind", sim::ToString(f.kind)},
                        {"error", sim::IsError(f.kind)},
                        {"message", sim::FindingText(t, f)},
                        {"occurrences", f.occurrences}};
    if (f.scope != sim::FindingScope::Launch) j["block"] = {f.block.x, f.block.y, f.block.z};
    if (f.scope == sim::FindingScope::Thread) j["thread"] = {f.thread.x, f.thread.y, f.thread.z};
    if (f.site >= 0) j["line"] = t.sites[f.site].line;
    if (f.array >= 0) j["array"] = t.arrays[f.array].name;
    if (f.has_address) j["address"] = Hex(f.address);
    arr.push_back(j);
  }
  return arr;
}

// The notes of a comparison, one object each.
nlohmann::json NotesJson(const sim::CompiledComparison& c) {
  auto arr = nlohmann::json::array();
  for (const auto& n : c.notes) {
    nlohmann::json j = {{"line", n.line},   {"kind", sim::ToString(n.kind)}, {"space", sim::ToString(n.space)},
                        {"op", sim::ToString(n.op)}, {"text", n.text},   {"factor", n.factor}};
    if (n.result_may_differ) j["result_may_differ"] = true;
    if (!n.from_lines.empty()) j["from_lines"] = n.from_lines;
    arr.push_back(j);
  }
  return arr;
}

// The first note that says the GPU's result can differ, or null.
const sim::CompilerNote* DifferingNote(const CompilerView* c) {
  if (!c || !c->available) return nullptr;
  for (const auto& n : c->comparison.notes)
    if (n.result_may_differ) return &n;
  return nullptr;
}

// What a kernel file's code printed: [{"launch": 1, "text": "..."}, ...] (launch 0: its
// description's host code), and "printf_cut" when more was printed than is kept. Nothing for a
// run that printed nothing (every catalog variant).
void AddPrintedJson(nlohmann::json& j, const kernels::SimOutcome& o) {
  if (o.printed.empty() && !o.printed_cut) return;
  auto arr = nlohmann::json::array();
  for (const auto& p : o.printed) arr.push_back({{"launch", p.launch}, {"text", p.text}});
  j["printf"] = arr;
  if (o.printed_cut) j["printf_cut"] = true;
}

}  // namespace

std::string CheckText(const kernels::SimOutcome& o, const CompilerView* compiled) {
  if (!o.check.passed) return "FAILED";
  if (const auto* n = DifferingNote(compiled))
    return "passed in the simulator; on the GPU the result can differ (line " + std::to_string(n->line) +
           ": a shared store kept in a register, see the compiled notes)";
  return "passed";
}

void PrintPrinted(std::ostream& out, const kernels::SimOutcome& o) {
  if (o.printed.empty() && !o.printed_cut) return;
  out << "printf output (in the order printed, per launch):\n";
  for (const auto& p : o.printed) {
    out << (p.launch > 0 ? "  launch " + std::to_string(p.launch) + ":\n" : std::string("  the description, between launches:\n"));
    size_t start = 0;
    while (start < p.text.size()) {
      const size_t end = p.text.find('\n', start);
      out << "    " << p.text.substr(start, end == std::string::npos ? std::string::npos : end - start) << "\n";
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  if (o.printed_cut) out << "  (more was printed than is kept)\n";
}

nlohmann::json StatsJson(const kernels::VariantRef& v, const kernels::RunRequest& r,
                         const kernels::SimOutcome& o, const CompilerView* compiled, bool as_compiled) {
  const auto& t = o.trace;
  nlohmann::json j;
  j["variant"] = v.Id();
  if (!v.variant->on_hardware.empty()) j["on_hardware"] = v.variant->on_hardware;
  j["n"] = r.n;
  j["launch"] = {{"grid", {t.shape.grid.x, t.shape.grid.y, t.shape.grid.z}},
                 {"block", {t.shape.block.x, t.shape.block.y, t.shape.block.z}}};
  j["check"] = {{"passed", o.check.passed}, {"detail", o.check.detail},
                {"max_abs_error", o.check.max_abs_error}};
  if (DifferingNote(compiled)) {
    j["check"]["gpu_result_may_differ"] = true;
    j["check"]["text"] = CheckText(o, compiled);
  }
  if (compiled) {
    nlohmann::json c = {{"available", compiled->available}, {"status", compiled->status}};
    if (compiled->available) {
      c["arch"] = compiled->arch;
      c["kernel"] = compiled->kernel.name;
      c["usage"] = {{"registers", compiled->kernel.usage.registers},
                    {"stack_bytes", compiled->kernel.usage.stack_bytes},
                    {"spill_store_bytes", compiled->kernel.usage.spill_store_bytes},
                    {"spill_load_bytes", compiled->kernel.usage.spill_load_bytes},
                    {"shared_bytes", compiled->kernel.usage.shared_bytes}};
      c["notes"] = NotesJson(compiled->comparison);
      auto emitted = nlohmann::json::object();
      for (const auto& [line, text] : compiled->comparison.emitted) emitted[std::to_string(line)] = text;
      c["emitted"] = emitted;
    }
    j["compiled"] = c;
  }
  const bool counted_as_compiled = as_compiled && compiled && compiled->available;
  j["counted"] = counted_as_compiled ? "as compiled" : "as simulated";
  sim::Counters total = t.total;
  std::map<uint32_t, sim::Counters> per_line = t.per_line;
  if (counted_as_compiled) per_line = sim::AsCompiled(t, compiled->comparison, &total);
  nlohmann::json m;
  const bool caches = !t.caches.device.empty();
  for (const auto& x : sim::Metrics(total, caches)) m[x.name] = x.value;
  j["metrics"] = m;
  auto lines = nlohmann::json::object();
  for (const auto& [line, c] : per_line) {
    nlohmann::json lm;
    for (const auto& x : sim::Metrics(c, caches))
      if (x.value != 0) lm[x.name] = x.value;
    lines[std::to_string(line)] = lm;
  }
  j["per_line"] = lines;
  if (!t.caches.device.empty())
    j["caches"] = {{"device", t.caches.device},
                   {"registers_per_thread", t.caches.registers_per_thread},
                   {"blocks_per_sm", t.caches.blocks_per_sm},
                   {"residency_limited_by", t.caches.limited_by},
                   {"l1_bytes_per_sm", t.caches.l1_bytes},
                   {"l2_bytes", t.caches.l2_bytes},
                   {"waves", t.caches.waves},
                   {"code_bytes", t.caches.code_bytes}};
  j["findings"] = FindingsJson(t);
  AddPrintedJson(j, o);
  j["arrays"] = nlohmann::json::array();
  for (const auto& a : t.arrays)
    j["arrays"].push_back({{"name", a.name}, {"type", a.type}, {"space", sim::ToString(a.space)},
                           {"elements", a.count}, {"base", Hex(a.base)}});
  j["simulated_seconds"] = t.seconds;
  j["threads"] = t.threads;
  if (!t.threads_note.empty()) j["threads_note"] = t.threads_note;
  return j;
}

void PrintStats(std::ostream& out, const kernels::VariantRef& v, const kernels::RunRequest& r,
                const kernels::SimOutcome& o, const CompilerView* compiled, bool as_compiled) {
  const auto& t = o.trace;
  out << v.Id() << " at n=" << r.n << ": grid " << t.shape.grid.x << "x" << t.shape.grid.y << "x"
      << t.shape.grid.z << ", block " << t.shape.block.x << "x" << t.shape.block.y << "x"
      << t.shape.block.z << "\n";
  out << "  check: " << CheckText(o, compiled) << " (" << o.check.detail << ")\n";
  if (!v.variant->on_hardware.empty()) out << "  on the GPU: " << v.variant->on_hardware << "\n";
  if (compiled) {
    out << "  compiled: " << compiled->status << "\n";
    if (compiled->available) {
      out << "    " << UsageText(compiled->kernel.usage) << "\n";
      for (const auto& msg : compiled->messages) out << "    " << msg.severity << ": " << msg.text << "\n";
      for (const auto& n : compiled->comparison.notes)
        out << "    line " << n.line << " [" << sim::ToString(n.kind) << "]: " << n.text << "\n";
      if (compiled->comparison.notes.empty()) out << "    every line's memory instructions are as the source makes them\n";
    }
  }
  const bool counted_as_compiled = as_compiled && compiled && compiled->available;
  sim::Counters total = t.total;
  std::map<uint32_t, sim::Counters> per_line = t.per_line;
  if (counted_as_compiled) {
    per_line = sim::AsCompiled(t, compiled->comparison, &total);
    out << "  counted as compiled: the noted lines' counters are the compiled code's (docs/FIDELITY.md)\n";
  }
  out << "  threads: " << t.threads;
  if (!t.threads_note.empty()) out << " (" << t.threads_note << ")";
  out << "\n";
  if (!t.caches.device.empty())
    out << "  caches: " << t.caches.device << ", " << t.caches.blocks_per_sm << " block(s) per SM (limited by "
        << t.caches.limited_by << "; " << t.caches.registers_per_thread << " registers per thread), "
        << t.caches.waves << " wave(s), L1 " << t.caches.l1_bytes / 1024 << " KiB per SM, L2 "
        << t.caches.l2_bytes / (1024 * 1024) << " MiB, " << t.caches.code_bytes << " B of code read from DRAM\n";
  else
    out << "  caches: not simulated (--no-caches); the L1, L2 and DRAM counters are left out\n";
  for (const auto& m : sim::Metrics(total, !t.caches.device.empty())) {
    char b[200];
    std::snprintf(b, sizeof b, "  %-62s %14.6g\n", m.name.c_str(), m.value);
    out << b;
  }
  out << "  per source line:\n";
  for (const auto& [line, c] : per_line) {
    char b[200];
    std::snprintf(b, sizeof b,
                  "    line %4u: %8llu global req, %10llu sectors (ideal %llu), %8llu shared inst, "
                  "%8llu wavefronts\n",
                  line,
                  static_cast<unsigned long long>(c.GlobalRequests()),
                  static_cast<unsigned long long>(c.GlobalSectors()),
                  static_cast<unsigned long long>(c.GlobalIdealSectors()),
                  static_cast<unsigned long long>(c.SharedInst()),
                  static_cast<unsigned long long>(c.SharedWavefronts()));
    out << b;
  }
  PrintFindings(out, t);
  PrintPrinted(out, o);
}

void PrintFindings(std::ostream& out, const sim::Trace& t) {
  for (const auto& f : t.findings) out << "  " << sim::FindingText(t, f) << "\n";
}

nlohmann::json TraceJson(const kernels::SimOutcome& o, size_t steps, const CompilerView* compiled) {
  const auto& t = o.trace;
  auto arr = nlohmann::json::array();
  for (size_t i = 0; i < t.instructions.size() && i < steps; ++i) {
    const auto& ins = t.instructions[i];
    const auto& a = t.arrays[ins.array];
    nlohmann::json lanes = nlohmann::json::array();
    for (int l = 0; l < sim::kWarpSize; ++l) {
      if (!(ins.mask >> l & 1)) { lanes.push_back(nullptr); continue; }
      nlohmann::json lj = {{"address", Hex(ins.addr[l])}, {"index", (ins.addr[l] - a.base) / a.elem_bytes}};
      if (ins.space == sim::Space::Shared) lj["bank"] = sim::BankOf(ins.addr[l]);
      lanes.push_back(lj);
    }
    nlohmann::json j = {{"step", i},
                        {"line", t.sites[ins.site].line},
                        {"array", a.name},
                        {"space", sim::ToString(ins.space)},
                        {"kind", sim::ToString(ins.op)},
                        {"width", ins.width},
                        {"mask", Hex(ins.mask)},
                        {"active_lanes", ins.ActiveLanes()},
                        {"iteration", ins.epoch},
                        {"lanes", lanes}};
    if (ins.space == sim::Space::Global) {
      j["sectors"] = ins.sectors;
      j["lines"] = ins.lines;
      j["ideal_sectors"] = ins.ideal_sectors;
    } else {
      j["wavefronts"] = ins.wavefronts;
      j["ideal_wavefronts"] = ins.ideal_wavefronts;
      j["conflict_degree"] = ins.conflict_degree;
    }
    j["caption"] = sim::Caption(ins);
    if (compiled && compiled->available) {
      const uint32_t line = t.sites[ins.site].line;
      if (auto e = compiled->comparison.emitted.find(line); e != compiled->comparison.emitted.end())
        j["emitted"] = e->second;
      if (const std::string note = compiled->comparison.LineText(line); !note.empty()) j["compiled"] = note;
    }
    arr.push_back(j);
  }
  nlohmann::json j = {{"instructions", arr}, {"truncated", t.truncated}, {"findings", FindingsJson(t)}};
  if (compiled) {
    j["compiled"] = {{"available", compiled->available}, {"status", compiled->status}};
    if (compiled->available) j["compiled"]["notes"] = NotesJson(compiled->comparison);
  }
  AddPrintedJson(j, o);
  return j;
}

void PrintTraceCsv(std::ostream& out, const kernels::SimOutcome& o, size_t steps) {
  const auto& t = o.trace;
  out << "step,line,array,space,kind,width,mask,sectors,lines,ideal_sectors,wavefronts,conflict_degree";
  for (int l = 0; l < sim::kWarpSize; ++l) out << ",lane" << l;
  out << "\n";
  for (size_t i = 0; i < t.instructions.size() && i < steps; ++i) {
    const auto& ins = t.instructions[i];
    out << i << "," << t.sites[ins.site].line << "," << t.arrays[ins.array].name << ","
        << sim::ToString(ins.space) << "," << sim::ToString(ins.op) << "," << int(ins.width) << ","
        << Hex(ins.mask) << "," << ins.sectors << "," << ins.lines << "," << ins.ideal_sectors << ","
        << ins.wavefronts << "," << ins.conflict_degree;
    for (int l = 0; l < sim::kWarpSize; ++l) {
      out << ",";
      if (ins.mask >> l & 1) out << Hex(ins.addr[l]);
    }
    out << "\n";
  }
}

void PrintTrace(std::ostream& out, const kernels::SimOutcome& o, size_t steps, const CompilerView* compiled) {
  const auto& t = o.trace;
  if (compiled) out << "compiled: " << compiled->status << "\n";
  std::set<uint32_t> noted;  // lines whose notes were printed
  for (size_t i = 0; i < t.instructions.size() && i < steps; ++i) {
    const auto& ins = t.instructions[i];
    const auto& a = t.arrays[ins.array];
    char b[256];
    std::snprintf(b, sizeof b, "#%-4zu line %-3u %-6s %-3s %-5s %2dB mask %08x  ", i,
                  t.sites[ins.site].line, a.name.c_str(), sim::ToString(ins.op),
                  sim::ToString(ins.space), int(ins.width), ins.mask);
    out << b << sim::Caption(ins) << "\n      element per lane:";  // the index into the array, lane 0 first
    for (int l = 0; l < sim::kWarpSize; ++l) {
      if (ins.mask >> l & 1) out << " " << (ins.addr[l] - a.base) / a.elem_bytes;
      else out << " -";
    }
    out << "\n";
    const uint32_t line = t.sites[ins.site].line;
    if (compiled && compiled->available && noted.insert(line).second) {
      if (const std::string note = compiled->comparison.LineText(line); !note.empty())
        out << "      compiled: " << note << "\n";
    }
  }
  if (t.instructions.size() > steps)
    out << "(" << t.instructions.size() - steps << " more instructions; --steps shows more)\n";
  if (t.truncated) out << "(the trace stopped at its cap of " << t.instructions.size() << " instructions)\n";
  if (!t.findings.empty()) out << "findings:\n";
  PrintFindings(out, t);
  PrintPrinted(out, o);
}

}  // namespace ws::app
