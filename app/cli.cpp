// The command-line interface: its parser and the commands list, stats, trace, new, open and sass
// (bench and table have files of their own). Every failure is one line on stderr and a distinct exit code.
#include "app/cli.h"

#include <sched.h>
#include <unistd.h>

#include <csignal>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "app/cli_commands.h"
#include "app/compiled_lines.h"
#include "app/report.h"
#include "app/sass_command.h"
#include "app/version.h"
#include "app/seed_table.h"
#include "kernels/catalog.h"
#include "kernels/user_file.h"
#include "sim/device_profile.h"
#include "toolchain/compiled.h"
#include "toolchain/new_file.h"

namespace ws::app {

int cli::Fail(const kernels::SimOutcome& o) {
  for (const auto& f : o.trace.findings)
    if (sim::IsError(f.kind)) return kFailed;
  return o.check.passed ? kOk : kFailed;
}

std::filesystem::path cli::AssetsDir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(WARPSCOPE_ASSETS, ec)) return WARPSCOPE_ASSETS;
  char buf[4096];
  const ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (len > 0) {
    const fs::path exe_dir = fs::path(std::string(buf, size_t(len))).parent_path();
    for (const auto& p : {exe_dir / "assets", exe_dir / ".." / "assets", exe_dir / ".." / "share" / "warpscope" / "assets"})
      if (fs::is_directory(p, ec)) return p;
  }
  return WARPSCOPE_ASSETS;
}

// Every core this process may run on (its affinity: `taskset -c 0 warpscope ...` gets one thread,
// where hardware_concurrency counted the machine's and put two threads on one core, +30% of CPU
// time for stats shortcut/v1 --n 512 --shape 16x16), else the machine's.
uint32_t DefaultThreads() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 0)
    return uint32_t(CPU_COUNT(&allowed));
  return std::max(1u, std::thread::hardware_concurrency());
}

namespace {

// A whole decimal integer from `lo` to `hi`, or BadRequest naming the flag: no empty value, no
// hexadecimal, no exponent, no wrap-around.
int64_t ParseInteger(const std::string& flag, const std::string& text, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || (ec != std::errc() && ec != std::errc::result_out_of_range) || ptr != end)
    throw kernels::BadRequest(flag + " '" + text + "' is not a decimal integer");
  if (ec == std::errc::result_out_of_range || v < lo || v > hi)
    throw kernels::BadRequest(flag + " " + text + " is out of range: it must be from " + std::to_string(lo) +
                              " to " + std::to_string(hi));
  return v;
}

}  // namespace

kernels::Block ParseBlock(const std::string& s) {
  kernels::Block b;
  unsigned v[3] = {0, 1, 1};
  int parts = 0;
  size_t pos = 0;
  bool ok = true;
  while (ok && parts < 3) {
    size_t end = pos;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    ok = end > pos && end - pos < 6;
    if (ok) v[parts++] = unsigned(std::stoul(s.substr(pos, end - pos)));
    if (!ok || end == s.size()) break;
    ok = s[end] == 'x' && parts < 3;
    pos = end + 1;
  }
  if (!ok || v[0] == 0 || v[1] == 0 || v[2] == 0)
    throw kernels::BadRequest("--shape '" + s + "' is not X, XxY or XxYxZ with positive numbers");
  b.x = v[0]; b.y = v[1]; b.z = v[2];
  return b;
}

namespace {

// Ctrl-C during stats, trace or table: the engine stops at its next check (every access, barrier and
// watchdog tick), so even a kernel that loops forever ends, and the command says what it stopped.
sim::RunControl g_control;
extern "C" void OnInterrupt(int) { g_control.cancel.store(true, std::memory_order_relaxed); }

}  // namespace

std::vector<RecordedFile> LoadRecordedResults(std::vector<std::string>* problems) {
  return kernels::LoadRecordedResults(cli::AssetsDir() / "recorded", problems);
}

