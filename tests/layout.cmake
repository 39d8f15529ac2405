# The layout rules of issue 13 (scripts/check-layout): no C/CUDA file over
# 700 lines, no upward include, no include circle between rooms, only a
# room's public headers included from other rooms. CPU only, well under 1 s.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME layout.tree
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/check-layout
                   ${PROJECT_SOURCE_DIR})
  # A made-up tree that breaks each rule once: every problem is named.
  add_test(NAME layout.rules
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check_layout_check.sh
                   ${PROJECT_SOURCE_DIR}/scripts/check-layout ${CMAKE_CURRENT_BINARY_DIR}/layout-rules)
  set_tests_properties(layout.tree layout.rules PROPERTIES LABELS layout TIMEOUT 60)
endif()
