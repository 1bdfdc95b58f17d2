// Seed 001's tables per variant: the rows, the cells from the simulator, the recorded ncu file
// (read by kernels/recorded.h) and the GPU, and text/CSV/JSON renderings.
#include "app/seed_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/metrics.h"

namespace ws::app {

const std::vector<SeedTableRow>& SeedTableRows() {
  // The seed's rows in its order; where ncu counts instructions (smsp__inst_executed) the
  // simulator's warp-level requests are the same thing: one request per warp instruction.
  static const std::vector<SeedTableRow> rows = {
      {"DRAM reads", "dram__bytes_read.sum", "dram__bytes_read.sum", "bytes"},
      {"DRAM writes", "dram__bytes_write.sum", "dram__bytes_write.sum", "bytes"},
      {"L2 reads", "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_read.sum", "sectors"},
      {"L1 hit rate", "l1tex__t_sector_hit_rate.pct", "l1tex__t_sector_hit_rate.pct", "%"},
      {"L1 read requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
       "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ""},
      {"L1 read sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
       "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sectors"},
      {"L1 write requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
       "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", ""},
      {"L1 write sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
       "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sectors"},
      {"Shared memory reads", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "wavefronts"},
      {"Shared memory writes", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "wavefronts"},
      {"Global load instructions", "smsp__inst_executed_op_global_ld.sum",
       "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ""},
      {"Global store instructions", "smsp__inst_executed_op_global_st.sum",
       "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", ""},
      {"Global reductions (RED)", "smsp__inst_executed_op_global_red.sum",
       "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", ""},
      {"Global atomics (ATOM)", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
       "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", ""},
      {"Shared load instructions", "smsp__sass_inst_executed_op_shared_ld.sum",
       "smsp__sass_inst_executed_op_shared_ld.sum", ""},
      {"Shared store instructions", "smsp__sass_inst_executed_op_shared_st.sum",
       "smsp__sass_inst_executed_op_shared_st.sum", ""},
      {"Duration", "gpu__time_duration.sum", "", "ms", 1e-6, "ncu's single profiled launch; --gpu: median of timed runs"},
  };
  return rows;
}

std::string SeedTableRow::Meaning() const {
  std::string m = sim::MetricMeaning(ncu_metric);
  if (m.empty()) m = sim::MetricMeaning(sim_metric);
  return note.empty() ? m : m + " (" + note + ")";
}

std::optional<double> SimulatedValue(const std::string& metric, const sim::Counters& c) {
  if (metric.empty()) return std::nullopt;
  for (const auto& m : sim::Metrics(c))
    if (m.name == metric) return m.value;
  return std::nullopt;
}

SeedTable BuildSeedTable(const std::string& family, int n, const std::vector<std::string>& variants,
                         const std::vector<sim::Counters>& sims, const RecordedNcu* recorded,
                         const std::vector<std::optional<double>>& live_ms, const std::string& live_device) {
  SeedTable t;
  t.family = family;
  t.n = n;
  t.variants = variants;
  t.rows = SeedTableRows();
  t.live_device = live_device;
  bool any_recorded = false;
  if (recorded) {
    t.recorded_device = recorded->device;
    t.recorded_date = recorded->date;
    t.recorded_path = recorded->path;
  }
  for (const auto& row : t.rows) {
    std::vector<SeedTable::Cell> line(variants.size());
    for (size_t v = 0; v < variants.size(); ++v) {
      if (v < sims.size()) line[v].sim = SimulatedValue(row.sim_metric, sims[v]);
      if (recorded) {
        if (const auto* run = recorded->Find(family + "/" + variants[v], n)) {
          auto it = run->metrics.find(row.ncu_metric);
          if (it != run->metrics.end()) {
            line[v].recorded = it->second * row.ncu_scale;
            any_recorded = true;
          }
        }
      }
      if (row.unit == "ms" && v < live_ms.size()) line[v].live = live_ms[v];
    }
    t.cells.push_back(std::move(line));
  }
  if (recorded && !any_recorded) {
    t.recorded_sizes = recorded->Sizes(family);
    std::string sizes;
    for (int s : t.recorded_sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(s);
    t.notes.push_back("nothing recorded for " + family + " at n=" + std::to_string(n) +
                      (sizes.empty() ? std::string(" (no size recorded)") : "; recorded sizes: " + sizes));
    // The rows show no empty ncu lines; the note says why.
    t.recorded_device.clear();
    t.recorded_date.clear();
    t.recorded_path.clear();
  }
  std::string missing;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.rows[r].sim_metric.empty()) continue;
    bool simulated = false;
    for (const auto& c : t.cells[r]) simulated |= c.sim.has_value();
    if (!simulated && !sims.empty()) missing += (missing.empty() ? "" : ", ") + t.rows[r].label;
  }
  if (!missing.empty()) t.notes.push_back("not simulated: " + missing);
  return t;
}

namespace {

std::string Number(double v, const std::string& unit) {
  char b[64];
  if (unit == "%" || unit == "ms") std::snprintf(b, sizeof b, unit == "%" ? "%.1f" : "%.4f", v);
  else if (std::fabs(v - std::round(v)) < 1e-9) std::snprintf(b, sizeof b, "%.0f", v);
  else std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

std::string Cell(const std::optional<double>& v, const std::string& unit) { return v ? Number(*v, unit) : "-"; }

std::string RowName(const SeedTableRow& r) { return r.unit.empty() ? r.label : r.label + " (" + r.unit + ")"; }

}  // namespace

void PrintSeedTable(std::ostream& out, const SeedTable& t) {
  out << t.family << " at n=" << t.n << ": sim = this program's simulator";
  if (!t.recorded_device.empty()) out << "; ncu = Nsight Compute on " << t.recorded_device << " (" << t.recorded_date << ")";
  if (!t.live_device.empty()) out << "; gpu = measured now on " << t.live_device;
  out << "\n";
  size_t name_w = 6;
  for (const auto& r : t.rows) name_w = std::max(name_w, RowName(r).size());
  size_t col_w = 10;
  for (const auto& v : t.variants) col_w = std::max(col_w, v.size() + 1);
  for (size_t r = 0; r < t.rows.size(); ++r)
    for (const auto& c : t.cells[r])
      for (const auto& x : {c.sim, c.recorded, c.live}) col_w = std::max(col_w, Cell(x, t.rows[r].unit).size() + 1);
  auto pad = [](std::string s, size_t w, bool right) {
    if (s.size() < w) s = right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
    return s;
  };
  out << pad("", name_w + 5, false);
  for (const auto& v : t.variants) out << pad(v, col_w, true);
  out << "\n";
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    struct Source { const char* name; std::optional<double> SeedTable::Cell::*field; bool show; };
    const bool has_live = std::any_of(t.cells[r].begin(), t.cells[r].end(), [](const auto& c) { return c.live.has_value(); });
    const Source sources[] = {{"sim", &SeedTable::Cell::sim, !row.sim_metric.empty()},
                              {"ncu", &SeedTable::Cell::recorded, !t.recorded_device.empty()},
                              {"gpu", &SeedTable::Cell::live, has_live}};
    bool first = true;
    for (const auto& s : sources) {
      if (!s.show) continue;
      out << pad(first ? RowName(row) : "", name_w + 1, false) << pad(s.name, 4, false);
      for (const auto& c : t.cells[r]) out << pad(Cell(c.*(s.field), row.unit), col_w, true);
      out << "\n";
      first = false;
    }
  }
  for (const auto& note : t.notes) out << "note: " << note << "\n";
}

void PrintSeedTableCsv(std::ostream& out, const SeedTable& t) {
  out << "row,unit,metric,source";
  for (const auto& v : t.variants) out << "," << v;
  out << "\n";
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    struct Source { const char* name; const std::string* metric; std::optional<double> SeedTable::Cell::*field; };
    const Source sources[] = {{"sim", &row.sim_metric, &SeedTable::Cell::sim},
                              {"ncu", &row.ncu_metric, &SeedTable::Cell::recorded},
                              {"gpu", &row.ncu_metric, &SeedTable::Cell::live}};
    for (const auto& s : sources) {
      if (s.field == &SeedTable::Cell::live && (row.unit != "ms" || t.live_device.empty())) continue;
      if (s.metric->empty()) continue;
      out << '"' << row.label << "\"," << row.unit << "," << *s.metric << "," << s.name;
      for (const auto& c : t.cells[r]) out << "," << ((c.*(s.field)) ? Number(*(c.*(s.field)), row.unit) : "");
      out << "\n";
    }
  }
}

nlohmann::json SeedTableJson(const SeedTable& t) {
  nlohmann::json j;
  j["family"] = t.family;
  j["n"] = t.n;
  j["variants"] = t.variants;
  j["recorded"] = t.recorded_device.empty()
                      ? nlohmann::json(nullptr)
                      : nlohmann::json{{"device", t.recorded_device}, {"date", t.recorded_date},
                                       {"tool", "Nsight Compute"}, {"file", t.recorded_path}};
  if (!t.live_device.empty()) j["live_device"] = t.live_device;
  j["rows"] = nlohmann::json::array();
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    nlohmann::json jr = {{"label", row.label}, {"unit", row.unit}, {"meaning", row.Meaning()},
                         {"ncu_metric", row.ncu_metric}};
    jr["sim_metric"] = row.sim_metric.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.sim_metric);
    auto sim = nlohmann::json::object(), rec = nlohmann::json::object(), live = nlohmann::json::object();
    for (size_t v = 0; v < t.variants.size(); ++v) {
      const auto& c = t.cells[r][v];
      sim[t.variants[v]] = c.sim ? nlohmann::json(*c.sim) : nlohmann::json(nullptr);
      rec[t.variants[v]] = c.recorded ? nlohmann::json(*c.recorded) : nlohmann::json(nullptr);
      if (c.live) live[t.variants[v]] = *c.live;
    }
    jr["sim"] = sim;
    jr["ncu"] = rec;
    if (!live.empty()) jr["gpu"] = live;
    j["rows"].push_back(jr);
  }
  j["notes"] = t.notes;
  return j;
}

}  // namespace ws::app
