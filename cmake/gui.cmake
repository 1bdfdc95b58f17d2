# The desktop GUI: visual/ (drawing a trace) and app/gui_* (the window), linked into warpscope.
# Needs Dear ImGui with its GLFW + OpenGL3 backends (Debian: libimgui-dev), GLFW 3, OpenGL, stb.
find_package(PkgConfig REQUIRED)
pkg_check_modules(WS_IMGUI REQUIRED IMPORTED_TARGET imgui)
pkg_check_modules(WS_GLFW REQUIRED IMPORTED_TARGET glfw3)
set(OpenGL_GL_PREFERENCE GLVND)
find_package(OpenGL REQUIRED)
find_path(WS_STB_INCLUDE stb_image_write.h PATH_SUFFIXES stb REQUIRED)

add_library(ws_visual STATIC
  visual/layout.cpp visual/palette.cpp visual/steps.cpp visual/stepping.cpp
  visual/memory_grid.cpp visual/memory_plan_share.cpp visual/warp_lanes.cpp visual/banks.cpp
  visual/source_view.cpp visual/source_excerpt.cpp visual/counters.cpp visual/timeline.cpp visual/fault_banner.cpp
  visual/legend.cpp visual/glossary.cpp visual/memory_chart.cpp visual/l1_state.cpp visual/l1_view.cpp
  visual/l2_view.cpp visual/tooltip.cpp)
target_link_libraries(ws_visual PUBLIC ws_sim PkgConfig::WS_IMGUI OpenGL::GL)
# The backends' headers include "imgui.h" by name.
target_include_directories(ws_visual PUBLIC /usr/include/imgui /usr/include/imgui/backends)

# GIF writing and the checks on what an export asks for; no window, so tested anywhere.
find_package(GIF REQUIRED)
add_library(ws_export STATIC app/gif_writer.cpp)
target_include_directories(ws_export PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(ws_export PUBLIC GIF::GIF)

# Capture: screenshots, and the layout JSON (views' rectangles, text found in the draw data).
add_library(ws_capture STATIC app/gui_capture.cpp)
target_include_directories(ws_capture PUBLIC ${CMAKE_SOURCE_DIR} PRIVATE ${WS_STB_INCLUDE})
target_link_libraries(ws_capture PUBLIC ws_visual PRIVATE nlohmann_json::nlohmann_json)

# The keys: one table (no window, so its tests, the README's key list among them, run anywhere).
add_library(ws_keys STATIC app/key_table.cpp)
target_include_directories(ws_keys PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(ws_keys PUBLIC PkgConfig::WS_GLFW)

# Lesson scripts: reading and checking one (its slides simulated as the window would show them).
add_library(ws_lesson STATIC app/lesson.cpp app/lesson_figures.cpp)
target_include_directories(ws_lesson PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(ws_lesson PUBLIC ws_cli ws_visual ws_export nlohmann_json::nlohmann_json)

# The window: one Gui class over gui_app.cpp and one gui_<part>.cpp per job (see gui_app.h).
target_sources(warpscope PRIVATE app/gui_main.cpp app/gui_app.cpp app/gui_window.cpp app/gui_fonts.cpp
  app/gui_poll.cpp app/gui_keys.cpp app/gui_toolbar.cpp app/gui_pane.cpp app/gui_help.cpp app/gui_layout.cpp app/gui_printf.cpp
  app/gui_loop.cpp app/gui_script.cpp app/gui_bench.cpp app/gui_worker.cpp app/gui_export.cpp app/gui_render.cpp
  app/gui_lesson.cpp app/lesson_export.cpp)
target_include_directories(warpscope PRIVATE ${WS_STB_INCLUDE})
target_compile_definitions(warpscope PRIVATE WARPSCOPE_WITH_GUI)
find_package(Threads REQUIRED)
target_link_libraries(warpscope PRIVATE ws_visual ws_keys ws_settings ws_export ws_capture ws_lesson PkgConfig::WS_GLFW OpenGL::GL Threads::Threads)

# A contact sheet of exported lesson slides (docs/lessons-contact-sheet.png; see README).
add_executable(ws_contact_sheet tools/contact_sheet/contact_sheet.cpp)
target_include_directories(ws_contact_sheet PRIVATE ${WS_STB_INCLUDE})
