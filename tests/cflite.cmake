# The ClusterFuzzLite / OSS-Fuzz integration (.clusterfuzzlite/,
# .github/workflows/): the files parse and name the real actions; in the
# fuzz tree, build.sh builds every target into $OUT as the base-builder
# runs it, and each target runs from there.
if(NOT DEFINED GMFUZZ_TEST_PYTHON)
  set(GMFUZZ_TEST_PYTHON python3)
endif()
add_test(NAME cli.cflite_files
         COMMAND ${GMFUZZ_TEST_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cflite_check.py ${PROJECT_SOURCE_DIR})
set_tests_properties(cli.cflite_files PROPERTIES LABELS cli SKIP_RETURN_CODE 77)
if(GMFUZZ_FUZZ_ACTIVE)
  add_test(NAME fuzz.cflite_build
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cflite_build.sh ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/cflite)
  set_tests_properties(fuzz.cflite_build PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()
