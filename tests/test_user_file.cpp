// Kernel files opened at run time: written, compiled, loaded, changed and reloaded, with
// counters worked out by hand; bad files give their errors at their lines and keep the last good
// build; nothing the user wrote is overwritten.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "kernels/catalog.h"
#include "kernels/user_file.h"
#include "kernels/variant_name.h"
#include "tests/kernel_file_support.h"
#include "toolchain/new_file.h"

namespace fs = std::filesystem;
using namespace ws;
using namespace ws::test;

namespace {

// A file of two copies: copy3 at stride a, then copy4 (the second renamed: its kernel, its
// description) at stride b, its .teaching_n replaced by `sizes` where given.
std::string TwoCopies(int a, int b, const std::string& sizes = "") {
  std::string second = CopyKernel(b);
  for (size_t p = 0; (p = second.find("copy3", p)) != std::string::npos;) second.replace(p, 5, "copy4");
  if (!sizes.empty()) second.replace(second.find(".teaching_n = 1000"), 18, sizes);
  return CopyKernel(a) + second;
}

const uint64_t kLd = uint64_t(sim::Op::Load), kSt = uint64_t(sim::Op::Store);

}  // namespace

TEST(KernelFile, LoadedFileGivesHandCountedSectorsAndReloadGivesTheNewOnes) {
  TempDir dir;
  const fs::path f = dir.path / "copy.cu";
  Write(f, CopyKernel(1));
  const auto first = kernels::LoadKernelFile(f.string());
  ASSERT_NE(first.family, nullptr);
  auto o = SimulateFile(f.string());
  EXPECT_TRUE(o.check.passed) << o.check.detail;
  // Stride 1: each full warp reads 128 aligned bytes (4 sectors), 31 of them, and the last warp's
  // 8 floats are one sector: 125 sectors for loads and for stores; one request per warp.
  EXPECT_EQ(o.trace.total.global_requests[kLd], 32u);
  EXPECT_EQ(o.trace.total.global_sectors[kLd], 125u);
  EXPECT_EQ(o.trace.total.global_sectors[kSt], 125u);

  Write(f, CopyKernel(2));
  const auto second = kernels::LoadKernelFile(f.string());
  EXPECT_NE(second.family, first.family);
  EXPECT_EQ(kernels::LoadedKernelFamily(f.string()), second.family);
  o = SimulateFile(f.string());
  EXPECT_TRUE(o.check.passed) << o.check.detail;
  // Stride 2: a full warp's 32 reads span 256 bytes starting on a sector boundary (4000 bytes and
  // 256 are multiples of 32, also for the warp that wraps at n): 8 sectors, 31 warps; the last
  // warp reads floats 984..998, sectors 123 and 124. 31 * 8 + 2 = 250. Stores are unchanged.
  EXPECT_EQ(o.trace.total.global_sectors[kLd], 250u);
  EXPECT_EQ(o.trace.total.global_ideal_sectors[kLd], 125u);
  EXPECT_EQ(o.trace.total.global_sectors[kSt], 125u);
}

TEST(KernelFile, SourceViewShowsTheTextAsCompiledAndAccessesNameItsLines) {
  TempDir dir;
  const fs::path f = dir.path / "copy.cu";
  Write(f, CopyKernel(1));
  const auto loaded = kernels::LoadKernelFile(f.string());
  const std::string& path = loaded.family->info.variants.front().source;
  EXPECT_EQ(kernels::KernelSource(path), CopyKernel(1));
  const auto o = SimulateFile(f.string() + ":copy3");
  ASSERT_FALSE(o.trace.sites.empty());
  for (const auto& s : o.trace.sites) {
    EXPECT_EQ(s.file, path);
    EXPECT_EQ(s.line, 5);  // both accesses are on line 5
  }
}

