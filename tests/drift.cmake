# The three-way differential (issue 27): the vectors made of drift
# reproducers, and its efficacy on faults planted in the C reference.
# Included by tests/CMakeLists.txt after python.cmake (GMFUZZ_TEST_PYTHON).

# corpus/vectors/: conformance vectors made by `gmfuzz vector` of drift
# reproducers, real PyTorch's legacy outputs in them: the C reference must
# give them exactly, as it must the shared ones.
# Their "fused" is the correct kernel's: a tree with a planted kernel fault
# skips them (a tree with a planted reference fault fails them: the point).
file(GLOB gmfuzz_drift_vectors CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/corpus/vectors/*.json)
if(gmfuzz_drift_vectors AND GMFUZZ_FAULT STREQUAL "")
  add_test(NAME vectors.corpus COMMAND gmfuzz replay ${PROJECT_SOURCE_DIR}/corpus/vectors)
  set_tests_properties(vectors.corpus PROPERTIES LABELS "unit;vectors"
                       PASS_REGULAR_EXPRESSION " passed, 0 failed")
endif()

# One test per planted reference fault (reference/reference_faults.h), on a
# gmfuzz linked with it (cli/CMakeLists.txt, gmfuzz_reffault_<name>), and
# one on the correct reference ("none"): a three-way sweep of
# GMFUZZ_DRIFT_SWEEP_CASES generated cases (seed 1: the same cases on any
# machine; the sweeps of seed 1 find both faults within 49 cases, every mode
# of them), its buckets and its vector (tests/drift_efficacy.sh). The two
# faults are expected in two different buckets, named here. About 10 s each.
set(GMFUZZ_DRIFT_SWEEP_CASES 1000 CACHE STRING
    "Cases of each three-way efficacy sweep (tests/drift_efficacy.sh)")
set(gmfuzz_drift_bucket_page_ids_truncated "reference_drift:page_table|live|floor_vs_trunc")
set(gmfuzz_drift_bucket_swa_out_keeps_int64 "reference_drift:swa_out_cache_loc|slots|int32_wrap")
if(GMFUZZ_REFERENCE_FAULT_OBJECTS AND GMFUZZ_TEST_PYTHON)
  set(drift_sh ${CMAKE_CURRENT_SOURCE_DIR}/drift_efficacy.sh)
  foreach(fault IN LISTS GMFUZZ_REFERENCE_FAULT_OBJECTS)
    set(vector)
    if(EXISTS ${PROJECT_SOURCE_DIR}/corpus/vectors/${fault}.json)
      set(vector ${PROJECT_SOURCE_DIR}/corpus/vectors/${fault}.json)
    endif()
    add_test(NAME efficacy_drift.${fault}
             COMMAND ${drift_sh} ${GMFUZZ_TEST_PYTHON} $<TARGET_FILE:gmfuzz_reffault_${fault}>
                     $<TARGET_FILE:gmfuzz> ${CMAKE_CURRENT_BINARY_DIR}/efficacy-drift/${fault}
                     ${GMFUZZ_DRIFT_SWEEP_CASES} "${gmfuzz_drift_bucket_${fault}}" ${vector})
    set_tests_properties(efficacy_drift.${fault} PROPERTIES LABELS "efficacy;python"
                         SKIP_RETURN_CODE 77 TIMEOUT 400)
  endforeach()
  add_test(NAME efficacy_drift.none
           COMMAND ${drift_sh} ${GMFUZZ_TEST_PYTHON} $<TARGET_FILE:gmfuzz> $<TARGET_FILE:gmfuzz>
                   ${CMAKE_CURRENT_BINARY_DIR}/efficacy-drift/none ${GMFUZZ_DRIFT_SWEEP_CASES} none)
  set_tests_properties(efficacy_drift.none PROPERTIES LABELS "efficacy;python"
                       SKIP_RETURN_CODE 77 TIMEOUT 400)
endif()

# The same faults through the libFuzzer engine's path (`gmfuzz fuzz
# --engine libfuzzer`: the campaign driver, the engine's protocol, the
# per-input check in the target, three-way): tests/fake_libfuzzer linked
# with each faulty reference, tests/data/drift_seeds as its seeds (cases of
# the regression corpus and tests/data/cases: negative tokens, mapping values
# past int32, a plain decode), 300 runs;
# the driver, which replays and minimizes, is the faulty gmfuzz too.
# Every tree builds it; the real libFuzzer targets are the fuzz tree's
# (fuzz/CMakeLists.txt, gmfuzz-libfuzzer-reffault-<name>, below).
if(GMFUZZ_REFERENCE_FAULT_OBJECTS AND GMFUZZ_TEST_PYTHON)
  foreach(fault IN LISTS GMFUZZ_REFERENCE_FAULT_OBJECTS)
    add_executable(fake_libfuzzer_reffault_${fault} fake_libfuzzer.c
                   $<TARGET_OBJECTS:gmfuzz_reference_fault_${fault}>)
    target_link_libraries(fake_libfuzzer_reffault_${fault} PRIVATE gmfuzz_fuzz)
    gmfuzz_c_target(fake_libfuzzer_reffault_${fault})
    add_test(NAME efficacy_drift_fuzz.${fault}
             COMMAND ${drift_sh} ${GMFUZZ_TEST_PYTHON} $<TARGET_FILE:gmfuzz_reffault_${fault}>
                     $<TARGET_FILE:gmfuzz> ${CMAKE_CURRENT_BINARY_DIR}/efficacy-drift-fuzz/${fault}
                     300 "${gmfuzz_drift_bucket_${fault}}")
    set_tests_properties(efficacy_drift_fuzz.${fault} PROPERTIES LABELS "efficacy;python"
                         SKIP_RETURN_CODE 77 TIMEOUT 400
                         ENVIRONMENT "FAKE_EXEC_US=0;DRIFT_ENGINE_BINARY=$<TARGET_FILE:fake_libfuzzer_reffault_${fault}>;DRIFT_SEEDS=${CMAKE_CURRENT_SOURCE_DIR}/data/drift_seeds")
  endforeach()
  add_test(NAME efficacy_drift_fuzz.none
           COMMAND ${drift_sh} ${GMFUZZ_TEST_PYTHON} $<TARGET_FILE:gmfuzz> $<TARGET_FILE:gmfuzz>
                   ${CMAKE_CURRENT_BINARY_DIR}/efficacy-drift-fuzz/none 300 none)
  set_tests_properties(efficacy_drift_fuzz.none PROPERTIES LABELS "efficacy;python"
                       SKIP_RETURN_CODE 77 TIMEOUT 400
                       ENVIRONMENT "FAKE_EXEC_US=0;DRIFT_ENGINE_BINARY=$<TARGET_FILE:fake_libfuzzer>;DRIFT_SEEDS=${CMAKE_CURRENT_SOURCE_DIR}/data/drift_seeds")
endif()

# The real libFuzzer targets (the fuzz tree, label fuzz): each faulty
# reference's gmfuzz-libfuzzer-reffault-<name>, driven by its gmfuzz, from
# the default seed corpus, 2,000 runs (the first drift of each comes while
# the 274 seeds are replayed: executions 11 and 181), and the correct target.
if(GMFUZZ_FUZZ_ACTIVE AND GMFUZZ_REFERENCE_FAULT_OBJECTS AND GMFUZZ_TEST_PYTHON)
  foreach(fault IN LISTS GMFUZZ_REFERENCE_FAULT_OBJECTS)
    add_test(NAME fuzz.drift_libfuzzer_${fault}
             COMMAND ${drift_sh} ${GMFUZZ_TEST_PYTHON} $<TARGET_FILE:gmfuzz_reffault_${fault}>
                     $<TARGET_FILE:gmfuzz> ${CMAKE_CURRENT_BINARY_DIR}/drift-libfuzzer/${fault}
                     2000 "${gmfuzz_drift_bucket_${fault}}")
    set_tests_properties(fuzz.drift_libfuzzer_${fault} PROPERTIES LABELS "fuzz;efficacy;python"
                         SKIP_RETURN_CODE 77 TIMEOUT 400
                         ENVIRONMENT "DRIFT_ENGINE_BINARY=$<TARGET_FILE:gmfuzz-libfuzzer-reffault-${fault}>")
  endforeach()
  add_test(NAME fuzz.drift_libfuzzer_none
           COMMAND ${drift_sh} ${GMFUZZ_TEST_PYTHON} $<TARGET_FILE:gmfuzz> $<TARGET_FILE:gmfuzz>
                   ${CMAKE_CURRENT_BINARY_DIR}/drift-libfuzzer/none 2000 none)
  set_tests_properties(fuzz.drift_libfuzzer_none PROPERTIES LABELS "fuzz;efficacy;python"
                       SKIP_RETURN_CODE 77 TIMEOUT 400
                       ENVIRONMENT "DRIFT_ENGINE_BINARY=$<TARGET_FILE:gmfuzz-libfuzzer-cpu>")
endif()
