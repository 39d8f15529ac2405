# After the finding (issue 25): `gmfuzz bisect` over a git repository the test builds
# (tests/history_repo.py: 40 commits of a CPU torch target) and `gmfuzz retest` over a
# campaign folder built from planted faults. Both run the target through the real
# Python worker on torch's CPU build (GMFUZZ_TEST_PYTHON, tests/python.cmake): labelled
# python, skipped (77) where that interpreter has no torch (or, for bisect, no git).
# Everything they write lies under this build tree.
# No torch needed: the regression corpus on gmfuzz's own kernel still fails as recorded
# (exit 0: nothing fixed, nothing changed); a case is not a reproducer (exit 3).
gmfuzz_cli_test(retest_regress 0 "reproducers: 0 fixed, [1-9][0-9]* still failing, 0 changed"
                "retest|${PROJECT_SOURCE_DIR}/corpus/regress")
gmfuzz_cli_test(retest_case 3 "not_run .*not a reproducer" "retest|${D}/cases/decode_basic.json")
gmfuzz_cli_test(bisect_help 0 "exit codes: 0 the commit found" "bisect|--help")
gmfuzz_cli_test(bisect_needs_target 2 "give --target T" "bisect|x.json|--repo|.|--good|a|--bad|b")
if(NOT GMFUZZ_TEST_PYTHON)
  return()
endif()
# About 95 s here (28 revisions checked out and run, a torch worker each).
add_test(NAME history.bisect
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/history_bisect.sh ${GMFUZZ_TEST_PYTHON}
                 $<TARGET_FILE:gmfuzz> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/history-bisect)
# About 25 s here.
add_test(NAME history.retest
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/history_retest.sh ${GMFUZZ_TEST_PYTHON}
                 $<TARGET_FILE:gmfuzz> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/history-retest)
set_tests_properties(history.bisect history.retest PROPERTIES LABELS "python;history"
                     SKIP_RETURN_CODE 77 TIMEOUT 900
                     ENVIRONMENT "GMFUZZ_TORCH_FAULT=;GMFUZZ_TRITON_FAULT=")
