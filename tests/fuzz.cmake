# The fuzz input codec and harnesses (fuzz/, docs/FUZZING.md).
set(GMFUZZ_SEED_DIR ${PROJECT_SOURCE_DIR}/corpus/seed)
set(GMFUZZ_DICT ${PROJECT_SOURCE_DIR}/fuzz/gmfuzz.dict)

gmfuzz_test(test_fuzz_decode SOURCES test_fuzz_decode.c LIBS gmfuzz_fuzz
            ARGS ${GMFUZZ_SHARED_DIR}/conformance/vectors LABELS fuzz)
gmfuzz_test(test_fuzz_reuse SOURCES test_fuzz_reuse.c LIBS gmfuzz_fuzz LABELS fuzz)
# The class schedule: sweep --cases is one fixed set of cases (issue 24 item 5).
gmfuzz_test(test_fuzz_sched SOURCES test_fuzz_sched.c LIBS gmfuzz_fuzz LABELS fuzz)
gmfuzz_test(test_fuzz_reach SOURCES test_fuzz_reach.c LIBS gmfuzz_fuzz ARGS ${GMFUZZ_DICT}
            LABELS fuzz)
# The one description of the input space (core/gm_space.h) against the
# decoder's specials and the dictionary (issue 23).
gmfuzz_test(test_space SOURCES test_space.c LIBS gmfuzz_fuzz ARGS ${GMFUZZ_DICT} LABELS "fuzz;gen")

# corpus/seed is what gmfuzz-seed makes of the conformance vectors and the
# example cases today: a change to the byte layout must regenerate it.
add_test(NAME fuzz.seeds_current
         COMMAND ${CMAKE_COMMAND} -DSEED_TOOL=$<TARGET_FILE:gmfuzz-seed>
                 -DSEEDS=${GMFUZZ_SEED_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds-current
                 -DCASES=${GMFUZZ_SHARED_DIR}/conformance/vectors
                 -DDERIVED=${CMAKE_CURRENT_SOURCE_DIR}/data/cases
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_seeds_current.cmake)
set_tests_properties(fuzz.seeds_current PROPERTIES LABELS "fuzz")

# Every seed decodes and checks without a failure (replay build of the
# AFL++ harness; exit 1 names the seed that fails).
file(GLOB GMFUZZ_SEED_FILES ${GMFUZZ_SEED_DIR}/*)
add_test(NAME fuzz.seeds_replay COMMAND gmfuzz-afl ${GMFUZZ_SEED_FILES})
set_tests_properties(fuzz.seeds_replay PROPERTIES LABELS "fuzz"
                     ENVIRONMENT "GMFUZZ_FAILURE_DIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds-failures")

# The job settings table (fuzz/fuzz_settings.def): its reader and the
# warning for an unknown GMFUZZ_* name; then a harness (the AFL++ replay
# build) given a misspelled one says so, naming the right one, and runs.
gmfuzz_test(test_fuzz_settings SOURCES test_fuzz_settings.c LIBS gmfuzz_fuzz LABELS fuzz)
list(GET GMFUZZ_SEED_FILES 0 GMFUZZ_ONE_SEED)
add_test(NAME fuzz.settings_misspelled
         COMMAND ${CMAKE_COMMAND} -E env GMFUZZ_KEEP_GOIN=1
                 GMFUZZ_FAILURE_DIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz-settings-failures
                 $<TARGET_FILE:gmfuzz-afl> ${GMFUZZ_ONE_SEED})
set_tests_properties(fuzz.settings_misspelled PROPERTIES LABELS "fuzz"
  PASS_REGULAR_EXPRESSION "warning: GMFUZZ_KEEP_GOIN is not a setting gmfuzz knows \\(did you mean GMFUZZ_KEEP_GOING\\?\\)")

# The libFuzzer CPU target, a fixed number of runs from the seed corpus
# (GMFUZZ_FUZZ=ON builds only): it loads, mutates at both levels, keeps
# going past known and new findings, and ends cleanly.
if(GMFUZZ_FUZZ_ACTIVE)
  add_test(NAME fuzz.libfuzzer_cpu_smoke
           COMMAND ${CMAKE_COMMAND} -DTARGET=$<TARGET_FILE:gmfuzz-libfuzzer-cpu>
                   -DSEEDS=${GMFUZZ_SEED_DIR} -DDICT=${GMFUZZ_DICT} -DRUNS=20000
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/fuzz-libfuzzer-smoke
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_smoke_libfuzzer.cmake)
  set_tests_properties(fuzz.libfuzzer_cpu_smoke PROPERTIES LABELS "fuzz" TIMEOUT 300)
endif()

# The AFL++ harness, built with afl-clang-fast in a tree of its own and run
# under afl-fuzz for a few seconds (when AFL++ is installed). Its build
# ignores this tree's sanitizers, so the ASan tree leaves it out.
find_program(GMFUZZ_AFL_CLANG_FAST afl-clang-fast)
find_program(GMFUZZ_AFL_FUZZ afl-fuzz)
if(GMFUZZ_AFL_CLANG_FAST AND GMFUZZ_AFL_FUZZ AND NOT GMFUZZ_SANITIZE)
  add_test(NAME fuzz.afl_smoke
           COMMAND ${CMAKE_COMMAND} -DSRC=${PROJECT_SOURCE_DIR} -DCC=${GMFUZZ_AFL_CLANG_FAST}
                   -DAFL_FUZZ=${GMFUZZ_AFL_FUZZ} -DSEEDS=${GMFUZZ_SEED_DIR} -DDICT=${GMFUZZ_DICT}
                   -DCJSON_PREFIX=${CMAKE_PREFIX_PATH}
                   -DWORK=${CMAKE_CURRENT_BINARY_DIR}/fuzz-afl-smoke
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_smoke_afl.cmake)
  set_tests_properties(fuzz.afl_smoke PROPERTIES LABELS "fuzz;afl" TIMEOUT 600)
endif()