std::vector<RecordedNcu> LoadRecordedNcuFiles(std::vector<std::string>* problems) {
  return kernels::LoadRecordedNcuFiles(cli::AssetsDir() / "recorded" / "ncu", problems);
}

void ConfigureCaches(sim::LaunchOptions& opt, const std::string& variant_id,
                     const std::string& device_flag, uint32_t ptxas_registers) {
  if (ptxas_registers && !opt.registers_per_thread) opt.registers_per_thread = ptxas_registers;
  if (!device_flag.empty()) {
    opt.device = sim::FindDeviceProfile(device_flag);
    if (!opt.device)
      throw kernels::BadRequest("--device '" + device_flag + "' is not a known device; known: " +
                                sim::DeviceProfileNames());
  }
  const auto files = LoadRecordedNcuFiles(nullptr);
  if (const auto rec = kernels::FindRecordedRun(files, variant_id)) {
    auto it = rec.run->metrics.find("launch__registers_per_thread");
    if (it != rec.run->metrics.end() && it->second > 0 && !opt.registers_per_thread)
      opt.registers_per_thread = uint32_t(it->second);
    if (!opt.device) opt.device = sim::FindDeviceProfile(rec.file->device);
  }
  if (!opt.device && !files.empty()) opt.device = sim::FindDeviceProfile(files.front().device);
  if (!opt.device) opt.device = &sim::DeviceProfiles().front();
  // The kernel's code, which a launch reads from DRAM (0 where the GPU build's code is not known).
  if (!opt.code_bytes) opt.code_bytes = CatalogCodeBytes(variant_id, opt.device->arch);
}

