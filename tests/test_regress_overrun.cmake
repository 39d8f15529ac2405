# After an out-of-bounds access the fused buffers hold what the backend's
# threads had written (the host stops at the first overrun, a GPU's other
# blocks carry on), so `replay --exact` holds them to the recorded bytes only
# on the recorded backend. SRC: a regress file whose fused side overran, with
# a fused cu_seqlens_k; copies under WORK with that buffer's last element
# altered, recorded on cpu (must fail, naming the field) and on cuda
# (replayed on cpu: the overrun is checked, the buffers are not).
include(${CMAKE_CURRENT_LIST_DIR}/test_cli_steps.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(READ "${SRC}" text)

set(buffer "\"fused\":{\"cache_seqlens\":\\[[-0-9,]*\\],\"cu_seqlens_k\":\\[([-0-9,]*,)?(-?[0-9]+)\\]")
if(NOT text MATCHES "\"backend\":\"cpu\"" OR NOT text MATCHES "\"error\":\"out_of_bounds: " OR
   NOT text MATCHES "${buffer}") # last: CMAKE_MATCH_n are its groups
  message(FATAL_ERROR "${SRC}: not a cpu reproducer whose fused side overran, with a fused cu_seqlens_k")
endif()
set(was "${CMAKE_MATCH_2}")
math(EXPR now "${was} + 5")
string(REGEX MATCH "${buffer}" whole "${text}")
string(REGEX REPLACE "${was}\\]$" "${now}]" whole_altered "${whole}")
string(REPLACE "${whole}" "${whole_altered}" altered "${text}")

file(WRITE "${WORK}/on_cpu.json" "${altered}")
cli_step(recorded_backend_checks_buffers 1
         "FAIL ${WORK}/on_cpu.json: [^\n]*not byte-stable: byte [0-9]+: fused\\.cu_seqlens_k\\[[0-9]+\\]: the file has ${now}, the rewrite ${was}\n"
         replay --exact --backend cpu "${WORK}/on_cpu.json")

string(REPLACE "\"backend\":\"cpu\"" "\"backend\":\"cuda\"" elsewhere "${altered}")
file(WRITE "${WORK}/on_cuda.json" "${elsewhere}")
cli_step(other_backend_checks_overrun 0 "1 passed, 0 failed"
         replay --exact --backend cpu "${WORK}/on_cuda.json")
cli_step(other_backend_plain 0 "1 passed, 0 failed" replay --backend cpu "${WORK}/on_cuda.json")

# Another overrun is still caught there: the error is not kept, only the buffers.
string(REPLACE "\"error\":\"out_of_bounds: read of " "\"error\":\"out_of_bounds: read of x" other "${elsewhere}")
file(WRITE "${WORK}/other_error.json" "${other}")
cli_step(other_backend_other_error 1 "FAIL ${WORK}/other_error.json: "
         replay --exact --backend cpu "${WORK}/other_error.json")