TEST(KernelFile, SyntaxErrorIsReportedAtItsLineAndTheLastGoodBuildStays) {
  TempDir dir;
  const fs::path f = dir.path / "copy.cu";
  Write(f, CopyKernel(1));
  const auto good = kernels::LoadKernelFile(f.string());
  std::string broken = CopyKernel(2);
  broken.replace(broken.find("int i = "), 8, "int i = ;");  // line 3
  Write(f, broken);
  try {
    kernels::LoadKernelFile(f.string());
    FAIL() << "a file with a syntax error loaded";
  } catch (const kernels::KernelFileError& e) {
    ASSERT_FALSE(e.diagnostics().empty()) << e.log();
    EXPECT_EQ(e.diagnostics().front().line, 3) << e.log();
    EXPECT_EQ(e.diagnostics().front().severity, "error");
    EXPECT_NE(std::string(e.what()).find("copy.cu:3:"), std::string::npos) << e.what();
  }
  EXPECT_EQ(kernels::LoadedKernelFamily(f.string()), good.family);
  const auto o = SimulateFile(f.string());  // still the stride-1 build
  EXPECT_EQ(o.trace.total.global_sectors[kLd], 125u);
  EXPECT_EQ(Read(f), broken);  // the user's text is untouched
}

TEST(KernelFile, ErrorInsideADialectTemplateIsPlacedAtTheUsersLine) {
  TempDir dir;
  const fs::path f = dir.path / "bad.cu";
  std::string text = CopyKernel(1);
  // Line 10: launching with an argument of the wrong type fails inside the engine's templates.
  text.replace(text.find("copy3, y, x, k.n)"), 17, "copy3, y, x, \"n\")");
  Write(f, text);
  try {
    kernels::LoadKernelFile(f.string());
    FAIL() << "a wrong launch argument compiled";
  } catch (const kernels::KernelFileError& e) {
    ASSERT_FALSE(e.diagnostics().empty()) << e.log();
    EXPECT_EQ(e.diagnostics().front().line, 10) << e.log();
  }
}

TEST(KernelFile, MalformedDescriptionNamesTheFieldAndTheLine) {
  TempDir dir;
  const fs::path f = dir.path / "desc.cu";
  std::string text = CopyKernel(1);
  text.replace(text.find(".teaching_n = 1000"), 18, ".teaching_n = 0");  // line 7
  Write(f, text);
  try {
    kernels::LoadKernelFile(f.string());
    FAIL() << "a description with .teaching_n = 0 loaded";
  } catch (const kernels::KernelFileError& e) {
    ASSERT_EQ(e.diagnostics().size(), 1u);
    EXPECT_EQ(e.diagnostics().front().line, 7);
    EXPECT_NE(e.diagnostics().front().message.find(".teaching_n must be positive"), std::string::npos);
  }
  // Fields out of order are a compiler error at the WS_KERNEL's line.
  text = CopyKernel(1);
  text.replace(text.find(".title = \"strided copy\", .teaching_n = 1000"), 43,
               ".teaching_n = 1000, .title = \"strided copy\"");
  Write(f, text);
  try {
    kernels::LoadKernelFile(f.string());
    FAIL() << "fields out of order compiled";
  } catch (const kernels::KernelFileError& e) {
    ASSERT_FALSE(e.diagnostics().empty()) << e.log();
    EXPECT_EQ(e.diagnostics().front().line, 7) << e.log();
  }
}

TEST(KernelFile, FileWithoutADescriptionSaysHowToWriteOne) {
  TempDir dir;
  const fs::path f = dir.path / "bare.cu";
  Write(f, "__global__ void k(Global<float> y) { y[threadIdx.x] = 1.0f; }\n");
  try {
    kernels::LoadKernelFile(f.string());
    FAIL() << "a file without WS_KERNEL loaded";
  } catch (const kernels::KernelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("declares no kernel"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("WS_KERNEL"), std::string::npos) << e.what();
  }
}

