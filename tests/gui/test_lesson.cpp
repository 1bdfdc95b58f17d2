// Lesson scripts: every shipped slide resolves (variants exist, fields known, steps and
// iterations in range), captions are filled from the recorded timings, and each kind of bad file
// gets a message naming file, slide and field.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/lesson.h"
#include "app/lesson_figures.h"
#include "kernels/catalog.h"
#include "visual/steps.h"

namespace ws::app {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> ShippedLessons() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(std::string(WARPSCOPE_SOURCE_DIR) + "/assets/lessons"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  return files;
}

// One lesson per seed text: coalescing, registers and float4, all pairs, divergence and alignment,
// transpose.
TEST(Lesson, FiveLessonsShip) { EXPECT_EQ(ShippedLessons().size(), 5u); }

TEST(Lesson, EveryShippedSlideResolves) {
  for (const auto& path : ShippedLessons()) {
    std::string why;
    const auto lesson = LoadLesson(path, &why);
    ASSERT_TRUE(lesson) << why;
    EXPECT_FALSE(lesson->title.empty()) << path;
    EXPECT_GE(lesson->slides.size(), 4u) << path;
    for (const auto& problem : CheckLessonSteps(*lesson)) ADD_FAILURE() << problem;
  }
}

// The README's table of slide fields (under "Writing a lesson"): the backquoted names of its first
// column, "`n`, `shape`" being two.
std::set<std::string> ReadmeSlideFields() {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/README.md");
  std::set<std::string> fields;
  bool section = false, table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("**Writing a lesson.**") != std::string::npos) section = true;
    if (!section) continue;
    if (line.rfind("| field |", 0) == 0) table = true;
    else if (table && line.rfind("|", 0) != 0) break;
    if (!table) continue;
    const std::string cell = line.substr(1, line.find('|', 1) - 1);
    for (size_t a = cell.find('`'); a != std::string::npos; a = cell.find('`', cell.find('`', a + 1) + 1))
      fields.insert(cell.substr(a + 1, cell.find('`', a + 1) - a - 1));
  }
  return fields;
}

TEST(Lesson, ReadmeListsEveryFieldOfASlide) {
  std::set<std::string> known;
  std::stringstream names(SlideFieldNames());
  for (std::string f; std::getline(names, f, ',');) known.insert(f.substr(f.find_first_not_of(' ')));
  EXPECT_EQ(ReadmeSlideFields(), known);
}

// Writes `text` as a lesson and returns what loading and checking it says (empty: it is fine).
std::string Problem(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(WARPSCOPE_TEST_OUT) / "lessons";
  fs::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << text;
  std::string why;
  const auto lesson = LoadLesson(path, &why);
  if (!lesson) return why;
  const auto problems = CheckLessonSteps(*lesson);
  return problems.empty() ? "" : problems.front();
}

// A slide that is fine, to put a bad one after.
const std::string kGood = R"({"variant": "transpose/shared", "caption": "fine"})";

void ExpectSays(const std::string& said, const std::vector<std::string>& parts) {
  EXPECT_FALSE(said.empty());
  for (const auto& p : parts) EXPECT_NE(said.find(p), std::string::npos) << "'" << p << "' missing from: " << said;
}

TEST(Lesson, MalformedJsonNamesLineAndColumn) {
  // Line 3 is {"variant": "transpose/shared", "caption": "x",}: 1 + 9 + 2 + 18 + 2 + 9 + 2 + 3
  // characters up to "x", the stray comma 47th, the '}' where the parser stops 48th.
  ExpectSays(Problem("comma.json", "{\n\"slides\": [\n{\"variant\": \"transpose/shared\", \"caption\": \"x\",}\n]}"),
             {"comma.json:3:48:", "not valid JSON"});
  ExpectSays(Problem("empty.json", ""), {"empty.json:", "not valid JSON"});
}

TEST(Lesson, UnknownVariantNamesSlideAndField) {
  ExpectSays(Problem("variant.json", "{\"slides\": [" + kGood + ", {\"variant\": \"transpose/nope\", \"caption\": \"x\"}]}"),
             {"variant.json: slide 2: \"variant\": unknown variant 'transpose/nope'", "transpose/shared_padded"});
  ExpectSays(Problem("family.json", R"({"slides": [{"variant": "transpose/shared", "compare": "pairs/v1", "caption": "x"}]})"),
             {"family.json: slide 1: \"compare\":", "not in transpose"});
}

