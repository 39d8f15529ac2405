# The Python side (python/, examples/): the worker of docs/TARGETS.md and its
# client, the legacy sequence in real PyTorch, the example fused targets.
# Included from tests/CMakeLists.txt (GMFUZZ_VECTORS). The tests run under
# GMFUZZ_TEST_PYTHON (default /usr/bin/python3, Debian's, which has torch);
# each one exits 77 (skipped) where that interpreter cannot import torch.
if(EXISTS /usr/bin/python3)
  set(gmfuzz_test_python_default /usr/bin/python3)
else()
  find_program(gmfuzz_test_python_default python3)
endif()
set(GMFUZZ_TEST_PYTHON "${gmfuzz_test_python_default}" CACHE FILEPATH
    "The interpreter (with torch) that runs the python-labelled tests")
if(NOT GMFUZZ_TEST_PYTHON)
  message(STATUS "no python3: the python tests are left out")
  return()
endif()

set(PY_TEST ${GMFUZZ_TEST_PYTHON} -B ${CMAKE_CURRENT_SOURCE_DIR}/python_test.py)
set(PY_ROOT ${PROJECT_SOURCE_DIR})
set(PY_CASES ${PROJECT_SOURCE_DIR}/examples/fault_cases)
function(gmfuzz_python_test name)
  add_test(NAME python.${name} COMMAND ${PY_TEST} ${ARGN} WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(python.${name} PROPERTIES LABELS "python" SKIP_RETURN_CODE 77
                       ENVIRONMENT "GMFUZZ_PYTHON=${GMFUZZ_TEST_PYTHON};GMFUZZ_TORCH_FAULT=;GMFUZZ_TRITON_FAULT=;GMFUZZ_SPEC_FAULT=")
endfunction()

# The worker's protocol corners (HELLO, REFUSED, prints, exception names, EOF, STOP).
gmfuzz_python_test(worker_protocol protocol)
# (a) and (b), the 250 vectors through the worker, run through gmfuzz itself: targets.cmake.
# (c) every planted torch_fused fault shows on its case (raise, segfault, hang included),
#     and the clean runs equal gmfuzz's own fused model. (--timeout 10: a call's limit the
#     clean calls keep on a loaded machine too; the hang sleeps an hour.)
gmfuzz_python_test(torch_fused_faults client --fault-cases --timeout 10
                   --gmfuzz $<TARGET_FILE:gmfuzz> --module ${PY_ROOT}/examples/torch_fused.py
                   ${PY_CASES})
# examples/triton_fused.py's kernel LOGIC on the CPU through tests/triton_stub (not Triton:
# its body run per program in Python); the real thing needs a GPU.
gmfuzz_python_test(triton_stub_vectors client --role fused --device cpu --expect 250
                   --module ${CMAKE_CURRENT_SOURCE_DIR}/triton_stub_target.py ${GMFUZZ_VECTORS})
gmfuzz_python_test(triton_stub_faults client --fault-cases --fault-target triton_fused
                   --gmfuzz $<TARGET_FILE:gmfuzz>
                   --module ${CMAKE_CURRENT_SOURCE_DIR}/triton_stub_target.py ${PY_CASES})
# The targets that specialize as Triton does by default (examples/triton_specializing.py and
# its CPU stand-in examples/specializing_cpu.py, one specialization key and one fault table:
# examples/specializing_common.py). The stand-in's compile and load costs are 0 here, its
# on-disk cache in this build tree, except in specializing_jit, which measures them.
set(PY_SPEC_CACHE ${CMAKE_CURRENT_BINARY_DIR}/specializing-cache)
set(PY_SPEC_FREE GMFUZZ_STANDIN_COMPILE_S=0 GMFUZZ_STANDIN_WIDE_S=0 GMFUZZ_STANDIN_LOAD_S=0
    GMFUZZ_STANDIN_BUSY= TRITON_CACHE_DIR=${PY_SPEC_CACHE})
gmfuzz_python_test(specializing_cpu_vectors client --role fused --device cpu --expect 250
                   --module ${PY_ROOT}/examples/specializing_cpu.py ${GMFUZZ_VECTORS})
# every planted fault shows on its case, and the clean runs equal gmfuzz's fused model
gmfuzz_python_test(specializing_cpu_faults client --fault-cases --gmfuzz $<TARGET_FILE:gmfuzz>
                   --module ${PY_ROOT}/examples/specializing_cpu.py ${PY_CASES})
# triton_specializing.py's kernel LOGIC through tests/triton_stub (not Triton): all 250
# vectors (about 5 s here), and the faults on the stand-in's cases, less the two that read
# through a dropped guard (the stub raises IndexError where the GPU reads before the mapping)
gmfuzz_python_test(triton_stub_specializing_vectors client --role fused --device cpu
                   --expect 250 --module ${CMAKE_CURRENT_SOURCE_DIR}/triton_stub_specializing_target.py
                   ${GMFUZZ_VECTORS})
set(PY_SPEC_STUB_FAULTS)
foreach(fault scan_past_1000 swa_out_tile_pad page_cols_past_512 floor_div bs1_no_offset)
  list(APPEND PY_SPEC_STUB_FAULTS ${PY_CASES}/specializing_cpu-${fault}.json)
endforeach()
gmfuzz_python_test(triton_stub_specializing_faults client --fault-cases
                   --fault-target specializing_cpu --gmfuzz $<TARGET_FILE:gmfuzz>
                   --module ${CMAKE_CURRENT_SOURCE_DIR}/triton_stub_specializing_target.py
                   ${PY_SPEC_STUB_FAULTS})
foreach(t specializing_cpu_vectors specializing_cpu_faults triton_stub_specializing_vectors
          triton_stub_specializing_faults)
  set_property(TEST python.${t} APPEND PROPERTY ENVIRONMENT ${PY_SPEC_FREE})
endforeach()
# the stand-in's simulated JIT: compile, cache file, load in a second process, free after
gmfuzz_python_test(specializing_jit jit ${PY_ROOT}/examples/specializing_cpu.py)

# Every exported regress reproducer's test_legacy_sequence, in real PyTorch: the exported
# files hold python/gmfuzz_legacy.py's text (export/CMakeLists.txt).
if(TEST export.regress_compiles)
  gmfuzz_python_test(exported_legacy exported ${CMAKE_CURRENT_BINARY_DIR}/export/regress)
  set_tests_properties(python.exported_legacy PROPERTIES FIXTURES_REQUIRED exported_regress)
endif()

# CUDA-graph replay of a shape's calls (python/worker_graphs.py) answers as plain calls do,
# on the Triton example (GPU machine; skipped without CUDA or Triton).
gmfuzz_python_test(graphs_vs_plain graphs ${PY_ROOT}/examples/triton_fused.py ${GMFUZZ_VECTORS})
set_tests_properties(python.graphs_vs_plain PROPERTIES LABELS "python;gpu")
