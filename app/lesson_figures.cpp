// Recorded figures in a lesson's captions (see lesson_figures.h).
#include "app/lesson_figures.h"

#include "visual/counters.h"

namespace ws::app {
namespace {

struct Placeholder {
  size_t begin = 0, end = 0;  // the text from '{' to '}', both included
  std::string kind;           // "ms", "speedup", "device"
  std::vector<std::string> args;
};

// Every {kind:arg:arg} in order; throws the message for one that is not closed or not known.
std::vector<Placeholder> Placeholders(const std::string& caption) {
  std::vector<Placeholder> out;
  for (size_t at = caption.find('{'); at != std::string::npos; at = caption.find('{', at + 1)) {
    const size_t close = caption.find('}', at);
    if (close == std::string::npos || caption.find('{', at + 1) < close)
      throw std::string("'{' at character " + std::to_string(at + 1) + " is not closed by '}' (placeholders: " +
                        kCaptionPlaceholders + ")");
    Placeholder p{at, close + 1, "", {}};
    const std::string inside = caption.substr(at + 1, close - at - 1);
    for (size_t from = 0;;) {  // kind:arg:arg
      const size_t colon = inside.find(':', from);
      p.args.push_back(inside.substr(from, colon == std::string::npos ? colon : colon - from));
      if (colon == std::string::npos) break;
      from = colon + 1;
    }
    p.kind = p.args.front();
    p.args.erase(p.args.begin());
    const size_t wanted = p.kind == "ms" ? 1 : p.kind == "speedup" ? 2 : p.kind == "device" ? 0 : size_t(-1);
    if (wanted != p.args.size())
      throw std::string("{" + inside + "}: not a placeholder (placeholders: " + kCaptionPlaceholders + ")");
    out.push_back(std::move(p));
  }
  return out;
}

// A variant's usable recorded time in `r`, or null.
const kernels::Timing* Recorded(const kernels::BenchReport& r, const std::string& variant) {
  for (const auto& t : r.timings)
    if (t.variant == variant && t.error.empty() && t.ms_median > 0) return &t;
  return nullptr;
}

}  // namespace

bool HasPlaceholder(const std::string& caption) { return caption.find('{') != std::string::npos; }

std::optional<std::string> FillCaption(const std::string& caption, const std::vector<kernels::RecordedFile>& recorded,
                                       std::string* why) {
  std::vector<Placeholder> ps;
  try {
    ps = Placeholders(caption);
  } catch (const std::string& e) {
    *why = e;
    return std::nullopt;
  }
  bool figure = false, device = false;
  for (const auto& p : ps) (p.kind == "device" ? device : figure) = true;
  if (figure && !device) {
    *why = "names a recorded figure but not {device}: say which device measured it";
    return std::nullopt;
  }
  // The first report that holds every variant named; else say what the first report lacks.
  std::string missing;
  for (const auto& file : recorded) {
    std::string text, lacks;
    size_t from = 0;
    for (const auto& p : ps) {
      text += caption.substr(from, p.begin - from);
      from = p.end;
      for (const auto& v : p.args)
        if (!Recorded(file.report, v) && lacks.empty()) lacks = caption.substr(p.begin, p.end - p.begin) + ": " + v + " has no recorded time in " + file.path;
      if (!lacks.empty()) break;
      if (p.kind == "device") text += file.report.device;
      else if (p.kind == "ms") text += visual::Ms(Recorded(file.report, p.args[0])->ms_median);
      else text += visual::Times(Recorded(file.report, p.args[1])->ms_median / Recorded(file.report, p.args[0])->ms_median);
    }
    if (lacks.empty()) return text + caption.substr(from);
    if (missing.empty()) missing = lacks;
  }
  *why = recorded.empty() ? "no recorded timings to fill it from (assets/recorded holds none that can be read)" : missing;
  return std::nullopt;
}

}  // namespace ws::app
