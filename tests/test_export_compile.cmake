# Exports every reproducer of CORPUS with `gmfuzz export pytest` into OUT
# (test_<name>.py, a name pytest can import) and checks that each file is
# valid Python (`python3 -m py_compile`, PYTHON). OUT is then what the GPU
# test runs (tests/export.cmake).
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
file(GLOB repros "${CORPUS}/*.json")
set(written)
foreach(repro IN LISTS repros)
  get_filename_component(stem "${repro}" NAME_WE)
  get_filename_component(name "${repro}" NAME)
  string(REGEX REPLACE "\\.json$" "" stem "${name}")
  string(REGEX REPLACE "[^A-Za-z0-9_]" "_" stem "${stem}")
  set(py "${OUT}/test_${stem}.py")
  execute_process(COMMAND ${GMFUZZ} export pytest "${repro}" -o "${py}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${py}")
    message(FATAL_ERROR "export of ${repro}: exit ${rc}\n${out}${err}")
  endif()
  list(APPEND written "${py}")
endforeach()
list(LENGTH written n)
if(n EQUAL 0)
  message(FATAL_ERROR "${CORPUS}: nothing to export")
endif()
execute_process(COMMAND ${PYTHON} -m py_compile ${written}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "py_compile: exit ${rc}\n${out}${err}")
endif()
message(STATUS "${n} reproducers exported, each valid Python")
