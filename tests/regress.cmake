# The regression corpus (corpus/regress/): replayed on every CI run, byte
# for byte, and `gmfuzz promote`, which adds to it. Included from
# tests/CMakeLists.txt (gmfuzz_cli_test). The corpus records what the
# correct kernel does: a tree built with a planted fault has no such tests.
if(NOT GMFUZZ_FAULT STREQUAL "")
  return()
endif()
set(GMFUZZ_REGRESS ${PROJECT_SOURCE_DIR}/corpus/regress)

# Every reproducer gives its recorded verdict and outputs, and is written
# again exactly as it is (`replay --exact`, repro/repro.h).
gmfuzz_cli_test(regress_replay 0 "^[1-9][0-9]* passed, 0 failed" "replay|${GMFUZZ_REGRESS}")
gmfuzz_cli_test(regress_replay_exact 0 "^[1-9][0-9]* passed, 0 failed"
                "replay|--exact|${GMFUZZ_REGRESS}")
set_tests_properties(cli.regress_replay cli.regress_replay_exact PROPERTIES
                     LABELS "cli;regress")

# The corpus keeps covering all 13 classes and all five modes.
add_test(NAME regress.coverage
         COMMAND ${CMAKE_COMMAND} -DCORPUS=${GMFUZZ_REGRESS}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/test_regress_coverage.cmake)

# The exact check can fail, and says where: altered copies of one regress
# file, made in the build tree.
add_test(NAME regress.exact_catches_changes
         COMMAND ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz>
                 -DSRC=${GMFUZZ_REGRESS}/decode.negative_token_rounding.page_table.json
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/regress-exact
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/test_regress_tamper.cmake)

# After an overrun, the buffers are held to the recorded bytes only on the
# recorded backend; elsewhere the overrun itself is checked.
add_test(NAME regress.exact_after_overrun
         COMMAND ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz>
                 -DSRC=${GMFUZZ_REGRESS}/draft_decode.fused_out_of_bounds._.json
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/regress-overrun
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/test_regress_overrun.cmake)

# triage, report and the baseline do not trust a recorded signature: a
# tampered copy of a regress file is new, in the stale bucket.
add_test(NAME regress.stale_signature
         COMMAND ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz>
                 -DSRC=${GMFUZZ_REGRESS}/decode.legacy_raises._.json
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/regress-stale
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/test_stale_signature.cmake)
set_tests_properties(regress.stale_signature PROPERTIES LABELS "regress;triage;report")

# `gmfuzz promote` into a corpus in the build tree.
add_test(NAME regress.promote
         COMMAND ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz>
                 -DCASES=${CMAKE_CURRENT_SOURCE_DIR}/data/cases
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/regress-promote
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/test_promote.cmake)
set_tests_properties(regress.coverage regress.exact_catches_changes regress.exact_after_overrun regress.promote
                     PROPERTIES LABELS "regress")
