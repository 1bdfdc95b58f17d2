// The longest variant name the toolbar shows whole, for the catalog's variants and a kernel
// file's WS_KERNELs alike.
#pragma once
#include <cstddef>

namespace ws::kernels {

// Measured at the toolbar's narrowest row, 1280x720 at UI scale 2 (the measurement is in
// kernels/discover_catalog.cmake, whose max_variant_name checks the catalog's names against the
// same number when it is built). A kernel file's names are checked against it when the file loads
// (toolchain/description.cpp).
inline constexpr std::size_t kMaxVariantName = 32;

}  // namespace ws::kernels