// A kernel file is looked for beside the script (WARPSCOPE_TEST_OUT/lessons, where Problem writes
// it), not in the folder the program runs in.
TEST(Lesson, KernelFileIsFoundBesideTheScript) {
  const std::string beside = (fs::path(WARPSCOPE_TEST_OUT) / "lessons" / "missing.cu").string();
  ExpectSays(Problem("own.json", R"({"slides": [{"variant": "missing.cu:k", "caption": "x"}]})"),
             {"own.json: slide 1: \"variant\":", beside});
}

TEST(Lesson, UnknownFieldNamesItAndTheKnownOnes) {
  ExpectSays(Problem("field.json", R"({"slides": [{"variant": "transpose/shared", "stpe": 2, "caption": "x"}]})"),
             {"field.json: slide 1: \"stpe\": not a field of a slide", SlideFieldNames()});
  ExpectSays(Problem("top.json", R"({"slide": []})"), {"top.json: \"slide\": not a field of a lesson"});
}

TEST(Lesson, WrongTypesAndMissingFieldsAreSaid) {
  ExpectSays(Problem("type.json", R"({"slides": [{"variant": "transpose/shared", "step": "2", "caption": "x"}]})"),
             {"type.json: slide 1: \"step\": must be a whole number"});
  ExpectSays(Problem("follow.json", R"({"slides": [{"variant": "transpose/shared", "follow": "sideways", "caption": "x"}]})"),
             {"slide 1: \"follow\": 'sideways' is none of lockstep, role, alone"});
  ExpectSays(Problem("caption.json", R"({"slides": [{"variant": "transpose/shared"}]})"), {"slide 1: \"caption\": missing"});
  ExpectSays(Problem("noslides.json", R"({"title": "t"})"), {"noslides.json: \"slides\":"});
}

// Worked from assets/recorded/NVIDIA_H200.json: shortcut/v0 ms_median 141.824, v1 27.308;
// 141.824 / 27.308 = 5.19, written with one decimal below 10: "5.2×". transpose/shared_rows
// 0.147024 and transpose/copy 0.272304, three significant digits: "0.147 ms", "0.272 ms".
TEST(Lesson, ShippedCaptionsAreFilledFromTheRecordedTimes) {
  const auto caption = [](const std::string& file, size_t slide) {
    std::string why;
    const auto lesson = LoadLesson(std::string(WARPSCOPE_SOURCE_DIR) + "/assets/lessons/" + file, &why);
    EXPECT_TRUE(lesson) << why;
    return lesson && slide < lesson->slides.size() ? lesson->slides[slide].caption : why;
  };
  EXPECT_EQ(caption("1-coalescing.json", 6),
            "On the NVIDIA H200, v1 is 5.2\u00d7 faster than v0, not 16\u00d7: L1 already holds most of the lines v0 asks for "
            "again (the hit rates in the chart).");
  EXPECT_EQ(caption("5-transpose.json", 5),
            "With 32x4 threads moving 8 elements each, more loads are in flight: 0.147 ms on the NVIDIA H200, faster even "
            "than the copy of one element per thread (0.272 ms).");
}

// Two reports: the first lacks v1, so both figures come from the second, whose device is named.
TEST(Lesson, CaptionFiguresComeFromOneReportThatHoldsThemAll) {
  const auto report = [](const std::string& device, std::vector<std::pair<std::string, double>> times) {
    kernels::RecordedFile f;
    f.path = device + ".json";
    f.report.device = device;
    for (const auto& [v, ms] : times) {
      kernels::Timing t;
      t.variant = v;
      t.ms_median = ms;
      f.report.timings.push_back(t);
    }
    return f;
  };
  const std::vector<kernels::RecordedFile> files = {report("A100", {{"shortcut/v0", 300}}),
                                                    report("H100", {{"shortcut/v0", 120}, {"shortcut/v1", 40}})};
  std::string why;
  // 120 / 40 = 3: "3.0×"; 40 with three significant digits: "40 ms".
  EXPECT_EQ(FillCaption("{device}: v1 {ms:shortcut/v1}, {speedup:shortcut/v1:shortcut/v0}", files, &why).value_or(why),
            "H100: v1 40 ms, 3.0\u00d7");
  EXPECT_FALSE(FillCaption("{ms:shortcut/v2} on the {device}", files, &why));
  EXPECT_EQ(why, "{ms:shortcut/v2}: shortcut/v2 has no recorded time in A100.json");
  EXPECT_FALSE(FillCaption("{ms:shortcut/v1}", files, &why));
  EXPECT_NE(why.find("not {device}"), std::string::npos) << why;
  EXPECT_FALSE(FillCaption("{device}", {}, &why));
  EXPECT_NE(why.find("no recorded timings"), std::string::npos) << why;
}

