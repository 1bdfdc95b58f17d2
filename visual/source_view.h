// Source view: the variant's kernel file with the line being executed highlighted and each
// line's counters beside it; hovering a line shows all of its counters.
#pragma once
#include <string>

#include "visual/frame.h"

namespace ws::visual {

class SourceView {
 public:
  // `source_path`: the variant's file ("kernels/transpose/naive.cuh"); `text`: its contents.
  void Draw(const StepFrame& frame, const std::string& source_path, const std::string& text, float height,
            float scale, void* mono_font);

 private:
  uint32_t scrolled_to_ = 0;
  uint64_t scrolled_version_ = ~0ull;
};

}  // namespace ws::visual