TEST(KernelFile, FileWithTwoKernelsNamesOneAndComparesThem) {
  TempDir dir;
  const fs::path f = dir.path / "two.cu";
  Write(f, TwoCopies(1, 4));
  EXPECT_THROW(kernels::FindVariant(f.string()), kernels::BadRequest);  // which one?
  const auto a = SimulateFile(f.string() + ":copy3");
  const auto b = SimulateFile(f.string() + ":copy4");
  EXPECT_TRUE(a.check.passed && b.check.passed) << a.check.detail << " / " << b.check.detail;
  EXPECT_EQ(a.trace.total.global_sectors[kLd], 125u);
  // Stride 4 over n = 1000: a full warp reads floats 16 bytes apart starting at a multiple of 8
  // floats, two to a sector: 16 sectors (where it wraps at n, both runs hold whole pairs, as
  // 1000 is a multiple of 8). 31 * 16, and the last warp (i = 992..999, floats 968..996 after
  // the wrap) reads 8 floats in 4 sectors: 496 + 4 = 500.
  EXPECT_EQ(b.trace.total.global_sectors[kLd], 500u);
  EXPECT_EQ(kernels::FindVariant(f.string() + ":copy4").Id(), kernels::KernelFileKey(f.string()) + ":copy4");
  EXPECT_THROW(kernels::FindVariant(f.string() + ":nonesuch"), kernels::BadRequest);
}

// k.Input("x", n) is a 1-D array as the catalog's are (1 row of n; the views wrap it at 128-byte
// lines), not a matrix of 32-float rows: 1024 floats are labelled "x (float[1024])", not 32x32.
TEST(KernelFile, AnArrayDeclaredWithoutAShapeIsOneDimensional) {
  TempDir dir;
  const fs::path f = dir.path / "shape.cu";
  Write(f, CopyKernel(1));
  const auto o = SimulateFile(f.string(), 1024);
  ASSERT_EQ(o.trace.arrays.size(), 2u);
  for (const auto& a : o.trace.arrays) {
    EXPECT_EQ(a.count, 1024u) << a.name;
    EXPECT_EQ(a.rows, 1u) << a.name;
    EXPECT_EQ(a.cols, 1024u) << a.name;
  }
}

TEST(KernelFile, OutOfBoundsWriteIsAFindingNotACrash) {
  TempDir dir;
  const fs::path f = dir.path / "oob.cu";
  std::string text = CopyKernel(1);
  text.replace(text.find("  if (i < n)\n"), 13, "  if (i <= n)\n");  // one past the end
  Write(f, text);
  const auto o = SimulateFile(f.string());
  bool out_of_bounds = false;
  for (const auto& finding : o.trace.findings)
    out_of_bounds |= finding.kind == sim::FindingKind::OutOfBounds;
  EXPECT_TRUE(out_of_bounds);
}

TEST(KernelFile, NewWritesATemplateThatPassesItsCheckAndNeverOverwrites) {
  TempDir dir;
  const fs::path f = dir.path / "my_kernel.cu";
  toolchain::WriteKernelTemplate(f.string());
  const std::string written = Read(f);
  EXPECT_NE(written.find("WS_KERNEL(my_kernel"), std::string::npos);
  const auto o = SimulateFile(f.string());
  EXPECT_TRUE(o.check.passed) << o.check.detail;
  // The template: stride 2, n = 1000, 256-thread blocks: the same 250 load sectors as the
  // strided copy above (the warps are the same 32-lane groups of i).
  EXPECT_EQ(o.trace.total.global_sectors[kLd], 250u);
  EXPECT_THROW(toolchain::WriteKernelTemplate(f.string()), kernels::BadRequest);
  Write(f, "mine");
  EXPECT_THROW(toolchain::WriteKernelTemplate(f.string()), kernels::BadRequest);
  EXPECT_EQ(Read(f), "mine");
}

