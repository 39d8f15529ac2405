# Runs `gmfuzz fuzz --out OUT ARGS...` ('|'-separated ARGS) from a clean
# OUT and checks its exit code (RC), that its summary (stdout) matches every
# regex of REGEX (separated by '&&'), that OUT/summary.txt holds that same
# summary (these campaigns find fewer signatures than the screen version
# leaves out), and, with REPLAY=N, that
# `gmfuzz replay OUT/repros` passes exactly N reproducers.
file(REMOVE_RECURSE "${OUT}")
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${GMFUZZ} fuzz --out ${OUT} ${args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "--- stdout:\n${out}--- stderr:\n${err}")
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}\n${all}")
endif()
string(REPLACE "&&" ";" regexes "${REGEX}")
foreach(re IN LISTS regexes)
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "the summary does not match '${re}'\n${all}")
  endif()
endforeach()
if(RC LESS 2)
  file(READ "${OUT}/summary.txt" written)
  if(NOT written STREQUAL out)
    message(FATAL_ERROR "summary.txt differs from the printed summary\n${all}")
  endif()
endif()
if(DEFINED REPLAY)
  execute_process(COMMAND ${GMFUZZ} replay ${OUT}/repros
                  RESULT_VARIABLE rrc OUTPUT_VARIABLE rout ERROR_VARIABLE rerr)
  if(NOT rrc EQUAL 0 OR NOT rout MATCHES "^${REPLAY} passed, 0 failed")
    message(FATAL_ERROR "replay of ${OUT}/repros: exit ${rrc}\n${rout}${rerr}\n${all}")
  endif()
endif()
message(STATUS "ok: exit ${rc}\n${out}")
