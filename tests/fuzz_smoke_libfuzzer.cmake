# Runs the libFuzzer target RUNS times from SEEDS (new inputs go to a fresh
# corpus under WORK, never into the source tree) and checks that it ends
# with libFuzzer's "Done" line.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/failures)
execute_process(COMMAND ${CMAKE_COMMAND} -E env GMFUZZ_KEEP_GOING=1
                        GMFUZZ_FAILURE_DIR=${WORK}/failures
                        ${TARGET} -runs=${RUNS} -seed=1 -dict=${DICT} ${WORK}/corpus ${SEEDS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc EQUAL 0 OR NOT all MATCHES "Done ${RUNS} runs")
  string(LENGTH "${all}" n)
  math(EXPR from "${n} - 4000")
  if(from LESS 0)
    set(from 0)
  endif()
  string(SUBSTRING "${all}" ${from} -1 tail)
  message(FATAL_ERROR "libFuzzer exited ${rc}, expected 0 and 'Done ${RUNS} runs':\n${tail}")
endif()
string(REGEX MATCH "#[0-9]+[ \t]+DONE[^\n]*" done "${all}")
message(STATUS "ok: ${done}")