// The template's kernel is named after the file, unless that name is one the template's code, the
// dialect or C++ already uses: x, y and n are the template's arrays and size, k its setup, block and
// stride its locals, main and class C++'s, threadIdx and Global the dialect's. Such a kernel is
// NAME_kernel, and the file it is written into compiles and passes its own check.
TEST(KernelFile, NewRenamesAKernelWhoseNameIsTakenAndTheTemplateCompiles) {
  for (const char* taken : {"x", "y", "n", "k", "block", "stride", "want", "i", "main", "class", "int", "threadIdx",
                            "Global", "dim3"}) {
    std::string clash;
    EXPECT_EQ(toolchain::KernelNameFor(std::string(taken) + ".cu", &clash), std::string(taken) + "_kernel");
    EXPECT_EQ(clash, taken);
  }
  std::string clash = "?";
  EXPECT_EQ(toolchain::KernelNameFor("dir/my-scan.cu", &clash), "my_scan");
  EXPECT_EQ(clash, "");
  EXPECT_EQ(toolchain::KernelNameFor("3d.cu"), "k_3d");
  TempDir dir;
  for (const char* name : {"x", "n", "main", "class"}) {
    const fs::path f = dir.path / (std::string(name) + ".cu");
    EXPECT_EQ(toolchain::WriteKernelTemplate(f.string()), std::string(name) + "_kernel");
    EXPECT_NE(Read(f).find("WS_KERNEL(" + std::string(name) + "_kernel,"), std::string::npos);
    const auto o = SimulateFile(f.string());
    EXPECT_TRUE(o.check.passed) << name << ": " << o.check.detail;
    EXPECT_EQ(o.trace.total.global_sectors[kLd], 250u) << name;  // the template's count, as above
  }
  const auto r = Cli("new " + (dir.path / "y.cu").string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("its kernel is named y_kernel: y is a name"), std::string::npos) << r.out;
}

// k.Expect compares a float4 output component by component and a struct output with its
// operator==; a wrong component is named by element and component. k.Input of unsigned char
// yields every byte, zero included (a histogram's bin 0 is not left empty).
std::string VectorAndStructKernels() {
  return "struct MinMax { int lo, hi; bool operator==(const MinMax&) const = default; };\n"
         "__global__ void twice4(Global<float4> y, Global<const float4> x, int n, int wrong) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) { float4 v = x[i]; y[i] = make_float4(2 * v.x, 2 * v.y + (i == wrong), 2 * v.z, 2 * v.w); }\n"
         "}\n"
         "__global__ void span(Global<MinMax> y, Global<const int> x, int n) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) y[i] = MinMax{x[i], x[i] + 1};\n"
         "}\n"
         "__global__ void hist(Global<int> bins, Global<const unsigned char> d, int n) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) atomicAdd(&bins[d[i]], 1);\n"
         "}\n"
         "static void Twice(WsSetup& k, int wrong) {\n"
         "  const auto f = ::ws::kernels::RandomFloats(4 * k.n, 3);\n"
         "  std::vector<float4> host(k.n), want(k.n);\n"
         "  for (int i = 0; i < k.n; ++i) host[i] = make_float4(f[4*i], f[4*i+1], f[4*i+2], f[4*i+3]);\n"
         "  for (int i = 0; i < k.n; ++i) want[i] = make_float4(2*host[i].x, 2*host[i].y, 2*host[i].z, 2*host[i].w);\n"
         "  auto x = k.InputFrom<const float4>(\"x\", host);\n"
         "  auto y = k.Output<float4>(\"y\", k.n);\n"
         "  k.Launch(dim3(CeilDiv(k.n, 64)), dim3(64), twice4, y, x, k.n, wrong);\n"
         "  k.Expect(y, want);\n"
         "}\n"
         "WS_KERNEL(twice4, .title = \"float4\", .teaching_n = 100) { Twice(k, -1); }\n"
         "WS_KERNEL(twice4_wrong, .title = \"float4, element 5's y off by one\", .teaching_n = 100) { Twice(k, 5); }\n"
         "WS_KERNEL(span, .title = \"struct\", .teaching_n = 100) {\n"
         "  auto x = k.Input<const int>(\"x\", k.n);\n"
         "  auto y = k.Output<MinMax>(\"y\", k.n);\n"
         "  k.Launch(dim3(CeilDiv(k.n, 64)), dim3(64), span, y, x, k.n);\n"
         "  std::vector<MinMax> want(k.n);\n"
         "  for (int i = 0; i < k.n; ++i) want[i] = MinMax{k.Host(x)[i], k.Host(x)[i] + 1};\n"
         "  k.Expect(y, want);\n"
         "  want[7].hi += 1;\n"
         "  k.Expect(y, want, [](const MinMax& g, const MinMax& w) { return g.lo == w.lo; });  // hi not compared\n"
         "}\n"
         "static void Hist(WsSetup& k, bool whole_range) {\n"
         "  auto d = whole_range ? k.Input<const unsigned char>(\"d\", k.n, 0, 255) : k.Input<const unsigned char>(\"d\", k.n);\n"
         "  auto bins = k.InputFrom<int>(\"bins\", std::vector<int>(256, 0));\n"
         "  k.Launch(dim3(CeilDiv(k.n, 256)), dim3(256), hist, bins, d, k.n);\n"
         "  std::vector<int> want(256, 0);\n"
         "  for (unsigned char v : k.Host(d)) ++want[v];\n"
         "  for (int b = 0; b < 256; ++b) if (want[b] == 0) want[b] = -1;  // every byte must occur\n"
         "  k.Expect(bins, want);\n"
         "}\n"
         "WS_KERNEL(hist, .title = \"bytes 0 to 255\", .teaching_n = 4096) { Hist(k, true); }\n"
         "WS_KERNEL(hist_default, .title = \"bytes, default range\", .teaching_n = 4096) { Hist(k, false); }\n";
}

