# cli_step(NAME RC REGEX ARG...): runs ${GMFUZZ} ARG... in a -P script and
# checks its exit code and that a line of its output (stdout and stderr
# together) matches REGEX from its start. The output is matched whole, with
# a newline in front, so that brackets in it (page_table[0][3]) never meet
# CMake's list splitting. Used by the scenario scripts tests/test_*.cmake.
function(cli_step name rc regex)
  execute_process(COMMAND ${GMFUZZ} ${ARGN} RESULT_VARIABLE got OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  set(all "\n${out}${err}")
  if(NOT got EQUAL rc)
    message(FATAL_ERROR "${name}: exit code ${got}, expected ${rc}\n--- output:${all}")
  endif()
  if(NOT all MATCHES "\n${regex}")
    message(FATAL_ERROR "${name}: no line matches '${regex}'\n--- output:${all}")
  endif()
  message(STATUS "${name}: ok (exit ${got})")
endfunction()
