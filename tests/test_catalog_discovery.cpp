// The catalog finds its lessons by itself: a throw-away family written to a temporary folder is
// found by the same generator the build runs (kernels/discover_catalog.cmake), compiled with the
// host compiler against the built libraries, and then listed, simulated and checked like a
// family of the repository. A folder that breaks the rules is refused with a message.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "ws-discovery-XXXXXX").string();
    if (mkdtemp(t.data())) path = t;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

void Write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

std::string Read(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command; its exit status, with stdout and stderr in *out.
int Shell(const std::string& cmd, std::string* out) {
  out->clear();
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out->append(buf.data(), n);
  return pclose(p);
}

int Discover(const fs::path& root, std::string* log) {
  return Shell(std::string(WS_CMAKE) + " -DROOT=" + root.string() + " -DOUT=" + (root / "generated/catalog.inc").string() +
                 " -P " + WS_SOURCE_DIR + "/kernels/discover_catalog.cmake",
             log);
}

// A family as README "Adding a kernel" describes it: family.inl with WS_FAMILY, the CPU
// reference and the family's run (RunVariant with what a run holds), a helper .cuh it includes,
// and one variant file that hands its kernel to the family's run.
void WriteThrowAwayFamily(const fs::path& root) {
  Write(root / "kernels/throwaway/family.inl", R"(// throwaway: written by a test.
#include "kernels/throwaway/factor.cuh"
WS_FAMILY(.order = 0, .title = "Throw-away family", .story = "Written by the discovery test.",
          .teaching_n = 1000, .timing_n = 1 << 20, .max_sim_n = 1 << 20, .size_meaning = "n floats",
          .work = [](double n) { return Work{8 * n, n, "products"}; });

inline std::vector<float> Scaled(const std::vector<float>& in) {
  std::vector<float> want(in);
  for (auto& x : want) x *= kFactor;
  return want;
}

// kernel(in, out, n), one element per thread.
template <class K>
Check RunScale(Backend& b, const RunRequest& r, K kernel) {
  const auto host = RandomFloats(size_t(r.n), r.seed);
  const dim3 grid(CeilDiv(r.n, 256));
  return RunVariant(b, r, {256, 1, "one element per thread"}, grid, kernel, Input("in", host, 1, r.n),
                    Output<float>("out", 1, r.n, Scaled(host)), r.n);
}
)");
  Write(root / "kernels/throwaway/factor.cuh", "// A helper, not a variant.\nconstexpr float kFactor = 2.0f;\n");
  Write(root / "kernels/throwaway/scale.cuh", R"(// throwaway/scale: out[i] = 2 in[i], one element per thread.
__global__ void scale(Global<const float> in, Global<float> out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = kFactor * in[i];
}

WS_VARIANT(scale, .order = 1, .title = "Scale by two", .watch = "One line per warp.") {
  return RunScale(b, r, scale);
}
)");
}

TEST(CatalogDiscovery, AFamilyInANewFolderIsFoundCompiledAndSimulated) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path.empty());
  WriteThrowAwayFamily(tmp.path);
  std::string log;
  ASSERT_EQ(Discover(tmp.path, &log), 0) << log;
  const std::string inc = Read(tmp.path / "generated/catalog.inc");
  EXPECT_NE(inc.find("#include \"kernels/throwaway/family.inl\""), std::string::npos) << inc;
  EXPECT_NE(inc.find("#include \"kernels/throwaway/scale.cuh\""), std::string::npos) << inc;
  EXPECT_EQ(inc.find("factor.cuh"), std::string::npos) << "a helper is not a variant:\n" << inc;

  // A program holding the throw-away family as sim_families.cpp holds the repository's, linked
  // with the built libraries (which bring the repository's families).
  Write(tmp.path / "main.cpp", R"(#include <cstdio>
#include "kernels/catalog.h"
#include "kernels/common.h"
#include "kernels/declare.h"
#include "kernels/family_run.h"
#include "kernels/sim_backend.h"
namespace ws::kernels::discovered {
using namespace ::ws::dialect;
using Backend = SimBackend;
#include "generated/catalog.inc"
}
int main() {
  using namespace ws;
  const auto& first = kernels::Catalog().front().info;
  std::printf("first %s, %zu variant(s), %zu families\n", first.name.c_str(), first.variants.size(),
              kernels::Catalog().size());
  const auto v = kernels::FindVariant("throwaway/scale");
  std::printf("title %s; source %s; bytes at 1000: %g\n", v.variant->title.c_str(), v.variant->source.c_str(),
              kernels::WorkOf(*v.variant, 1000).bytes);
  for (int n : {3, 1000}) {
    kernels::RunRequest req;
    req.n = n;
    sim::LaunchOptions o;
    o.selection.kind = sim::Selection::Kind::None;
    const auto out = kernels::Simulate(v, req, o);
    std::printf("n %d: %s, %llu loads, %llu sectors\n", n, out.check.passed ? "passed" : out.check.detail.c_str(),
                (unsigned long long)out.trace.total.global_requests[0],
                (unsigned long long)out.trace.total.global_sectors[0]);
  }
}
)");
  const std::string exe = (tmp.path / "discovered").string();
  ASSERT_EQ(Shell(std::string(WS_HOST_CXX) + " -std=c++20 -O0 " + WS_EXTRA_FLAGS + " -I" + WS_SOURCE_DIR + " -I" +
                    tmp.path.string() + " " + (tmp.path / "main.cpp").string() + " " + WS_LINK_LIBS +
                    " -lboost_context -ldl -pthread -o " + exe,
                &log),
            0)
      << log;
  ASSERT_EQ(Shell(exe, &log), 0) << log;
  // .order = 0 puts it before the seeds' first lesson (order 1).
  EXPECT_NE(log.find("first throwaway, 1 variant(s)"), std::string::npos) << log;
  // Work: 8 bytes per element (a float read, a float written): 8000 at n = 1000.
  EXPECT_NE(log.find("title Scale by two; source kernels/throwaway/scale.cuh; bytes at 1000: 8000"), std::string::npos)
      << log;
  // n = 3: one block, one warp, one load of 3 lanes in one sector.
  EXPECT_NE(log.find("n 3: passed, 1 loads, 1 sectors"), std::string::npos) << log;
  // n = 1000: 4 blocks of 256 = 32 warps, one load each. Warps 0-30 read 128 aligned bytes
  // (4 sectors); warp 31 reads elements 992-999, 32 bytes at byte 3968 = 124 * 32 (1 sector):
  // 31 * 4 + 1 = 125 sectors.
  EXPECT_NE(log.find("n 1000: passed, 32 loads, 125 sectors"), std::string::npos) << log;
}