TEST(Lesson, UnknownPlaceholderNamesSlideAndField) {
  ExpectSays(Problem("placeholder.json", "{\"slides\": [" + kGood +
                                             R"(, {"variant": "transpose/copy", "caption": "{mss:transpose/copy} on the {device}"}]})"),
             {"placeholder.json: slide 2: \"caption\": {mss:transpose/copy}: not a placeholder", kCaptionPlaceholders});
  ExpectSays(Problem("speedup.json", R"({"slides": [{"variant": "transpose/copy", "caption": "{speedup:transpose/copy} {device}"}]})"),
             {"slide 1: \"caption\": {speedup:transpose/copy}: not a placeholder"});
  ExpectSays(Problem("unclosed.json", R"({"slides": [{"variant": "transpose/copy", "caption": "{ms:transpose/copy"}]})"),
             {"slide 1: \"caption\": '{' at character 1 is not closed"});
  ExpectSays(Problem("unrecorded.json", R"({"slides": [{"variant": "transpose/copy", "caption": "{ms:transpose/nope} on the {device}"}]})"),
             {"slide 1: \"caption\": {ms:transpose/nope}: transpose/nope has no recorded time in", "NVIDIA_H200.json"});
}

// transpose/shared's warp has 4 steps (its kernel: load in, store tile, load tile, store out).
TEST(Lesson, StepOutOfRangeNamesTheWarpsSteps) {
  ExpectSays(Problem("step.json", "{\"slides\": [" + kGood +
                                      ", {\"variant\": \"transpose/shared\", \"step\": 4, \"caption\": \"x\"}]}"),
             {"step.json: slide 2: \"step\": 4 is past the last step", "(4 steps, 0..3)"});
  EXPECT_EQ(Problem("last.json", R"({"slides": [{"variant": "transpose/shared", "step": 3, "caption": "x"}]})"), "");
}

// transpose/shared has no loop: no line has a next iteration.
TEST(Lesson, IterationPastTheLoopIsSaid) {
  ExpectSays(Problem("iter.json", R"({"slides": [{"variant": "transpose/shared", "iteration": 1, "caption": "x"}]})"),
             {"iter.json: slide 1: \"iteration\": 1 asked for", "only 0 loop iterations"});
}

// shortcut/v0 launches 16x16 threads: 8 warps per block, 0..7.
TEST(Lesson, WarpOutsideTheBlockIsSaid) {
  ExpectSays(Problem("warp.json", R"({"slides": [{"variant": "shortcut/v0", "warp": 8, "caption": "x"}]})"),
             {"warp.json: slide 1: \"warp\": 8 is outside a block of 8 warps"});
  EXPECT_EQ(Problem("warp7.json", R"({"slides": [{"variant": "shortcut/v0", "warp": 7, "caption": "x"}]})"), "");
}

// Block 0 of a variant at its family's teaching size, as a slide simulates it (no caches).
kernels::SimOutcome Block0(const char* id) {
  kernels::RunRequest r;
  r.n = kernels::FindVariant(id).TeachingN();
  sim::LaunchOptions opt;
  opt.selection = {sim::Selection::Kind::Block, 0, 0};
  opt.caches = false;
  return kernels::Simulate(kernels::FindVariant(id), r, opt);
}

// A and B of a slide at A's step `step`, B following as the slide says (none: by the rule).
struct Pair {
  kernels::SimOutcome a, b;
  std::vector<uint32_t> a_steps, b_steps;
  Pair(const char* va, const char* vb) : a(Block0(va)), b(Block0(vb)) {
    a_steps = visual::WarpSteps(a.trace, 0, 0);
    b_steps = visual::WarpSteps(b.trace, 0, 0);
  }
  SlideCursor At(int step, std::optional<visual::Follow> follow) const {
    Slide s;
    s.variant = "A", s.compare = "B", s.step = step, s.follow = follow;
    std::string why;
    const auto at = ResolveSlide(s, a.trace, a_steps, &b.trace, &b_steps, &why);
    EXPECT_TRUE(at) << why;
    return at.value_or(SlideCursor{});
  }
  std::string RoleA(int step) const { return visual::RoleName(a.trace, a.trace.instructions[a_steps.at(size_t(step))]); }
  std::string RoleB(int step) const { return visual::RoleName(b.trace, b.trace.instructions[b_steps.at(size_t(step))]); }
};

// shortcut/v3 beside v4, which does the same with 16-byte accesses: both warps load t and d,
// store them into xx and yy, read yy and xx, store r, so a slide that names no follow mode
// follows by role. v3's stage is 16 steps of copying (4 rows x: load t, store xx, load d, store
// yy), then per row f 8 reads of yy and 8 of xx: step 24 is its first read of xx. v4's stage
// copies one float4 of each (4 steps) and reads 2 of yy and 2 of xx per row: its first read of
// xx is step 6. In lockstep B's step 24 is the next stage's first read of yy (4 + 4 x 4 + 4 = 24),
// the other array.
TEST(Lesson, SlideWithoutAFollowModePairsShortcutV3AndV4ByRole) {
  const Pair p("shortcut/v3", "shortcut/v4");
  const SlideCursor by_rule = p.At(24, std::nullopt);
  EXPECT_EQ(by_rule.follow, visual::Follow::Role);
  EXPECT_EQ(by_rule.a, 24);
  EXPECT_EQ(p.RoleA(24), "ld.shared xx");
  EXPECT_EQ(by_rule.b, 6);
  EXPECT_EQ(p.RoleB(by_rule.b), "ld.shared xx");
  // The slide's own mode is kept: in lockstep B stands at its step 24.
  const SlideCursor lock = p.At(24, visual::Follow::Lockstep);
  EXPECT_EQ(lock.follow, visual::Follow::Lockstep);
  EXPECT_EQ(lock.b, 24);
  EXPECT_EQ(p.RoleB(24), "ld.shared yy");
}

// pairs/v1 beside v3 (block 0 at n = 256, all in range): v1's warp loads a and b 32 times and
// ends with its atomicAdd on ans, step 64 (its result unused: a reduction, RED, as nvcc emits it). v3 loads b once and stores it into the tile _b, then
// loads a and reads _b 32 times, and after the shuffles lane 0 adds: step 2 + 64 = 66. Each of
// v1's roles is in v3, so B follows by role and the atomic stands beside the atomic; in lockstep
// v3's step 64 is a load in its loop.
TEST(Lesson, SlideWithoutAFollowModePutsPairsV1sAtomicBesideV3s) {
  const Pair p("pairs/v1", "pairs/v3");
  ASSERT_EQ(p.a_steps.size(), 65u);
  ASSERT_EQ(p.b_steps.size(), 67u);
  const SlideCursor at = p.At(64, std::nullopt);
  EXPECT_EQ(at.follow, visual::Follow::Role);
  EXPECT_EQ(p.RoleA(64), "red.global ans");
  EXPECT_EQ(at.b, 66);
  EXPECT_EQ(p.RoleB(66), "red.global ans");
  EXPECT_EQ(p.RoleB(64).rfind("ld.", 0), 0u) << p.RoleB(64);
}

// divergence/divergent beside split: each iteration of divergent's loop loads array[i] for the
// test, then each branch loads and stores it (steps 0, 1-2, 3-4: step 2 is its first store);
// split's first loop loads and stores (step 1 its first store, step 2 the next load). Their roles
// are the same two, so B follows by role: the store beside the store.
TEST(Lesson, SlideWithoutAFollowModePutsDivergentsStoreBesideSplits) {
  const Pair p("divergence/divergent", "divergence/split");
  const SlideCursor at = p.At(2, std::nullopt);
  EXPECT_EQ(at.follow, visual::Follow::Role);
  EXPECT_EQ(p.RoleA(2), "st.global array");
  EXPECT_EQ(at.b, 1);
  EXPECT_EQ(p.RoleB(1), "st.global array");
  EXPECT_EQ(p.RoleB(2), "ld.global array");  // where lockstep would put it
}

// Led by the tiled transpose, the naive one has no tile to pair with: the rule says lockstep.
TEST(Lesson, SlideWithoutAFollowModeGoesInLockstepWhereRolesDiffer) {
  const Pair p("transpose/shared", "transpose/naive");
  const SlideCursor at = p.At(1, std::nullopt);
  EXPECT_EQ(at.follow, visual::Follow::Lockstep);
  EXPECT_EQ(p.RoleA(1), "st.shared tile");
  EXPECT_EQ(at.b, 1);
}

}  // namespace
}  // namespace ws::app
