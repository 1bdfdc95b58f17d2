// How the catalog's lessons declare themselves: a family is a folder kernels/NAME/ whose
// family.inl says what the lesson is (WS_FAMILY) and holds its CPU reference; every .cuh of the
// folder with a WS_VARIANT is one variant (the other .cuh files are helpers the family includes).
// kernels/discover_catalog.cmake finds them at build time and writes one include that both back
// ends compile (kernels/sim_families.cpp, kernels/cuda_families.cu), each inside its own
// namespace with `Backend` naming its back end; the declarations register themselves there.
// Each family's files are included inside a namespace named after its folder (`transpose`), so
// two families may use the same names for their kernels, constants and run routines.
//
// kernels/transpose/naive.cuh ends with (b: Backend&, r: const RunRequest&):
//
//   WS_VARIANT(naive, .order = 2, .title = "Naive transpose",
//              .watch = "Reads along rows, writes down columns: each store touches 32 sectors in 32 lines.") {
//     return RunTranspose(b, r, transpose_naive_kernel, tile_dim, tile_dim, kOnePerElement);
//   }
//
// RunTranspose is the family's, in its family.inl: it makes the inputs and names the grid, the
// block and the reference, and hands them to RunVariant, the run routine every family shares
// (kernels/family_run.h). tests/test_catalog_discovery.cpp checks that this example is the file's.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/family.h"

namespace ws::kernels {

// What WS_FAMILY says, in this order (C++ designated initialisers keep it).
struct FamilyDecl {
  int order = 0;                      // place in the lesson order (ties: by folder name)
  const char* title = "";
  const char* story = "";             // what the lesson is about
  int teaching_n = 0;                 // default size for pictures
  int timing_n = 0;                   // default size for GPU timings
  int max_sim_n = 0;                  // largest size the simulator accepts (memory cap)
  const char* size_meaning = "";      // what n means: "n x n matrix"
  Work (*work)(double n) = nullptr;   // bytes and operations at size n, for variants that state none
  bool arithmetic_bound = false;      // GPU timings as % of the FP32 peak, not of the copy bandwidth
};

// What WS_VARIANT says, in this order.
struct VariantDecl {
  int order = 0;                      // place in the family's lesson order (ties: by name)
  const char* title = "";             // one line
  const char* watch = "";             // what this variant changes and what to watch
  Work (*work)(double n) = nullptr;   // nullptr: the family's
  std::vector<sim::FindingKind> warns;  // warnings the lesson shows on purpose (tests expect exactly these)
  // Where nvcc's code differs from the source in a way the generated notes (sim/compiled_notes.h)
  // cannot say from the SASS; empty for every variant now (docs/FIDELITY.md).
  const char* on_hardware = "";
};

// The declarations one back end registered, before they are sorted into lesson order.
template <class Backend>
struct DeclaredVariant {
  std::string name, source;  // source: "kernels/transpose/naive.cuh"
  VariantDecl decl;
  Check (*run)(Backend& b, const RunRequest& r) = nullptr;
};

template <class Backend>
struct DeclaredFamily {
  std::string name;
  std::string source;  // its family.inl; empty while no WS_FAMILY was seen
  FamilyDecl decl;
  std::vector<DeclaredVariant<Backend>> variants;
};

template <class Backend>
std::vector<DeclaredFamily<Backend>>& DeclaredFamilies() {
  static std::vector<DeclaredFamily<Backend>> families;
  return families;
}

template <class Backend>
DeclaredFamily<Backend>& DeclaredFamilyNamed(const char* name) {
  auto& all = DeclaredFamilies<Backend>();
  for (auto& f : all)
    if (f.name == name) return f;
  all.push_back({name, "", {}, {}});
  return all.back();
}

template <class Backend>
struct FamilyRegistrar {
  FamilyRegistrar(const char* family, const char* source, const FamilyDecl& decl) {
    auto& f = DeclaredFamilyNamed<Backend>(family);
    f.source = source;
    f.decl = decl;
  }
};

template <class Backend>
struct VariantRegistrar {
  VariantRegistrar(const char* family, const char* name, const char* source, const VariantDecl& decl,
                   Check (*run)(Backend&, const RunRequest&)) {
    DeclaredFamilyNamed<Backend>(family).variants.push_back({name, source, decl, run});
  }
};

// Families by (order, name), each one's variants by (order, name): the lesson order.
template <class Backend>
std::vector<DeclaredFamily<Backend>> FamiliesInLessonOrder() {
  auto all = DeclaredFamilies<Backend>();
  auto before = [](const auto& a, const auto& b) {
    return a.decl.order != b.decl.order ? a.decl.order < b.decl.order : a.name < b.name;
  };
  std::stable_sort(all.begin(), all.end(), before);
  for (auto& f : all) std::stable_sort(f.variants.begin(), f.variants.end(), before);
  return all;
}

}  // namespace ws::kernels

// Inside the generated include: kWsFamily (the folder's name) and WS_SOURCE (the file's path) are
// defined around each file; `Backend` is the back end of the enclosing namespace.
#define WS_FAMILY(...)                                                        \
  static const ::ws::kernels::FamilyRegistrar<Backend> ws_family_registrar( \
      kWsFamily, WS_SOURCE, ::ws::kernels::FamilyDecl{__VA_ARGS__})

#define WS_VARIANT(NAME, ...)                                                                         \
  static ::ws::kernels::Check ws_run_##NAME(Backend& b, const ::ws::kernels::RunRequest& r);          \
  static const ::ws::kernels::VariantRegistrar<Backend> ws_variant_registrar_##NAME(                  \
      kWsFamily, #NAME, WS_SOURCE, ::ws::kernels::VariantDecl{__VA_ARGS__}, ws_run_##NAME);           \
  static ::ws::kernels::Check ws_run_##NAME([[maybe_unused]] Backend& b,                              \
                                            [[maybe_unused]] const ::ws::kernels::RunRequest& r)