// The lines of an example in `text`: from the line holding `first`, while lines start with
// `prefix` and hold more than it, up to a closing ``` of Markdown; each without the prefix.
std::vector<std::string> Example(const std::string& text, const std::string& first, const std::string& prefix) {
  std::vector<std::string> lines, out;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  size_t i = 0;
  while (i < lines.size() && lines[i].find(first) == std::string::npos) ++i;
  for (; i < lines.size() && lines[i].size() > prefix.size() && lines[i].compare(0, prefix.size(), prefix) == 0; ++i) {
    if (lines[i].substr(prefix.size()).rfind("```", 0) == 0) break;
    out.push_back(lines[i].substr(prefix.size()));
  }
  return out;
}

size_t Indent(const std::string& line) { return line.find_first_not_of(' '); }

// Whether `file` holds the example's lines in a row, all indented by the same amount more.
bool Holds(const std::string& file, const std::vector<std::string>& example) {
  std::vector<std::string> lines;
  std::stringstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (size_t i = 0; i + example.size() <= lines.size(); ++i) {
    if (lines[i].find(example[0].substr(Indent(example[0]))) == std::string::npos) continue;
    if (Indent(lines[i]) < Indent(example[0])) continue;
    const std::string more(Indent(lines[i]) - Indent(example[0]), ' ');
    size_t k = 0;
    while (k < example.size() && lines[i + k] == more + example[k]) ++k;
    if (k == example.size()) return true;
  }
  return false;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// A run written as the examples show it compiles, because they are the catalog's own lines:
// kernels/declare.h's and README's variant (transpose/naive.cuh), and kernels/family_run.h's and
// README's family run (transpose/family.inl).
TEST(CatalogDiscovery, TheExamplesOfAddingAKernelAreTheCatalogsOwnLines) {
  const fs::path root(WS_SOURCE_DIR);
  const std::string naive = Read(root / "kernels/transpose/naive.cuh");
  const std::string family = Read(root / "kernels/transpose/family.inl");
  const std::string readme = Read(root / "README.md");
  struct Case {
    std::string where;
    std::vector<std::string> example;
    const std::string& file;
    size_t at_least;
  };
  const Case cases[] = {
      {"kernels/declare.h", Example(Read(root / "kernels/declare.h"), "WS_VARIANT(naive", "//   "), naive, 4},
      {"README.md (variant)", Example(readme, "   WS_VARIANT(naive", "   "), naive, 4},
      {"kernels/family_run.h", Example(Read(root / "kernels/family_run.h"), "RandomFloats", "//   "), family, 4},
      {"README.md (family)", Example(readme, "   Check RunTranspose(", "   "), family, 7},
  };
  for (const Case& c : cases) {
    EXPECT_GE(c.example.size(), c.at_least) << c.where << ": example not found";
    EXPECT_TRUE(Holds(c.file, c.example)) << c.where << "'s example is not in the file it quotes:\n"
                                          << Joined(c.example);
  }
}

TEST(CatalogDiscovery, AVariantWithoutItsFamilyFileIsRefused) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path.empty());
  WriteThrowAwayFamily(tmp.path);
  fs::remove(tmp.path / "kernels/throwaway/family.inl");
  std::string log;
  EXPECT_NE(Discover(tmp.path, &log), 0);
  // (CMake wraps the message's lines.)
  EXPECT_NE(log.find("kernels/throwaway/scale.cuh declares a variant"), std::string::npos) << log;
  EXPECT_NE(log.find("no family.inl"), std::string::npos) << log;
}

