// Lesson scripts: reading and checking one (see lesson.h).
#include "app/lesson.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "app/cli.h"
#include "app/lesson_figures.h"
#include "kernels/catalog.h"
#include "kernels/user_file.h"
#include "visual/stepping.h"

namespace ws::app {
namespace {

using nlohmann::json;

// A problem in the file: thrown while reading, caught by LoadLesson.
struct Bad {
  std::string where, what;  // "slide 3: \"step\"", "must be a whole number"
};

// The fields of a slide, in the order the README lists them.
const std::vector<std::string>& SlideFields() {
  static const std::vector<std::string> f = {"variant", "compare", "n",      "shape",   "block", "warp",
                                             "step",    "iteration", "whole_block", "follow", "side", "present",
                                             "caption", "play"};
  return f;
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string SlideName(size_t index) { return "slide " + std::to_string(index + 1); }

int WholeNumber(const json& j, const std::string& where, int lo, int hi) {
  if (!j.is_number_integer()) throw Bad{where, "must be a whole number, not " + j.dump()};
  const int64_t v = j.get<int64_t>();
  if (v < lo || v > hi) throw Bad{where, std::to_string(v) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi)};
  return int(v);
}

std::string Text(const json& j, const std::string& where) {
  if (!j.is_string()) throw Bad{where, "must be a string in quotes, not " + j.dump()};
  return j.get<std::string>();
}

bool Flag(const json& j, const std::string& where) {
  if (!j.is_boolean()) throw Bad{where, "must be true or false, not " + j.dump()};
  return j.get<bool>();
}

// One of `choices`, by name.
template <typename T>
T Choice(const json& j, const std::string& where, const std::vector<std::pair<std::string, T>>& choices) {
  const std::string s = Text(j, where);
  std::vector<std::string> names;
  for (const auto& [name, value] : choices) {
    if (s == name) return value;
    names.push_back(name);
  }
  throw Bad{where, "'" + s + "' is none of " + Join(names)};
}

// A variant by the catalog's lookup; a kernel file (a lecturer's own, "mine.cu" or "mine.cu:kernel",
// as the window's open-file takes) is found relative to the script's folder, and compiled now, so
// that its errors are said before the window opens. `id` becomes the file's path as opened.
kernels::VariantRef Variant(std::string& id, const std::string& where, const std::filesystem::path& script_dir) {
  if (kernels::IsKernelFileRef(id)) {
    std::string file, kernel;
    kernels::SplitKernelFileRef(id, &file, &kernel);
    if (std::filesystem::path(file).is_relative()) file = (script_dir / file).lexically_normal().string();
    id = kernel.empty() ? file : file + ":" + kernel;
  }
  try {
    return kernels::FindVariant(id);
  } catch (const std::exception& e) {
    throw Bad{where, e.what()};
  }
}

Slide ReadSlide(const json& j, size_t index, const std::filesystem::path& script_dir) {
  const std::string name = SlideName(index);
  if (!j.is_object()) throw Bad{name, "must be an object {\"variant\": ..., \"caption\": ...}"};
  for (const auto& [key, value] : j.items()) {
    (void)value;
    bool known = false;
    for (const auto& f : SlideFields()) known |= f == key;
    if (!known) throw Bad{name + ": \"" + key + "\"", "not a field of a slide (known: " + Join(SlideFields()) + ")"};
  }
  const auto at = [&](const char* field) { return name + ": \"" + field + "\""; };
  Slide s;
  if (!j.contains("variant")) throw Bad{at("variant"), "missing: every slide names variant A"};
  if (!j.contains("caption")) throw Bad{at("caption"), "missing: every slide has a caption"};
  s.variant = Text(j["variant"], at("variant"));
  const auto a = Variant(s.variant, at("variant"), script_dir);
  if (j.contains("compare") && !j["compare"].is_null()) {
    s.compare = Text(j["compare"], at("compare"));
    const auto b = Variant(s.compare, at("compare"), script_dir);
    // A kernel file may be set beside any variant, as the window's "open as B" does.
    if (b.family != a.family && !a.family->from_file && !b.family->from_file)
      throw Bad{at("compare"), "'" + s.compare + "' is not in " + a.family->info.name + ", the family of " + s.variant};
  }
  if (j.contains("n")) {
    s.n = WholeNumber(j["n"], at("n"), 1, a.family->info.max_sim_n);
  }
  if (j.contains("shape")) {
    s.shape = Text(j["shape"], at("shape"));
    try {
      ParseBlock(s.shape);
    } catch (const std::exception& e) {
      std::string what = e.what();
      if (what.rfind("--shape ", 0) == 0) what.erase(0, 8);
      throw Bad{at("shape"), what};
    }
  }
  if (j.contains("block")) s.block = WholeNumber(j["block"], at("block"), 0, 1 << 30);
  if (j.contains("warp")) s.warp = WholeNumber(j["warp"], at("warp"), 0, 31);
  if (j.contains("step")) s.step = WholeNumber(j["step"], at("step"), 0, 1 << 30);
  if (j.contains("iteration")) s.iteration = WholeNumber(j["iteration"], at("iteration"), -100000, 100000);
  if (j.contains("whole_block")) s.whole_block = Flag(j["whole_block"], at("whole_block"));
  if (j.contains("follow"))
    s.follow = Choice<visual::Follow>(j["follow"], at("follow"),
                                      {{"lockstep", visual::Follow::Lockstep}, {"role", visual::Follow::Role},
                                       {"alone", visual::Follow::Alone}});
  if (j.contains("side"))
    s.side = Choice<std::string>(j["side"], at("side"), {{"counters", "counters"}, {"chart", "chart"}, {"l1", "l1"}, {"l2", "l2"}});
  if (j.contains("present")) s.present = Flag(j["present"], at("present"));
  s.caption = Text(j["caption"], at("caption"));
  if (s.caption.empty()) throw Bad{at("caption"), "empty: say what the slide shows"};
  if (j.contains("play")) {
    StepRange r;
    std::string why;
    if (!ParseStepRange(Text(j["play"], at("play")), &r, &why)) throw Bad{at("play"), why};
    s.play = r;
  }
  return s;
}

}  // namespace

std::string SlideFieldNames() { return Join(SlideFields()); }

std::optional<Lesson> LoadLesson(const std::string& path, std::string* why) {
  std::ifstream in(path);
  if (!in) {
    *why = path + ": cannot be read";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  json doc;
  try {
    doc = json::parse(text.str());
  } catch (const json::parse_error& e) {
    // e.byte is the offset of the problem: say its line and column.
    const std::string s = text.str();
    const size_t at = std::min<size_t>(e.byte ? e.byte - 1 : 0, s.size());
    int line = 1, col = 1;
    for (size_t i = 0; i < at; ++i) s[i] == '\n' ? (++line, col = 1) : ++col;
    std::string what = e.what();
    const size_t colon = what.find("syntax error");
    *why = path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": not valid JSON: " +
           (colon == std::string::npos ? what : what.substr(colon));
    return std::nullopt;
  }
  Lesson lesson;
  lesson.path = path;
  try {
    if (!doc.is_object()) throw Bad{"the file", "must be an object {\"title\": ..., \"slides\": [...]}"};
    for (const auto& [key, value] : doc.items()) {
      (void)value;
      if (key != "title" && key != "slides") throw Bad{"\"" + key + "\"", "not a field of a lesson (known: title, slides)"};
    }
    if (doc.contains("title")) lesson.title = Text(doc["title"], "\"title\"");
    if (!doc.contains("slides") || !doc["slides"].is_array() || doc["slides"].empty())
      throw Bad{"\"slides\"", "must be a list of at least one slide"};
    const std::filesystem::path script_dir = std::filesystem::path(path).parent_path();
    for (size_t i = 0; i < doc["slides"].size(); ++i) lesson.slides.push_back(ReadSlide(doc["slides"][i], i, script_dir));
    // Recorded figures in the captions, read only when a caption asks for one.
    std::optional<std::vector<kernels::RecordedFile>> recorded;
    for (size_t i = 0; i < lesson.slides.size(); ++i) {
      std::string& caption = lesson.slides[i].caption;
      if (!HasPlaceholder(caption)) continue;
      if (!recorded) recorded = LoadRecordedResults(nullptr);
      std::string what;
      const auto filled = FillCaption(caption, *recorded, &what);
      if (!filled) throw Bad{SlideName(i) + ": \"caption\"", what};
      caption = *filled;
    }
  } catch (const Bad& b) {
    *why = path + ": " + b.where + ": " + b.what;
    return std::nullopt;
  }
  return lesson;
}

std::optional<SlideCursor> ResolveSlide(const Slide& slide, const sim::Trace& a, const std::vector<uint32_t>& a_steps,
                                        const sim::Trace* b, const std::vector<uint32_t>* b_steps, std::string* why) {
  if (slide.step >= int(a_steps.size())) {
    *why = "\"step\": " + std::to_string(slide.step) + " is past the last step of " + slide.variant + "'s warp (" +
           std::to_string(a_steps.size()) + " steps, 0.." + std::to_string(int(a_steps.size()) - 1) + ")";
    return std::nullopt;
  }
  visual::Panes p;
  p.pane[0] = {&a, &a_steps, 0};
  if (b) p.pane[1] = {b, b_steps, 0};
  p.shown = b ? 2 : 1;
  const visual::FollowChoice rule = b ? visual::DefaultFollow(p) : visual::FollowChoice{};
  p.follow = slide.follow ? *slide.follow : rule.mode;
  const auto apply = [&p](const visual::StepMoves& m) {
    for (int i = 0; i < 2; ++i)
      if (m[size_t(i)]) p.pane[i].step = *m[size_t(i)];
  };
  apply(visual::StepTo(p, slide.step));
  const int dir = slide.iteration > 0 ? 1 : -1;
  for (int i = 0; i < std::abs(slide.iteration); ++i) {
    const int before = p.pane[0].step;
    apply(visual::IterationBy(p, dir));
    if (p.pane[0].step == before) {
      *why = "\"iteration\": " + std::to_string(slide.iteration) + " asked for, but step " + std::to_string(slide.step) + "'s line has only " +
             std::to_string(i) + " loop iteration" + (i == 1 ? "" : "s") + (dir > 0 ? " after it" : " before it");
      return std::nullopt;
    }
  }
  return SlideCursor{p.pane[0].step, p.pane[1].step, p.follow, slide.follow ? visual::FollowWhy::Chosen : rule.why};
}

std::vector<std::string> CheckLessonSteps(const Lesson& lesson) {
  std::vector<std::string> problems;
  // Each pane simulated once per (variant, n, shape, block).
  std::map<std::string, std::shared_ptr<kernels::SimOutcome>> runs;
  const auto simulate = [&](const std::string& id, const Slide& s) -> std::shared_ptr<kernels::SimOutcome> {
    const auto ref = kernels::FindVariant(id);
    const int n = s.n ? s.n : ref.TeachingN();
    const std::string key = id + " " + std::to_string(n) + " " + s.shape + " " + std::to_string(s.block);
    auto& run = runs[key];
    if (run) return run;
    kernels::RunRequest r;
    r.n = n;
    if (!s.shape.empty()) r.block = ParseBlock(s.shape);
    sim::LaunchOptions opt;
    opt.selection = {sim::Selection::Kind::Block, uint32_t(s.block), 0};
    opt.caches = false;  // where the steps are does not depend on the caches
    const uint32_t block = uint32_t(s.block), warp = uint32_t(s.warp);
    opt.before_launch = [block, warp](const sim::LaunchShape& shape) {
      if (block >= shape.grid.Count())
        throw kernels::BadRequest("\"block\": " + std::to_string(block) + " is outside the grid of " +
                                  std::to_string(shape.grid.Count()) + " blocks");
      if (warp >= shape.WarpsPerBlock())
        throw kernels::BadRequest("\"warp\": " + std::to_string(warp) + " is outside a block of " +
                                  std::to_string(shape.WarpsPerBlock()) + " warps");
    };
    run = std::make_shared<kernels::SimOutcome>(kernels::Simulate(ref, r, opt));
    return run;
  };
  for (size_t i = 0; i < lesson.slides.size(); ++i) {
    const Slide& s = lesson.slides[i];
    const std::string where = lesson.path + ": " + SlideName(i) + ": ";
    try {
      const auto a = simulate(s.variant, s);
      const auto b = s.compare.empty() ? nullptr : simulate(s.compare, s);
      const auto a_steps = visual::WarpSteps(a->trace, uint32_t(s.block), uint32_t(s.warp));
      const auto b_steps = b ? visual::WarpSteps(b->trace, uint32_t(s.block), uint32_t(s.warp)) : std::vector<uint32_t>{};
      std::string why;
      if (!ResolveSlide(s, a->trace, a_steps, b ? &b->trace : nullptr, b ? &b_steps : nullptr, &why)) problems.push_back(where + why);
      else if (s.play && s.play->first >= int(a_steps.size()))
        problems.push_back(where + "\"play\": starts at step " + std::to_string(s.play->first) + ", past the last step of " +
                           s.variant + "'s warp (" + std::to_string(a_steps.size()) + " steps)");
    } catch (const std::exception& e) {
      const std::string what = e.what();
      const bool names_field = what.rfind("\"", 0) == 0;
      problems.push_back(where + (names_field ? "" : s.shape.empty() ? "\"variant\": " : "\"shape\": ") + what);
    }
  }
  return problems;
}

}  // namespace ws::app
