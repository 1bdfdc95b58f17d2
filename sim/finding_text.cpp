// A finding's one text (see finding_text.h).
#include "sim/finding_text.h"

#include <cstdio>
#include <vector>

namespace ws::sim {

std::string FindingPlace(const Trace& t, const Finding& f) {
  auto dim = [](const Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
  };
  std::vector<std::string> parts;
  if (f.site >= 0 && size_t(f.site) < t.sites.size()) parts.push_back("line " + std::to_string(t.sites[f.site].line));
  if (f.scope != FindingScope::Launch) parts.push_back("block " + dim(f.block));
  if (f.scope == FindingScope::Thread) parts.push_back("thread " + dim(f.thread));
  if (f.has_address) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(f.address));
    parts.push_back("address " + std::string(hex));
  }
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

std::string FindingText(const Trace& t, const Finding& f) {
  const std::string place = FindingPlace(t, f);
  std::string s = std::string(IsError(f.kind) ? "error" : "warning") + " [" + ToString(f.kind) + "] " +
                  (place.empty() ? "" : place + ": ") + f.message;
  if (f.occurrences > 1) s += " (" + std::to_string(f.occurrences) + " times)";
  return s;
}

}  // namespace ws::sim