TEST(KernelFile, ExpectComparesVectorTypesAndStructsAndByteInputsHoldZero) {
  TempDir dir;
  const fs::path f = dir.path / "vec.cu";
  Write(f, VectorAndStructKernels());
  for (const char* kernel : {"twice4", "span", "hist", "hist_default"}) {
    const auto o = SimulateFile(f.string() + ":" + kernel);
    EXPECT_TRUE(o.check.passed) << kernel << ": " << o.check.detail;
  }
  const auto bad = SimulateFile(f.string() + ":twice4_wrong");
  EXPECT_FALSE(bad.check.passed);
  EXPECT_EQ(bad.check.mismatches, 1u);
  EXPECT_NE(bad.check.detail.find("1 of 400 components differ; first at 5.y"), std::string::npos) << bad.check.detail;
}

// CUDA's own forms of a dynamic shared array and of a volatile pointer into a shared array, which
// the dialect writes Shared<int[]> and Shared<volatile float*>: the compiler's error at the line
// names the dialect's form in the user's names.
TEST(KernelFileCli, CudaSharedFormsPointToTheDialectsForm) {
  const std::string head =
      "__global__ void reduce(Global<float> y, Global<const float> x, int n) {\n";         // 1
  const std::string tail =
      "  y[0] = x[0];\n"
      "}\n"
      "WS_KERNEL(reduce, .title = \"r\", .teaching_n = 256) {\n"
      "  auto x = k.Input<const float>(\"x\", k.n);\n"
      "  auto y = k.Output<float>(\"y\", 1);\n"
      "  k.Launch(dim3(1), dim3(256), 1024, reduce, y, x, k.n);\n"
      "}\n";
  TempDir dir;
  const fs::path a = dir.path / "dyn.cu";
  Write(a, head + "  extern __shared__ int s[];\n  s[threadIdx.x] = 1;\n" + tail);                      // 2, 3
  const auto ra = Cli("stats " + a.string());
  EXPECT_EQ(ra.code, 2) << ra.out;
  EXPECT_NE(ra.out.find("dyn.cu:2:"), std::string::npos) << ra.out;
  EXPECT_NE(ra.out.find("a shared array is written extern __shared__ Shared<int[]> s;"), std::string::npos) << ra.out;
  const fs::path b = dir.path / "vol.cu";
  Write(b, head + "  __shared__ Shared<float[256]> sdata;\n  volatile float* vs = sdata;\n  vs[0] = 1;\n" + tail);
  const auto rb = Cli("stats " + b.string());
  EXPECT_EQ(rb.code, 2) << rb.out;
  EXPECT_NE(rb.out.find("vol.cu:3:"), std::string::npos) << rb.out;
  EXPECT_NE(rb.out.find("a pointer into a shared array is written Shared<volatile float*> vs = sdata;"),
            std::string::npos) << rb.out;
}

