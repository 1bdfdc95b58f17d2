// Source view: the variant's kernel file with the line being executed highlighted and each
// line's counters beside it; hovering a line shows all of its counters.
#pragma once
#include <string>
#include <vector>

#include "sim/compiled.h"
#include "sim/compiled_notes.h"
#include "visual/shown_step.h"

namespace ws::visual {

// A compiler message at a line of the text (line 0: not at a line), drawn under that line.
struct SourceMark {
  int line = 0;
  std::string text;
};

// What nvcc made of the kernel (app/compiled_lines.h), drawn beside its lines: the memory
// instructions it emitted for each line and the notes where they differ from the source as
// simulated; the full SASS listing on a toggle. Null members: nothing to show.
struct CompiledBeside {
  const sim::CompiledComparison* comparison = nullptr;
  const sim::CompiledKernel* kernel = nullptr;
  std::string file;    // the source as the line table names it
  std::string status;  // "as compiled by nvcc for sm_90 (SASS by nvdisasm)", or why there is none
};

class SourceView {
 public:
  // `source_path`: the variant's file ("kernels/transpose/naive.cuh"); `text`: its contents.
  // `errors`: a kernel file's build that failed; the text is then the file as saved and the
  // counters are the last good build's. `compiled`: what nvcc made of it, null while unknown.
  void Draw(const ShownStep& shown_step, const std::string& source_path, const std::string& text, float height,
            float scale, void* mono_font, const std::vector<SourceMark>* errors = nullptr,
            const CompiledBeside* compiled = nullptr);

  // The SASS listing in place of the source, and back (the header's toggle, the S key).
  void ToggleSass() { show_sass_ = !show_sass_; }
  bool ShowsSass() const { return show_sass_; }

  // The rows of the SASS listing the step's line highlights: instructions of `k` at `line` of
  // `file` (memory instructions of the step's space and operation first in `strong`). Pure, for tests.
  static void SassRowsOf(const sim::CompiledKernel& k, const std::string& file, uint32_t line,
                         const sim::WarpInstruction* step, std::vector<size_t>* at_line, std::vector<size_t>* strong);

 private:
  // The listing in place of the source (the header's "SASS" toggle).
  void DrawSass(const ShownStep& shown_step, const CompiledBeside& compiled, uint32_t current);
  bool show_sass_ = false;
  uint64_t sass_scrolled_version_ = ~0ull;
  uint32_t scrolled_to_ = 0;
  uint64_t scrolled_version_ = ~0ull;
  uint32_t settle_line_ = 0;   // the line a scroll was asked for, until the scroll range settles
  float settle_max_ = -1.0f;   // the scroll range of the last frame
  int settled_frames_ = 0;     // frames the range has stayed the same
};

}  // namespace ws::visual
