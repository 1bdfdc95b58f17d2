// Lesson scripts: a JSON file of slides, each saying what the window shows (variants, size, block
// shape, follow mode, step or loop iteration, whole block, side tab, presenter mode) and a caption
// in the lecturer's words. Read and checked here; shown by the window (gui_app.h), exported by
// lesson_export.h. The README's "Writing a lesson" describes the format for users.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/gif_writer.h"
#include "visual/steps.h"

namespace ws::app {

struct Slide {
  std::string variant;  // A, "family/variant", or a kernel file "dir/mine.cu[:kernel]" (its path as opened)
  std::string compare;  // B, in A's family (or either a kernel file); empty: A alone
  int n = 0;            // 0: the family's teaching size
  std::string shape;    // block shape "X", "XxY" or "XxYxZ"; empty: the variant's own
  int block = 0, warp = 0;
  int step = 0;         // A's warp instruction (from 0), as --step
  int iteration = 0;    // then this many loop iterations forward (back if negative), as --iteration
  bool whole_block = false;
  // How B follows A; none: by the rule (visual::DefaultFollow: by source role where the roles
  // match, else in lockstep), as the window does for a pair no one chose a mode for.
  std::optional<visual::Follow> follow;
  std::string side = "counters";  // the side panel's tab: "counters", "chart", "l1" or "l2"
  bool present = true;
  std::string caption;
  // The steps the slide's GIF plays; none given: kPlaySteps steps from where the slide stands.
  std::optional<StepRange> play;
};

inline constexpr int kPlaySteps = 8;

struct Lesson {
  std::string path;   // as given
  std::string title;
  std::vector<Slide> slides;
};

// Reads a lesson and checks what can be checked without simulating: JSON syntax, known fields of
// the right types, variants in the catalog (a kernel file, relative to the script, compiled), B
// in A's family, n within the family's limits, a well-formed block shape, each caption's recorded
// figures (lesson_figures.h) filled. Null, with `why` naming the file, the slide (from 1) and the field, on
// the first problem.
std::optional<Lesson> LoadLesson(const std::string& path, std::string* why);

// The fields a slide may set, for messages and the README: "variant, compare, n, ...".
std::string SlideFieldNames();

// Simulates each slide's panes as the window would (its block) and checks the rest: the shape
// is one the variant takes, block and warp are in the launch, the step is within A's warp, and
// each loop iteration asked for exists. One message per problem, naming file, slide and field;
// empty when every slide resolves.
std::vector<std::string> CheckLessonSteps(const Lesson& lesson);

// Where a slide stands once its panes are simulated: A's step after `iteration` presses, by the
// stepping rules of visual/stepping.h; none (with `why`) when a step or iteration does not exist.
// `a_steps`/`b_steps` are each pane's warp instructions (b null: A alone).
struct SlideCursor {
  int a = 0, b = 0;
  visual::Follow follow = visual::Follow::Lockstep;  // the slide's, or the rule's where it names none
  visual::FollowWhy why = visual::FollowWhy::Chosen;
};
std::optional<SlideCursor> ResolveSlide(const Slide& slide, const sim::Trace& a, const std::vector<uint32_t>& a_steps,
                                        const sim::Trace* b, const std::vector<uint32_t>* b_steps, std::string* why);

}  // namespace ws::app
