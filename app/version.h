// The program's version and the commit it was built from (`warpscope --version`); the
// definitions are written at build time by cmake/version.cmake.
#pragma once

namespace ws::app {

const char* Version();  // "0.1.0", the project's VERSION in CMakeLists.txt
const char* Commit();   // `git describe --always --dirty` of the source tree, or "unknown"

}  // namespace ws::app
