// Layout rules of what the captions say (issue 21 item 4, on every shot): a badge's figures agree
// with one another, a whole block's count requests apart from the distinct sectors and lines they
// reach, "ideal" is the used bytes in sectors wherever it is written, and the memory chart puts
// Nsight Compute's figures beside the simulator's where a recording exists. The words the rules
// read are the badge's caption as placed ("badge", its name: NoBadgeTextIsCut checks that it
// is what the badge shows) and the chart's texts.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>

#include "kernels/catalog.h"
#include "kernels/recorded.h"

#include <vector>
#include "layout_shots.h"
#include "tests/one_spaced.h"

namespace ws::visual::layout_shots {
namespace {

using ::ws::test::OneSpaced;

// One badge's figures: the count its first line gives (a warp's sectors, or a whole block's sector
// requests), where they were served, and the share of the moved bytes used.
struct BadgeFigures {
  bool requests_apart = false;  // "N sector requests (ideal I) to S distinct sectors in L distinct lines"
  bool whole_block = false;     // "W warps · ..."
  long warps = 1, lines = 0, sectors = 0, requests = 0, ideal = -1;
  long served = -1;  // L1 hits + L2 hits + from DRAM, where the details give them
  long detail_count = -1;  // "N sectors:" or "N sector requests:" at the details' start
  double used_pct = -1;
};

bool ReadBadge(const std::string& caption, BadgeFigures* f) {
  static const std::regex warp(R"((\d+) lines? · (\d+) sectors? \(ideal (\d+)\))");
  static const std::regex block(R"((?:(\d+) warps · (?:.*? · )?)?(\d+) sector requests? \(ideal (\d+)\) to (\d+) distinct sectors? in (\d+) distinct lines?)");
  static const std::regex detail(R"((?:^| · )(\d+) sectors?(?: requests)?: ((?:\d+ L1 hits?|\d+ L2 hits?|\d+ from DRAM)(?:, (?:\d+ L1 hits?|\d+ L2 hits?|\d+ from DRAM))*))");
  static const std::regex served_part(R"((\d+) (?:L1 hits?|L2 hits?|from DRAM))");
  static const std::regex used(R"(([\d.]+)% of bytes moved are used)");
  std::smatch m;
  if (std::regex_search(caption, m, block)) {
    f->requests_apart = true;
    f->whole_block = m[1].matched;
    f->warps = m[1].matched ? std::stol(m[1]) : 1;
    f->requests = std::stol(m[2]), f->ideal = std::stol(m[3]);
    f->sectors = std::stol(m[4]), f->lines = std::stol(m[5]);
  } else if (std::regex_search(caption, m, warp)) {
    f->lines = std::stol(m[1]), f->sectors = std::stol(m[2]), f->ideal = std::stol(m[3]);
  } else {
    return false;
  }
  if (std::regex_search(caption, m, detail)) {
    f->detail_count = std::stol(m[1]);
    const std::string parts = m[2];
    f->served = 0;
    for (std::sregex_iterator i(parts.begin(), parts.end(), served_part), e; i != e; ++i) f->served += std::stol((*i)[1]);
  }
  if (std::regex_search(caption, m, used)) f->used_pct = std::stod(m[1]);
  return true;
}

// A badge's counts agree with one another: lines hold the distinct sectors (1 to 4 sectors a line);
// sector requests are worded apart from the distinct sectors only where they are more (a whole
// block; one warp's serialised atomics: "1 line · 32 sectors" said 32 sectors of one line); the
// served-from counts lie between the distinct sectors and the requests; and "ideal" is
// the used bytes in 32-byte sectors (IdealDefinition, sim/rule_text.h): the details' share of the
// moved bytes used times the sectors moved, rounded up (a block: each warp's rounded up, so up
// to one more a warp). A caption that called a block's requests its lines ("8 warps · 128 lines
// · 128 sectors (ideal 32)" for 16 distinct lines) fails the second, an ideal of 4 beside v0's 16
// floats in 2 sectors the last.
TEST(LayoutRules, ABadgesFiguresAgree) {
  int read = 0;
  JudgeEveryLayout("badge_figures", [&](const Shot& s, Failures& failed) {
    for (const auto& b : s.layout["placed"]) {
      if (b["kind"] != "badge") continue;
      const std::string caption = OneSpaced(b["name"].get<std::string>());
      BadgeFigures f;
      if (!ReadBadge(caption, &f)) continue;
      ++read;
      std::ostringstream d;
      const long moved = f.requests_apart ? f.requests : f.sectors;
      if (f.lines < 1 || f.sectors < f.lines || f.sectors > 4 * f.lines) d << "sectors not within their lines' 1-4 each; ";
      if (f.requests_apart && f.requests <= f.sectors && !f.whole_block) d << "requests worded apart, yet as many as the distinct sectors; ";
      if (f.requests_apart && f.requests < f.sectors) d << "fewer requests than distinct sectors; ";
      // Where the details break the count down, they count each warp's distinct sectors: a
      // warp's, or a block's requests (each warp's sectors distinct but for atomics); at least
      // the distinct sectors, at most the requests.
      if (f.served >= 0 && (f.served < f.sectors || f.served > moved))
        d << "served from " << f.served << " for " << f.sectors << " distinct sectors and " << moved << " moved; ";
      if (f.detail_count >= 0 && f.detail_count != f.served) d << "details count " << f.detail_count << " for " << f.served << " served; ";
      if (f.used_pct >= 0) {
        const double used = f.used_pct / 100.0 * double(moved);  // the used bytes in sectors
        const double slack = 0.0005 * double(moved) + 1e-6;      // the share is printed to 0.1 %
        const double most = used + double(f.warps);
        if (double(f.ideal) < used - slack || double(f.ideal) >= most + slack)
          d << "ideal " << f.ideal << " for " << used << " sectors of used bytes; ";
      }
      if (!d.str().empty()) Fail(failed, s, b["pane"].get<std::string>() + " \"" + caption + "\": " + d.str());
    }
  });
  EXPECT_GT(read, 0) << "no badge on the shots gave a count to check";
}

// A whole block's badge says requests and distinct sectors and lines apart ("8 warps · 128 sector
// requests (ideal 16) to 16 distinct sectors in 16 distinct lines"), on the whole-block shots
// ("+l1block", "+l2block"), never a warp's wording ("N lines · N sectors") over 8 warps.
TEST(LayoutRules, AWholeBlocksBadgeCountsRequestsApartFromDistinctLines) {
  int blocks = 0;
  JudgeEveryLayout("whole_block_badge", [&](const Shot& s, Failures& failed) {
    if (s.family.find("block") == std::string::npos) return;
    for (const auto& b : s.layout["placed"]) {
      if (b["kind"] != "badge") continue;
      BadgeFigures f;
      const std::string caption = OneSpaced(b["name"].get<std::string>());
      if (!ReadBadge(caption, &f) || !f.whole_block) Fail(failed, s, b["pane"].get<std::string>() + " \"" + caption + "\": not a whole block's wording");
      else ++blocks;
    }
  });
  EXPECT_GT(blocks, 0) << "no whole-block shot";
}

// The memory chart ("+chart" shots): where Nsight Compute's figures of the pane's variant at its n
// are shipped (kernels/recorded.h), every level's figure names both, "simulated" beside "measured".
TEST(LayoutRules, TheChartPutsMeasuredFiguresBesideTheSimulators) {
  int figures = 0;
  JudgeEveryLayout("chart_measured", [&](const Shot& s, Failures& failed) {
    if (s.family.size() < 6 || s.family.compare(s.family.size() - 6, 6, "+chart") != 0) return;
    for (const auto& t : s.layout["text"]) {
      const std::string text = OneSpaced(t["text"].get<std::string>());
      if (text.rfind("L1 hits:", 0) != 0 && text.rfind("L2 hits:", 0) != 0 && text.rfind("read:", 0) != 0) continue;
      ++figures;
      if (text.find("simulated") == std::string::npos || text.find("measured") == std::string::npos)
        Fail(failed, s, Quote(t) + ": not both simulated and measured");
    }
  });
  EXPECT_GT(figures, 0) << "no chart figure on the +chart shots";
}

// The shots' chart is of the first family's first two variants at their teaching size; the rule
// above holds them to having both figures, so the shipped files must have them there.
TEST(LayoutRules, TheChartShotsVariantsHaveRecordings) {
  std::vector<std::string> problems;
  const auto files = kernels::LoadRecordedNcuFiles(std::string(WARPSCOPE_SOURCE_DIR) + "/assets/recorded/ncu", &problems);
  EXPECT_TRUE(problems.empty()) << (problems.empty() ? std::string() : problems.front());
  ASSERT_FALSE(kernels::Catalog().empty());
  const auto& f = kernels::Catalog().front();
  ASSERT_GE(f.info.variants.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const std::string id = f.info.name + "/" + f.info.variants[i].name;
    EXPECT_TRUE(kernels::FindRecordedRun(files, id, kernels::FindVariant(id).TeachingN())) << id;
  }
}

}  // namespace
}  // namespace ws::visual::layout_shots
