// Counter -> metric-name table. Names follow Nsight Compute (ncu --query-metrics).
#include "sim/metrics.h"

#include <utility>

#include "sim/rule_text.h"

namespace ws::sim {

std::vector<Metric> Metrics(const Counters& c, bool caches) {
  static const char* op_names[4] = {"ld", "st", "atom", "red"};
  static const char* op_words[4] = {"loads", "stores", "atomics (result used)", "reductions (atomics, result unused)"};
  std::vector<Metric> m;
  for (int o = 0; o < 4; ++o)
    m.push_back({std::string("l1tex__t_requests_pipe_lsu_mem_global_op_") + op_names[o] + ".sum",
                 double(c.global_requests[o]),
                 std::string("warp-level global ") + op_words[o] + " (one request per warp instruction)",
                 std::string("global ") + op_names[o] + " requests"});
  for (int o = 0; o < 4; ++o)
    m.push_back({std::string("l1tex__t_sectors_pipe_lsu_mem_global_op_") + op_names[o] + ".sum",
                 double(c.global_sectors[o]),
                 BytesName(kSectorBytes) + " sectors the global " + op_words[o] + " touched",
                 std::string("global ") + op_names[o] + " sectors"});
  // Atomics are performed at L2: what L1 sends there (the rule in sim/rules.h, Coalesce).
  for (int o = 2; o < 4; ++o) {
    m.push_back({std::string("lts__t_requests_srcunit_tex_op_") + op_names[o] + ".sum",
                 double(c.global_l2_requests[o]),
                 std::string("L2 requests for global ") + op_words[o] +
                     " (per " + BytesName(kLineBytes) + " line, its most updates to one address)",
                 std::string("L2 ") + op_names[o] + " requests"});
    m.push_back({std::string("lts__t_sectors_srcunit_tex_op_") + op_names[o] + ".sum",
                 double(c.global_sectors[o]),
                 std::string("L2 sectors for global ") + op_words[o] + " (as many as L1 counts)",
                 std::string("L2 ") + op_names[o] + " sectors"});
  }
  static const char* shared_words[3] = {"loads", "stores", "atomics"};
  for (int o = 0; o < 3; ++o)
    m.push_back({std::string("smsp__sass_inst_executed_op_shared_") + op_names[o] + ".sum",
                 double(c.shared_inst[o]),
                 std::string("warp-level shared-memory ") + shared_words[o] + " executed",
                 std::string("shared ") + op_names[o] + " instructions"});
  for (int o = 0; o < 3; ++o)
    m.push_back({std::string("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_") + op_names[o] + ".sum",
                 double(c.shared_wavefronts[o]),
                 std::string("passes through the 32 banks for shared ") + shared_words[o] +
                     " (1 per instruction when conflict-free)",
                 std::string("shared ") + op_names[o] + " wavefronts"});
  for (int o = 0; o < 3; ++o)
    m.push_back({std::string("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_") + op_names[o] + ".sum",
                 double(c.shared_conflicts[o]),
                 std::string("extra wavefronts caused by bank conflicts in shared ") + shared_words[o],
                 std::string("shared ") + op_names[o] + " bank conflicts"});
  m.push_back({"warpscope__avg_active_lanes_per_memory_instruction", c.AverageActiveLanes(),
               "average active lanes per warp-level memory instruction (memory instructions only, "
               "not arithmetic; 32 means no lane was masked off)",
               "active lanes per memory instruction"});
  for (int o = 0; o < 2; ++o)
    m.push_back({std::string("warpscope__ideal_sectors_global_op_") + op_names[o],
                 double(c.global_ideal_sectors[o]),
                 "the requests' ideal sectors, summed; a request's ideal is " + IdealDefinition(),
                 std::string("ideal global ") + op_names[o] + " sectors"});
  m.push_back({"warpscope__lane_accesses", double(c.lane_accesses),
               "lane-level memory accesses (one per active lane per instruction)", "lane accesses"});
  m.push_back({"warpscope__atomic_lanes_on_shared_address", double(c.atomic_same_address),
               "lanes of an atomic instruction that hit an address another lane of it also hit",
               "atomic lanes sharing an address"});
  // The memory hierarchy (sim/hierarchy.h): L1 per SM, the device L2, DRAM.
  if (!caches) return m;
  uint64_t l1_hits = 0, l2_sectors = 0, l2_hits = 0;
  for (int o = 0; o < 4; ++o) l1_hits += c.l1_hits[o], l2_sectors += c.l2_sectors[o], l2_hits += c.l2_hits[o];
  auto pct = [](uint64_t part, uint64_t whole) { return whole ? 100.0 * double(part) / double(whole) : 0.0; };
  const uint64_t ld = c.global_sectors[0], ld_hits = c.l1_hits[0];
  m.push_back({"l1tex__t_sector_hit_rate.pct", pct(l1_hits, c.GlobalSectors()),
               "share of global sectors (loads, stores, atomics) found in the SM's L1 cache",
               "L1 hit rate"});
  m.push_back({"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", pct(ld_hits, ld),
               "share of global load sectors found in the SM's L1 cache", "L1 hit rate, loads"});
  m.push_back({"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", double(ld_hits),
               "global load sectors found in L1", "L1 load sector hits"});
  m.push_back({"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", double(ld - ld_hits),
               "global load sectors L1 did not hold: each is read from L2, or waits for the same sector on its way to another SM of its group", "L1 load sector misses"});
  m.push_back({"lts__t_sectors_srcunit_tex_op_read.sum", double(c.l2_sectors[0]),
               BytesName(kSectorBytes) + " sectors the SMs' L1s read from L2 (their load misses, less those merged with the same "
               "sector on its way to another SM of their group)", "L2 read sectors"});
  m.push_back({"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", double(c.l2_hits[0]),
               "L2 read sectors L2 already held", "L2 read sector hits"});
  m.push_back({"lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", double(c.l2_sectors[0] - c.l2_hits[0]),
               "L2 read sectors fetched from DRAM", "L2 read sector misses"});
  m.push_back({"lts__t_sectors_srcunit_tex_op_write.sum", double(c.l2_sectors[1]),
               BytesName(kSectorBytes) + " sectors written to L2 by global stores (" + StoreAllocationRule() + ")",
               "L2 write sectors"});
  m.push_back({"lts__t_sector_hit_rate.pct", pct(l2_hits, l2_sectors),
               "share of L2 sectors (reads, writes, atomics) L2 held; writes count as hits, as ncu counts them",
               "L2 hit rate"});
  m.push_back({"dram__bytes_read.sum", double(c.dram_read_bytes),
               "bytes read from DRAM: L2 misses, a 64-byte sector pair each, and the launch's own code and constants", "DRAM bytes read"});
  m.push_back({"dram__bytes_write.sum", double(c.dram_write_bytes),
               "bytes written to DRAM from dirty L2 lines evicted during the kernel", "DRAM bytes written"});
  return m;
}

std::string MetricMeaning(const std::string& name) {
  for (const auto& m : Metrics(Counters{}, true))
    if (m.name == name) return m.meaning;
  // Nsight Compute's metrics the simulator counts under another name, or not at all.
  static const std::pair<const char*, const char*> others[] = {
      {"smsp__inst_executed_op_global_ld.sum", "warp-level global load instructions (LDG) executed"},
      {"smsp__inst_executed_op_global_st.sum", "warp-level global store instructions (STG) executed"},
      {"smsp__inst_executed_op_global_red.sum", "warp-level global atomics whose result is unused (RED) executed"},
      {"gpu__time_duration.sum", "the kernel's time on the GPU"},
  };
  for (const auto& [n, meaning] : others)
    if (name == n) return meaning;
  return "";
}

}  // namespace ws::sim