TEST(CatalogDiscovery, AFamilyWithoutVariantsIsRefused) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path.empty());
  WriteThrowAwayFamily(tmp.path);
  fs::remove(tmp.path / "kernels/throwaway/scale.cuh");
  std::string log;
  EXPECT_NE(Discover(tmp.path, &log), 0);
  EXPECT_NE(log.find("kernels/throwaway: no .cuh file declares a variant"), std::string::npos) << log;
}

// The limit as the generator states it: set(max_variant_name N) in kernels/discover_catalog.cmake.
int MaxVariantName() {
  const std::string script = Read(fs::path(WS_SOURCE_DIR) / "kernels/discover_catalog.cmake");
  const std::string key = "set(max_variant_name ";
  const size_t at = script.find(key);
  return at == std::string::npos ? -1 : std::atoi(script.c_str() + at + key.size());
}

// The throw-away family with its one variant renamed to `name`.
void WriteVariantNamed(const fs::path& root, const std::string& name) {
  WriteThrowAwayFamily(root);
  std::string cuh = Read(root / "kernels/throwaway/scale.cuh");
  cuh.replace(cuh.find("WS_VARIANT(scale,"), 17, "WS_VARIANT(" + name + ",");
  Write(root / "kernels/throwaway/scale.cuh", cuh);
}

TEST(CatalogDiscovery, AVariantNameLongerThanTheToolbarShowsIsRefused) {
  const int limit = MaxVariantName();
  ASSERT_GT(limit, 0) << "no set(max_variant_name N) in kernels/discover_catalog.cmake";
  std::string log;
  {
    TempDir tmp;
    ASSERT_FALSE(tmp.path.empty());
    WriteVariantNamed(tmp.path, std::string(size_t(limit), 'm'));
    EXPECT_EQ(Discover(tmp.path, &log), 0) << "a name of exactly the limit is accepted:\n" << log;
  }
  TempDir tmp;
  ASSERT_FALSE(tmp.path.empty());
  const std::string name = "v" + std::string(size_t(limit), 'w');
  WriteVariantNamed(tmp.path, name);
  EXPECT_NE(Discover(tmp.path, &log), 0);
  // CMake wraps the message's lines, indented by two spaces: join them again.
  for (size_t at; (at = log.find("\n  ")) != std::string::npos;) log.replace(at, 3, " ");
  EXPECT_NE(log.find("kernels/throwaway/scale.cuh: the variant name " + name + " has " + std::to_string(limit + 1) +
                     " characters; the toolbar shows at most " + std::to_string(limit)),
            std::string::npos)
      << log;
}

TEST(CatalogDiscovery, EveryShippedVariantNameIsWithinTheLimitAndTheReadmeSaysIt) {
  const int limit = MaxVariantName();
  ASSERT_GT(limit, 0);
  // Discovery over the repository itself refuses any name over the limit.
  TempDir tmp;
  ASSERT_FALSE(tmp.path.empty());
  std::string log;
  EXPECT_EQ(Shell(std::string(WS_CMAKE) + " -DROOT=" + WS_SOURCE_DIR + " -DOUT=" + (tmp.path / "catalog.inc").string() +
                      " -P " + WS_SOURCE_DIR + "/kernels/discover_catalog.cmake",
                  &log),
            0)
      << log;
  const std::string readme = Read(fs::path(WS_SOURCE_DIR) / "README.md");
  EXPECT_NE(readme.find("at most " + std::to_string(limit) + " characters"), std::string::npos)
      << "README's \"Adding a kernel\" states the limit of kernels/discover_catalog.cmake";
}

}  // namespace