int RunCli(int argc, char** argv, const GuiEntry& gui) {
  CLI::App app{"warpscope: how GPU warps touch memory, instruction by instruction"};
  app.require_subcommand(0, 1);
  // "warpscope 0.1.0 (commit 3f2a9c1d0e4b)", as command-line tools print it.
  app.set_version_flag("--version", std::string("warpscope ") + Version() + " (commit " + Commit() + ")",
                       "print the version and the commit it was built from");

  auto* list = app.add_subcommand("list", "families and variants");

  // Numbers are taken as text and parsed strictly (ParseInteger) after the command line is read:
  // an empty value, hexadecimal or an exponent is an error, never a default.
  // One name per meaning, here and in the GUI: --block is a block index, --shape a block shape.
  std::string id, n_text, shape, block_text, warp_text, steps_text, runs_text;
  bool json = false, csv = false;
  auto* stats = app.add_subcommand("stats", "simulate a whole launch and print its counters");
  stats->add_option("variant", id, "FAMILY/VARIANT, e.g. transpose/naive, or your own FILE.cu[:kernel]")->required();
  auto* stats_n = stats->add_option("--n", n_text, "problem size (default: the family's teaching size)");
  auto* stats_shape = stats->add_option("--shape", shape, "block shape X, XxY or XxYxZ (default: the variant's own)");
  std::string stats_block;  // the old name of --shape: refused with a pointer to the new one
  auto* stats_old_block = stats->add_option("--block", stats_block)->group("");
  stats->add_flag("--json", json, "JSON with Nsight Compute metric names");

  // Budgets against kernels that never end (each run out is a "no progress" finding), and the
  // largest launch simulated: the same engine options the GUI uses, adjustable here.
  std::string budget_text, watchdog_text, max_threads_text, threads_text;
  std::vector<CLI::Option*> budget_opts, watchdog_opts, max_threads_opts, threads_opts;
  auto given = [](const std::vector<CLI::Option*>& opts) {
    return std::any_of(opts.begin(), opts.end(), [](const CLI::Option* o) { return o->count() > 0; });
  };
  auto add_budgets = [&](CLI::App* c) {
    budget_opts.push_back(c->add_option("--progress-budget,--step-budget", budget_text,
                  "memory accesses and synchronisations one thread may make (default 16777216; --step-budget: its old name)"));
    watchdog_opts.push_back(c->add_option("--watchdog", watchdog_text,
                  "CPU seconds one thread may run without any access before it is stopped (default 5)"));
    max_threads_opts.push_back(
        c->add_option("--max-threads", max_threads_text, "largest launch simulated, in threads (default 268435456)"));
    threads_opts.push_back(c->add_option("--threads", threads_text,
                  "CPU threads that simulate blocks side by side; the results are the same for any number "
                  "(default: every core, " + std::to_string(DefaultThreads()) + " here)"));
  };
  add_budgets(stats);
  // The device whose caches and limits the memory hierarchy models.
  std::string device_text;
  auto add_device = [&](CLI::App* c) {
    c->add_option("--device", device_text,
                  "device profile for the cache model: " + sim::DeviceProfileNames() +
                      " (default: the device the recorded ncu figures come from)");
  };
  add_device(stats);
  bool no_caches = false;
  stats->add_flag("--no-caches", no_caches,
                  "skip the cache model (L1/L2/DRAM counters stay 0; the other counters are the same)");
  // What nvcc made of each line, beside the simulated counts (app/compiled_lines.h).
  bool as_compiled = false, no_compiled = false;
  std::string compiled_arch;
  stats->add_flag("--as-compiled", as_compiled,
                  "count the lines nvcc compiled differently (merged, kept in a register, predicated, hoisted) as "
                  "the compiled code executes them");
  auto add_compiled = [&](CLI::App* c) {
    c->add_flag("--no-compiled", no_compiled, "do not build the kernel with nvcc to compare each line with its SASS");
    c->add_option("--arch", compiled_arch, "architecture nvcc builds for, e.g. sm_90 (default: the GPU present, "
                                           "else sm_90, the recorded devices')");
  };
  add_compiled(stats);

  auto* trace = app.add_subcommand("trace", "one warp's memory instructions in order");
  trace->add_option("variant", id, "FAMILY/VARIANT or FILE.cu[:kernel]")->required();
  auto* trace_n = trace->add_option("--n", n_text, "problem size (default: the family's teaching size)");
  trace->add_option("--block", block_text, "linear block index")->required();
  trace->add_option("--warp", warp_text, "warp index within the block")->required();
  auto* trace_shape = trace->add_option("--shape", shape, "block shape X, XxY or XxYxZ (default: the variant's own)");
  auto* trace_steps = trace->add_option("--steps", steps_text, "how many instructions to print (default 64)");
  add_budgets(trace);
  add_device(trace);
  add_compiled(trace);
  auto* fmt = trace->add_option_group("format");
  fmt->add_flag("--json", json, "JSON");
  fmt->add_flag("--csv", csv, "CSV, one row per instruction");
  fmt->require_option(0, 1);

  std::string bench_what, bench_json;
  bool bench_recorded = false, bench_single = false;
  auto* bench = app.add_subcommand("bench", "time variants on the GPU and check them against the CPU");
  bench->add_option("what", bench_what, "FAMILY, FAMILY/VARIANT or FILE.cu[:kernel] (default: every variant)");
  auto* bench_n = bench->add_option("--n", n_text, "problem size (default: each family's timing size)");
  auto* bench_runs = bench->add_option("--runs", runs_text, "timed runs per variant, 1 to 1000 (default 10)");
  bench->add_option("--json", bench_json, "also write the results as JSON to this file");
  bench->add_flag("--recorded", bench_recorded, "show the results recorded on a device (assets/recorded)");
  bench->add_flag("--single-launch", bench_single,
                  "one plain launch per variant: no warm-up, no L2 flush (for ncu, compute-sanitizer)");

  std::string table_family;
  bool table_gpu = false;
  auto* table = app.add_subcommand("table", "seed 001's table for a family: one column per variant, simulated "
                                            "beside Nsight Compute's recorded figures");
  table->add_option("family", table_family, "FAMILY, e.g. shortcut")->required();
  auto* table_n = table->add_option("--n", n_text, "problem size (default: the family's teaching size)");
  table->add_flag("--gpu", table_gpu, "also time each variant on this machine's GPU (skipped where there is none)");
  auto* table_runs = table->add_option("--runs", runs_text, "timed runs per variant with --gpu (default 10)");
  add_budgets(table);
  add_device(table);
  auto* table_fmt = table->add_option_group("format");
  table_fmt->add_flag("--json", json, "JSON");
  table_fmt->add_flag("--csv", csv, "CSV, one row per counter and source");
  table_fmt->require_option(0, 1);

  std::string new_file;
  auto* new_cmd = app.add_subcommand("new", "write a commented template for your own kernel file (never overwrites)");
  new_cmd->add_option("file", new_file, "the file to create, e.g. my_kernel.cu")->required();
  std::string open_file;
  auto* open_cmd = app.add_subcommand("open", gui ? "open your own kernel file in the desktop program; it is recompiled "
                                                    "on every save (flags after the file go to warpscope gui)"
                                                  : "compile your own kernel file and print its counters");
  open_cmd->add_option("file", open_file, "FILE.cu or FILE.cu:kernel_name")->required();
  open_cmd->prefix_command();

  std::string sass_what, sass_arch;
  bool sass_all = false, sass_json = false;
  auto* sass = app.add_subcommand("sass", "what nvcc made of each kernel of a file: memory instructions by source "
                                          "line, registers and ptxas' messages (no GPU needed)");
  sass->add_option("what", sass_what, "FILE.cu, FILE.cu:kernel_name or FAMILY/VARIANT")->required();
  sass->add_option("--arch", sass_arch, "target architecture, e.g. sm_90 (default: the GPU present, else sm_90, "
                                        "the recorded devices')");
  sass->add_flag("--all", sass_all, "every instruction, in order, under its source line");
  sass->add_flag("--json", sass_json, "the same as JSON");

  CLI::App* gui_cmd = nullptr;
  CLI::App* lesson_cmd = nullptr;
  std::string lesson_file;
  if (gui) {
    lesson_cmd = app.add_subcommand("lesson", "open a lesson script in the desktop program (Page Down / Page Up between "
                                              "slides); --export DIR writes each slide as a PNG and a GIF, --check "
                                              "checks every slide; other flags go to warpscope gui");
    lesson_cmd->add_option("file", lesson_file, "the lesson, a JSON file (assets/lessons/ has one per lesson)")->required();
    lesson_cmd->prefix_command();
    gui_cmd = app.add_subcommand("gui", "open the desktop program (the default; warpscope gui --help lists its flags)");
    // Everything after "gui", --help included, is the GUI's own command line (GuiMain parses it).
    gui_cmd->set_help_flag();
    gui_cmd->prefix_command();
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "warpscope: " << e.what() << " (see warpscope --help)\n";
    return kBadArguments;
  }

  try {
    if (*list) {
      for (const auto& f : kernels::Catalog()) {
        std::cout << f.info.name << " — " << f.info.title << " (n: " << f.info.size_meaning
                  << ", teaching " << f.info.teaching_n << ", timing " << f.info.timing_n << ")\n";
        for (const auto& v : f.info.variants)
          std::cout << "  " << f.info.name << "/" << v.name << "  " << v.title << "\n";
      }
      return kOk;
    }
    if (*sass) return Sass(sass_what, sass_arch, sass_all, sass_json, std::cout);
    if (*new_cmd) {
      const std::string kernel = toolchain::WriteKernelTemplate(new_file);
      std::string taken;
      toolchain::KernelNameFor(new_file, &taken);
      std::cout << "wrote " << new_file;
      if (!taken.empty())
        std::cout << " (its kernel is named " << kernel << ": " << taken
                  << " is a name that C++, the dialect or the template already uses)";
      std::cout << "; see it with: warpscope open " << new_file << "\n";
      return kOk;
    }
    if (*open_cmd) {
      const auto v = kernels::FindVariant(open_file);  // compiles it: errors are reported here, at their lines
      if (gui) {
        std::vector<std::string> rest = open_cmd->remaining();
        std::vector<std::string> words{argv[0], "--variant", open_file};
        if (std::find(rest.begin(), rest.end(), "--compare") == rest.end()) words.push_back("--no-compare");
        words.insert(words.end(), rest.begin(), rest.end());
        std::vector<char*> args;
        for (auto& w : words) args.push_back(w.data());
        return gui(int(args.size()), args.data());
      }
      kernels::RunRequest r;
      r.n = v.TeachingN();
      sim::LaunchOptions opt;
      opt.selection = {sim::Selection::Kind::Block, 0, 0};
      // Configured as stats configures it: the compiled listing's registers, then its notes.
      const CompiledListing listing = ListingFor(v);
      ConfigureCaches(opt, v.Id(), "", ListingRegisters(listing, v));
      auto o = kernels::Simulate(v, r, opt);
      const CompilerView compiled = Compare(listing, v, o.trace);
      AddCompilerFindings(listing, compiled, o.trace);
      PrintStats(std::cout, v, r, o, &compiled);
      return cli::Fail(o);
    }
    const bool n_given = stats_n->count() || trace_n->count() || bench_n->count() || table_n->count();
    const int n = n_given ? int(ParseInteger("--n", n_text, 1, INT_MAX)) : 0;  // 0: the family's default
    if (stats_old_block->count())
      throw kernels::BadRequest("stats has no --block: the block shape is --shape (--block is a block index, in trace)");
    if ((stats_shape->count() || trace_shape->count()) && shape.empty())
      throw kernels::BadRequest("--shape '' is not X, XxY or XxYxZ with positive numbers");
    if (*stats || *trace || *table) {
      sim::LaunchOptions opt;
      if (given(budget_opts))
        opt.progress_budget = uint64_t(ParseInteger("--progress-budget", budget_text, 1, int64_t(1) << 40));
      if (given(watchdog_opts))
        opt.watchdog_seconds = double(ParseInteger("--watchdog", watchdog_text, 1, 3600));
      if (given(max_threads_opts))
        opt.max_threads = uint64_t(ParseInteger("--max-threads", max_threads_text, 1, int64_t(1) << 40));
      opt.threads = given(threads_opts) ? uint32_t(ParseInteger("--threads", threads_text, 1, 1024)) : DefaultThreads();
      opt.control = &g_control;
      std::signal(SIGINT, OnInterrupt);
      if (*table) {
        const int runs = table_runs->count() ? int(ParseInteger("--runs", runs_text, 1, 1000)) : 10;
        const int rc = cli::Table(table_family, n, table_gpu, runs, json, csv, opt, device_text);
        std::signal(SIGINT, SIG_DFL);
        return rc;
      }
      if (!compiled_arch.empty()) toolchain::TargetArch(compiled_arch);  // a bad --arch is an error, said at once
      auto v = kernels::FindVariant(id);
      // The compiled listing first: its registers decide residency (the cache model).
      std::optional<CompiledListing> listing;
      if (!no_compiled && !csv) listing = ListingFor(v, compiled_arch);
      ConfigureCaches(opt, v.Id(), device_text, listing ? ListingRegisters(*listing, v) : 0);
      opt.caches = !no_caches;
      kernels::RunRequest r;
      r.n = n ? n : v.TeachingN();
      kernels::ValidateSize(*v.family, r.n);
      if (!shape.empty()) r.block = ParseBlock(shape);
      size_t steps = 64;
      if (*stats) {
        // Block 0's warps are traced for the shape of each line's executions (the compiled comparison).
        opt.selection = {no_compiled ? sim::Selection::Kind::None : sim::Selection::Kind::Block, 0, 0};
        if (as_compiled && no_compiled) throw kernels::BadRequest("--as-compiled needs the compiled code: drop --no-compiled");
      } else {
        const auto block = uint32_t(ParseInteger("--block", block_text, 0, UINT32_MAX));
        const auto warp = uint32_t(ParseInteger("--warp", warp_text, 0, UINT32_MAX));
        if (trace_steps->count()) steps = size_t(ParseInteger("--steps", steps_text, 1, 1000000000));
        opt.selection = {sim::Selection::Kind::Warp, block, warp};
        // The grid follows from the launch: check the indices as it starts, before any block runs.
        opt.before_launch = [block, warp](const sim::LaunchShape& s) {
          if (block >= s.grid.Count())
            throw kernels::BadRequest("--block " + std::to_string(block) + " is outside the grid of " +
                                      std::to_string(s.grid.Count()) + " blocks (0 to " +
                                      std::to_string(s.grid.Count() - 1) + ")");
          const uint64_t warps = s.WarpsPerBlock();
          if (warp >= warps)
            throw kernels::BadRequest("--warp " + std::to_string(warp) + " is outside a block of " +
                                      std::to_string(s.block.Count()) + " threads (warps 0 to " +
                                      std::to_string(warps - 1) + ")");
        };
      }
      auto o = kernels::Simulate(v, r, opt);
      std::signal(SIGINT, SIG_DFL);
      if (g_control.cancel) {
        std::cerr << "warpscope: interrupted: the simulation of " << id << " stopped after "
                  << g_control.blocks_done.load() << " of " << g_control.blocks_total.load() << " blocks\n";
        return kFailed;
      }
      std::optional<CompilerView> compiled;
      if (listing) {
        compiled = Compare(*listing, v, o.trace);
        AddCompilerFindings(*listing, *compiled, o.trace);
      }
      const CompilerView* cv = compiled ? &*compiled : nullptr;
      if (*trace) {
        if (json) std::cout << TraceJson(o, steps, cv).dump(1) << "\n";
        else if (csv) PrintTraceCsv(std::cout, o, steps), PrintPrinted(std::cerr, o);
        else PrintTrace(std::cout, o, steps, cv);
      } else if (json) {
        std::cout << StatsJson(v, r, o, cv, as_compiled).dump(1) << "\n";
      } else {
        PrintStats(std::cout, v, r, o, cv, as_compiled);
      }
      return cli::Fail(o);
    }
    if (*bench) {
      const int runs = bench_runs->count() ? int(ParseInteger("--runs", runs_text, 1, 1000)) : 10;
      return cli::Bench(bench_what, n, runs, bench_json, bench_recorded, bench_single);
    }
    if (lesson_cmd && *lesson_cmd) {
      std::vector<std::string> words{argv[0], "--lesson", lesson_file};
      for (auto& s : lesson_cmd->remaining()) words.push_back(s);
      std::vector<char*> args;
      for (auto& w : words) args.push_back(w.data());
      return gui(int(args.size()), args.data());
    }
    if (gui_cmd && *gui_cmd) {
      std::vector<std::string> rest = gui_cmd->remaining();
      std::vector<char*> args{argv[0]};
      for (auto& s : rest) args.push_back(s.data());
      return gui(int(args.size()), args.data());
    }
    if (gui) return gui(1, argv);
    // No GUI in this build: summarise the default lesson.
    kernels::RunRequest r;
    for (const char* vid : {kDefaultVariant, kDefaultCompare}) {
      auto v = kernels::FindVariant(vid);
      r.n = v.TeachingN();
      sim::LaunchOptions opt;
      opt.selection.kind = sim::Selection::Kind::None;
      PrintStats(std::cout, v, r, kernels::Simulate(v, r, opt));
    }
    return kOk;
  } catch (const kernels::BadRequest& e) {
    std::cerr << "warpscope: " << e.what() << "\n";
    return kBadArguments;
  } catch (const std::bad_alloc&) {
    std::cerr << "warpscope: out of memory; try a smaller --n\n";
    return kFailed;
  } catch (const std::exception& e) {
    std::cerr << "warpscope: " << e.what() << "\n";
    return kFailed;
  }
}

}  // namespace ws::app