// A folder named like a kernel file is said to be a folder.
TEST(KernelFileCli, StatsOfAFolderSaysItIsAFolder) {
  TempDir dir;
  fs::create_directory(dir.path / "d.cu");
  const auto r = Cli("stats " + (dir.path / "d.cu").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("d.cu is a folder, not a kernel file"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  const auto missing = Cli("stats " + (dir.path / "none.cu").string());
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.out.find("no kernel file"), std::string::npos) << missing.out;
}

TEST(KernelFile, FileRefSplitsAtTheLastColonAfterTheLastSlash) {
  std::string file, kernel;
  kernels::SplitKernelFileRef("/a:b/c.cu:k1", &file, &kernel);
  EXPECT_EQ(file, "/a:b/c.cu");
  EXPECT_EQ(kernel, "k1");
  kernels::SplitKernelFileRef("c.cu", &file, &kernel);
  EXPECT_EQ(file, "c.cu");
  EXPECT_EQ(kernel, "");
  EXPECT_TRUE(kernels::IsKernelFileRef("dir/c.cu:k1"));
  EXPECT_FALSE(kernels::IsKernelFileRef("transpose/naive"));
}


TEST(KernelFileCli, StatsAcceptsAFileWhereItAcceptsAVariant) {
  TempDir dir;
  const fs::path f = dir.path / "copy.cu";
  Write(f, CopyKernel(2));
  const auto r = Cli("stats " + f.string() + " --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["check"]["passed"].get<bool>());
  EXPECT_EQ(j["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"].get<uint64_t>(), 250u);  // as above
  const auto t = Cli("trace " + f.string() + ":copy3 --block 7 --warp 3 --csv");
  EXPECT_EQ(t.code, 0) << t.out;
}

// Each kernel of a file has its own default size: copy4 states .teaching_n = 2000, so `stats
// two.cu:copy4` runs n = 2000: 2000 = 62 * 32 + 16 threads in 63 warps, one load request each;
// copy3 keeps its 1000 (32 requests, as above).
TEST(KernelFileCli, EachKernelOfAFileRunsAtItsOwnTeachingSize) {
  TempDir dir;
  const fs::path f = dir.path / "two.cu";
  Write(f, TwoCopies(1, 1, ".teaching_n = 2000"));
  const auto b = Cli("stats " + f.string() + ":copy4 --json");
  ASSERT_EQ(b.code, 0) << b.out;
  const auto jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(jb["n"].get<int>(), 2000);
  EXPECT_EQ(jb["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].get<uint64_t>(), 63u);
  const auto a = Cli("stats " + f.string() + ":copy3 --json");
  ASSERT_EQ(a.code, 0) << a.out;
  const auto ja = nlohmann::json::parse(a.out);
  EXPECT_EQ(ja["n"].get<int>(), 1000);
  EXPECT_EQ(ja["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].get<uint64_t>(), 32u);
}

TEST(KernelFileCli, NewRefusesAnExistingFileAndCompileErrorsAreExitCode2AtTheirLine) {
  TempDir dir;
  const fs::path f = dir.path / "k.cu";
  EXPECT_EQ(Cli("new " + f.string()).code, 0);
  Write(f, "mine\n");
  const auto again = Cli("new " + f.string());
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.out.find("never overwrites"), std::string::npos) << again.out;
  EXPECT_EQ(Read(f), "mine\n");
  const auto bad = Cli("stats " + f.string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("k.cu:1:"), std::string::npos) << bad.out;  // "mine" is not C++
}
