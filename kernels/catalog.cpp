// Looking things up in the catalog, and simulating a variant.
#include "kernels/catalog.h"

#include <utility>

#include "kernels/user_file.h"

namespace ws::kernels {

const std::vector<std::pair<std::string, std::string>>& EmbeddedSources();  // generated

const std::string& KernelSource(const std::string& path) {
  static const std::string none;
  if (const std::string* text = KernelFileSource(path)) return *text;
  for (const auto& [name, text] : EmbeddedSources()) {
    if (path == name) return text;
    if (path.size() > name.size() && path.compare(path.size() - name.size(), name.size(), name) == 0 &&
        path[path.size() - name.size() - 1] == '/')
      return text;
  }
  return none;
}

VariantRef FindVariant(const std::string& id) {
  if (IsKernelFileRef(id)) return FindKernelFileVariant(id);
  const auto slash = id.find('/');
  const std::string fam = id.substr(0, slash), var = slash == std::string::npos ? "" : id.substr(slash + 1);
  std::string known;
  for (const auto& f : Catalog()) {
    for (const auto& v : f.info.variants) {
      if (f.info.name == fam && v.name == var) return {&f, &v};
      known += (known.empty() ? "" : ", ") + f.info.name + "/" + v.name;
    }
  }
  throw BadRequest("unknown variant '" + id + "'; known: " + known);
}

void ValidateSize(const FamilyEntry& family, int n) {
  if (n <= 0) throw BadRequest("size n must be positive (got " + std::to_string(n) + ")");
  if (n > family.info.max_sim_n)
    throw BadRequest("size n=" + std::to_string(n) + " is over the simulator's limit of " +
                     std::to_string(family.info.max_sim_n) + " for " + family.info.name +
                     " (a memory cap: see README)");
}

SimOutcome Simulate(const VariantRef& v, const RunRequest& request, sim::LaunchOptions options) {
  ValidateSize(*v.family, request.n);
  if (v.family->run_apart) return v.family->run_apart(v.variant->name, request, options);
  if (!options.source_text)
    options.source_text = [](const std::string& file) { return KernelSource(file); };
  sim::Engine engine(std::move(options));
  Check check = v.family->simulate(engine, v.variant->name, request);
  return {engine.TakeTrace(), std::move(check)};
}

}  // namespace ws::kernels
