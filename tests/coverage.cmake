# `gmfuzz coverage` (cli/cmd_coverage.c, coverage/coverage.h) on a real campaign folder: a 64-case
# CPU sweep (seeded with corpus/seed) plus two reproducers of the
# regression corpus among its failures (the JSON path of the runner).
# The coverage tree is a full build of the libraries: one tree, under this
# build tree, serves both runs of the test (the second reuses it), and the
# label lets CI run it in one tree only (scripts/test). Skipped (77) where
# clang or the LLVM tools are missing. Included from tests/CMakeLists.txt.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME coverage.campaign
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/coverage_check.sh $<TARGET_FILE:gmfuzz>
                   ${CMAKE_CURRENT_BINARY_DIR}/coverage ${CMAKE_BINARY_DIR}/coverage-tree
                   ${PROJECT_SOURCE_DIR} ${Python3_EXECUTABLE})
  set_tests_properties(coverage.campaign PROPERTIES LABELS "coverage" SKIP_RETURN_CODE 77
                       TIMEOUT 900)
endif()
