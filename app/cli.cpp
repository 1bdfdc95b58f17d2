// The command-line interface. Every failure is one line on stderr and a distinct exit code.
#include "app/cli.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <optional>
#include <iostream>
#include <sstream>

#include "app/report.h"
#include "kernels/catalog.h"
#include "kernels/gpu_runner.h"

namespace ws::app {
namespace {

kernels::Block ParseBlock(const std::string& s) {
  kernels::Block b;
  if (s.empty()) return b;
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
    throw kernels::BadRequest("block shape '" + s + "' is not X, XxY or XxYxZ with positive numbers");
  b.x = v[0]; b.y = v[1]; b.z = v[2];
  return b;
}

int Fail(const kernels::SimOutcome& o) {
  for (const auto& f : o.trace.findings)
    if (sim::IsError(f.kind)) return kFailed;
  return o.check.passed ? kOk : kFailed;
}

}  // namespace

int RunCli(int argc, char** argv, const GuiEntry& gui) {
  CLI::App app{"warpscope: how GPU warps touch memory, instruction by instruction"};
  app.require_subcommand(0, 1);

  auto* list = app.add_subcommand("list", "families and variants");

  std::string id;
  std::optional<int> n;
  std::string block_shape;
  bool json = false, csv = false;
  auto* stats = app.add_subcommand("stats", "simulate a whole launch and print its counters");
  stats->add_option("variant", id, "FAMILY/VARIANT, e.g. transpose/naive")->required();
  stats->add_option("--n", n, "problem size (default: the family's teaching size)");
  stats->add_option("--block", block_shape, "block shape XxY (default: the variant's own)");
  stats->add_flag("--json", json, "JSON with Nsight Compute metric names");

  unsigned trace_block = 0, trace_warp = 0;
  size_t steps = 64;
  auto* trace = app.add_subcommand("trace", "one warp's memory instructions in order");
  trace->add_option("variant", id, "FAMILY/VARIANT")->required();
  trace->add_option("--n", n, "problem size (default: the family's teaching size)");
  trace->add_option("--block", trace_block, "linear block index")->required();
  trace->add_option("--warp", trace_warp, "warp index within the block")->required();
  trace->add_option("--shape", block_shape, "block shape XxY (default: the variant's own)");
  trace->add_option("--steps", steps, "how many instructions to print (default 64)");
  auto* fmt = trace->add_option_group("format");
  fmt->add_flag("--json", json, "JSON");
  fmt->add_flag("--csv", csv, "CSV, one row per instruction");
  fmt->require_option(0, 1);

  std::vector<std::string> gui_args;
  CLI::App* gui_cmd = nullptr;
  if (gui) {
    gui_cmd = app.add_subcommand("gui", "open the desktop program (the default)");
    gui_cmd->allow_extras();
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
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
    if (*stats || *trace) {
      auto v = kernels::FindVariant(id);
      kernels::RunRequest r;
      r.n = n ? *n : v.family->info.teaching_n;
      r.block = ParseBlock(block_shape);
      sim::LaunchOptions opt;
      if (*stats) {
        opt.selection.kind = sim::Selection::Kind::None;
      } else {
        opt.selection = {sim::Selection::Kind::Warp, trace_block, trace_warp};
      }
      auto o = kernels::Simulate(v, r, opt);
      if (*trace) {
        const auto& s = o.trace.shape;
        if (trace_block >= s.grid.Count())
          throw kernels::BadRequest("block " + std::to_string(trace_block) + " is outside the grid of " +
                                    std::to_string(s.grid.Count()) + " blocks");
        if (trace_warp * 32 >= s.block.Count())
          throw kernels::BadRequest("warp " + std::to_string(trace_warp) + " is outside a block of " +
                                    std::to_string(s.block.Count()) + " threads");
        if (json) std::cout << TraceJson(o, steps).dump(1) << "\n";
        else if (csv) PrintTraceCsv(std::cout, o, steps);
        else PrintTrace(std::cout, o, steps);
      } else if (json) {
        std::cout << StatsJson(v, r, o).dump(1) << "\n";
      } else {
        PrintStats(std::cout, v, r, o);
      }
      return Fail(o);
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
      r.n = v.family->info.teaching_n;
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
