# The GPU side: label `gpu` tests skip (exit 77) where no GPU is present;
# the ABI's argument checks run everywhere.
if(GMFUZZ_HAVE_CUDA)
  add_test(NAME conformance_cuda_graph COMMAND test_backends cuda-graph ${GMFUZZ_VECTORS} 20000)
  set_tests_properties(conformance_cuda_graph PROPERTIES SKIP_RETURN_CODE 77
                       LABELS "gpu;conformance")

  gmfuzz_test(test_device_errors SOURCES test_device_errors.c LIBS gmfuzz_harness
              ARGS ${CMAKE_CURRENT_BINARY_DIR}/device-errors LABELS gpu)
  # Inputs are read-only on the GPU backends too (issue 24 item 2): a stray
  # write into an input, seen by the arena's and the shared block's checks.
  gmfuzz_test(test_gpu_inputs SOURCES test_gpu_inputs.c LIBS gmfuzz_harness CUDA::cudart
              LABELS gpu)

  add_executable(test_kernel_abi test_kernel_abi.c)
  target_include_directories(test_kernel_abi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  # The shared library first: the ABI under test is the one it exports.
  target_link_libraries(test_kernel_abi PRIVATE gmfuzz_kernel gmfuzz_harness CUDA::cudart)
  gmfuzz_c_target(test_kernel_abi)
  add_test(NAME kernel_abi_args COMMAND test_kernel_abi args)
  set_tests_properties(kernel_abi_args PROPERTIES LABELS "unit")
  add_test(NAME kernel_abi_gpu COMMAND test_kernel_abi gpu)
  set_tests_properties(kernel_abi_gpu PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu")

  # The documented Python example (docs/KERNEL_ABI.md), on torch tensors.
  find_program(GMFUZZ_PYTHON3 python3)
  if(GMFUZZ_PYTHON3)
    add_test(NAME kernel_abi_ctypes
             COMMAND ${GMFUZZ_PYTHON3} ${PROJECT_SOURCE_DIR}/docs/examples/ctypes_launch.py
                     $<TARGET_FILE:gmfuzz_kernel>)
    set_tests_properties(kernel_abi_ctypes PROPERTIES SKIP_RETURN_CODE 77 LABELS "gpu")
  endif()
endif()

gmfuzz_cli_test(agree_cpu_generated 0 "^450 passed, 0 failed"
                "agree|--backends|cpu,cpu|--cases|200|--seed|3|${GMFUZZ_VECTORS}")

# What crosses the socket to a GPU worker (runs everywhere).
gmfuzz_test(test_wire_case SOURCES test_wire_case.c LIBS gmfuzz_harness ARGS ${GMFUZZ_VECTORS})
# The folder walk (harness_paths.c, fts physically): sorted, hidden names
# skipped, links to files taken, links to folders (loops) never followed.
gmfuzz_test(test_paths SOURCES test_paths.c LIBS gmfuzz_harness ARGS ${CMAKE_CURRENT_BINARY_DIR}/paths)
gmfuzz_test(test_hub SOURCES test_hub.c LIBS gmfuzz_harness)
# Inputs are read-only (harness_inputs.h) and which file is a raw input (issue 24 items 2, 3).
gmfuzz_test(test_inputs SOURCES test_inputs.c LIBS gmfuzz_fuzz gmfuzz_triage gmfuzz_harness
            LABELS triage)
gmfuzz_test(test_gen SOURCES test_gen.c LIBS gmfuzz_harness)
