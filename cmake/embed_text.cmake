# Writes a C++ file holding the text of every kernel source, so the program can show it (also
# used for the toolchain's headers and template).
# Usage: cmake -DROOT=<repo> -DOUT=<file.cpp> -DLIST=<file holding a;b> [-DFUNCTION=Name] [-DNAMESPACE=ns]
#              -P embed_text.cmake
if(NOT FUNCTION)
  set(FUNCTION EmbeddedSources)
endif()
if(NOT NAMESPACE)
  set(NAMESPACE ws::kernels)
endif()
set(body "// Generated from the kernel sources; do not edit.\n#include <string>\n#include <utility>\n#include <vector>\nnamespace ${NAMESPACE} {\nconst std::vector<std::pair<std::string, std::string>>& ${FUNCTION}() {\n  static const std::vector<std::pair<std::string, std::string>> s = {\n")
file(READ "${LIST}" FILES)
foreach(f IN LISTS FILES)
  file(READ "${ROOT}/${f}" text)
  string(APPEND body "    {\"${f}\", R\"wssrc(${text})wssrc\"},\n")
endforeach()
string(APPEND body "  };\n  return s;\n}\n}  // namespace ${NAMESPACE}\n")
file(WRITE "${OUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
