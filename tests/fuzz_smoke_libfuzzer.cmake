# Runs the libFuzzer target RUNS times from SEEDS (new inputs go to a fresh
# corpus under WORK, never into the source tree) and checks that it ends
# with libFuzzer's "Done N runs" line, N at least RUNS: libFuzzer stops at
# the first check past the budget, and some runs are counted between checks
# (the seed corpus, a leak check's second run of an input), so N is not
# always RUNS itself ("Done 1002 runs" for -runs=1000 was seen).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/failures)
execute_process(COMMAND ${CMAKE_COMMAND} -E env GMFUZZ_KEEP_GOING=1
                        GMFUZZ_FAILURE_DIR=${WORK}/failures
                        ${TARGET} -runs=${RUNS} -seed=1 -dict=${DICT} ${WORK}/corpus ${SEEDS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
set(done_runs 0)
if(all MATCHES "Done ([0-9]+) runs")
  set(done_runs ${CMAKE_MATCH_1})
endif()
if(NOT rc EQUAL 0 OR done_runs LESS RUNS)
  string(LENGTH "${all}" n)
  math(EXPR from "${n} - 4000")
  if(from LESS 0)
    set(from 0)
  endif()
  string(SUBSTRING "${all}" ${from} -1 tail)
  message(FATAL_ERROR "libFuzzer exited ${rc}, expected 0 and 'Done N runs', "
                      "N >= ${RUNS} (N: ${done_runs}):\n${tail}")
endif()
string(REGEX MATCH "#[0-9]+[ \t]+DONE[^\n]*" done "${all}")
message(STATUS "ok: ${done}")
