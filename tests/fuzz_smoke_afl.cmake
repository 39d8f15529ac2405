# Builds gmfuzz-afl with afl-clang-fast (CC) in WORK/build (configured
# once, then incremental), replays one seed through the instrumented
# binary, then runs afl-fuzz on a handful of seeds until it has executed
# 2,000 inputs (-E; not -V: a time budget spent calibrating the seeds on a
# loaded machine left too few executions), and checks that it did.
set(build ${WORK}/build)
if(NOT EXISTS ${build}/CMakeCache.txt)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${build} -DCMAKE_C_COMPILER=${CC}
                          -DCMAKE_BUILD_TYPE=Release -DGMFUZZ_CUDA=OFF -DBUILD_TESTING=OFF
                          -DCMAKE_PREFIX_PATH=${CJSON_PREFIX}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring with ${CC} failed:\n${out}${err}")
  endif()
endif()
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${build} --target gmfuzz-afl -j ${cores}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building gmfuzz-afl failed:\n${out}${err}")
endif()
set(harness ${build}/fuzz/gmfuzz-afl)

file(GLOB seeds ${SEEDS}/*)
list(SORT seeds)
list(SUBLIST seeds 0 8 picked)
list(GET picked 0 first)
# Outside afl-fuzz the persistent harness reads one input from stdin.
execute_process(COMMAND ${harness} INPUT_FILE ${first} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gmfuzz-afl < ${first} exited ${rc}:\n${out}${err}")
endif()

set(execs_wanted 2000)
file(REMOVE_RECURSE ${WORK}/in ${WORK}/out)
file(MAKE_DIRECTORY ${WORK}/in)
file(COPY ${picked} DESTINATION ${WORK}/in)
execute_process(COMMAND ${CMAKE_COMMAND} -E env AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1
                        AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
                        AFL_SKIP_BIN_CHECK=0 GMFUZZ_KEEP_GOING=1
                        GMFUZZ_FAILURE_DIR=${WORK}/failures
                        ${AFL_FUZZ} -i ${WORK}/in -o ${WORK}/out -x ${DICT} -E ${execs_wanted}
                        -- ${harness}
                TIMEOUT 300 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(stats ${WORK}/out/default/fuzzer_stats)
if(NOT EXISTS ${stats})
  message(FATAL_ERROR "afl-fuzz left no fuzzer_stats (exit ${rc}):\n${out}${err}")
endif()
file(STRINGS ${stats} execs REGEX "^execs_done")
string(REGEX MATCH "[0-9]+" n "${execs}")
if(NOT rc EQUAL 0 OR n LESS execs_wanted)
  message(FATAL_ERROR
          "afl-fuzz exited '${rc}' after '${n}' inputs of ${execs_wanted}:\n${out}${err}")
endif()
file(STRINGS ${stats} speed REGEX "^execs_per_sec")
message(STATUS "ok: afl-fuzz ${execs}, ${speed}")
