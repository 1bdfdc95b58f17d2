// Source view: the variant's kernel file with the line being executed highlighted and each
// line's counters beside it; hovering a line shows all of its counters.
#pragma once
#include <string>
#include <vector>

#include "visual/shown_step.h"

namespace ws::visual {

// A compiler message at a line of the text (line 0: not at a line), drawn under that line.
struct SourceMark {
  int line = 0;
  std::string text;
};

class SourceView {
 public:
  // `source_path`: the variant's file ("kernels/transpose/naive.cuh"); `text`: its contents.
  // `errors`: a kernel file's build that failed; the text is then the file as saved and the
  // counters are the last good build's.
  void Draw(const ShownStep& shown_step, const std::string& source_path, const std::string& text, float height,
            float scale, void* mono_font, const std::vector<SourceMark>* errors = nullptr);

 private:
  uint32_t scrolled_to_ = 0;
  uint64_t scrolled_version_ = ~0ull;
  uint32_t settle_line_ = 0;   // the line a scroll was asked for, until the scroll range settles
  float settle_max_ = -1.0f;   // the scroll range of the last frame
  int settled_frames_ = 0;     // frames the range has stayed the same
};

}  // namespace ws::visual
