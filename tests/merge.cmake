# gmfuzz merge (campaign/campaign_merge.h, issue 12 item 4) of three real
# campaign folders, made by the test (tests/merge_check.py).
#
# In a tree without a libFuzzer target (Release, ASan) the corpora can only
# be united by content: three sweep campaigns, the union said in the
# output and the record, and every error path (a source that is not a
# campaign folder, OUT a source, OUT not empty, OUT locked).
if(NOT GMFUZZ_FUZZ_ACTIVE)
  add_test(NAME merge.union_fallback
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/merge_check.py union $<TARGET_FILE:gmfuzz>
                   ${CMAKE_CURRENT_BINARY_DIR}/merge-union)
  set_tests_properties(merge.union_fallback PROPERTIES LABELS "cli;campaign" TIMEOUT 300)
endif()
# The libFuzzer tree: three 3,000-run campaigns of a planted fault (the variant
# bench/detect_faults.sh builds, in a tree of its own under this one),
# seeds 1, 2, 3, merged by that target's -merge=1.
if(GMFUZZ_FUZZ_ACTIVE AND NOT GMFUZZ_SANITIZE AND GMFUZZ_FAULT STREQUAL "")
  set(merge_build ${CMAKE_CURRENT_BINARY_DIR}/merge-fault-build)
  set(merge_variant ${merge_build}/variants/scan_exclusive)
  add_test(NAME merge.fault_build
           COMMAND ${PROJECT_SOURCE_DIR}/bench/detect_faults.sh --build-only --build ${merge_build}
                   --jobs-build 2 scan_exclusive)
  set_tests_properties(merge.fault_build PROPERTIES FIXTURES_SETUP merge_fault LABELS fuzz
                       SKIP_RETURN_CODE 77 TIMEOUT 1200)
  add_test(NAME merge.libfuzzer_three
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/merge_check.py libfuzzer
                   $<TARGET_FILE:gmfuzz> ${merge_variant}/gmfuzz
                   ${merge_variant}/gmfuzz-libfuzzer-cpu ${CMAKE_CURRENT_BINARY_DIR}/merge-libfuzzer)
  set_tests_properties(merge.libfuzzer_three PROPERTIES FIXTURES_REQUIRED merge_fault LABELS fuzz
                       TIMEOUT 300)
endif()
