// `warpscope table FAMILY`: seed 001's per-version tables (DRAM and L2 reads, L1 hit rate, L1
// requests, shared-memory traffic, instructions of each memory kind), simulated beside ncu's.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kernels/recorded.h"
#include "sim/trace.h"

namespace ws::app {

// One row of the table: what the seed calls it, the Nsight Compute metric measured on the device,
// and the simulator's metric (a name from sim::Metrics) that counts the same thing.
struct SeedTableRow {
  std::string label;       // "L1 read requests"
  std::string ncu_metric;  // "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
  std::string sim_metric;  // the same name, or the simulator's equivalent; empty: cannot be simulated
  std::string unit;        // "", "%", "bytes", "ms"
  double ncu_scale = 1;    // ncu's value x this = the row's unit (gpu__time_duration is in ns)
  std::string note;        // what the table adds to the metric's meaning, if anything
  // One sentence: the metric's meaning as sim::MetricMeaning words it, with the note.
  std::string Meaning() const;
};
const std::vector<SeedTableRow>& SeedTableRows();

// The simulator's value of `metric` from sim::Metrics, or nothing where the simulator has no such
// counter (the row then says "not simulated").
std::optional<double> SimulatedValue(const std::string& metric, const sim::Counters& c);

using kernels::RecordedNcu;

// The table as built for one family and size. A cell holds up to three sources.
struct SeedTable {
  std::string family;
  int n = 0;
  std::vector<std::string> variants;  // "v0", "v1", ...
  std::string recorded_device, recorded_date, recorded_path;
  std::vector<int> recorded_sizes;    // when nothing is recorded at n: the sizes that are
  std::string live_device;            // set when --gpu measured this run
  struct Cell {
    std::optional<double> sim, recorded, live;
  };
  std::vector<SeedTableRow> rows;
  std::vector<std::vector<Cell>> cells;  // [row][variant]
  std::vector<std::string> notes;
};

// sims[i] are the counters of variants[i] (a whole launch at n); recorded may be null; live_ms[i]
// is the measured median time of variants[i] (empty when not measured).
SeedTable BuildSeedTable(const std::string& family, int n, const std::vector<std::string>& variants,
                         const std::vector<sim::Counters>& sims, const RecordedNcu* recorded,
                         const std::vector<std::optional<double>>& live_ms, const std::string& live_device);

void PrintSeedTable(std::ostream& out, const SeedTable& t);
void PrintSeedTableCsv(std::ostream& out, const SeedTable& t);
nlohmann::json SeedTableJson(const SeedTable& t);

}  // namespace ws::app
