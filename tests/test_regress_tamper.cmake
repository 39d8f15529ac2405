# The byte-for-byte check of `gmfuzz replay --exact` must catch a changed
# reproducer and say where: copies of one regress file SRC (under WORK, in
# the build tree) with the first element of the recorded fused
# cache_seqlens altered, and with one space added, each fail naming the
# file and the first differing byte and field; the unchanged copy passes.
include(${CMAKE_CURRENT_LIST_DIR}/test_cli_steps.cmake)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(READ "${SRC}" text)

configure_file("${SRC}" "${WORK}/copy.json" COPYONLY)
cli_step(unchanged 0 "1 passed, 0 failed" replay --exact "${WORK}/copy.json")

# One output element: the recorded fused cache_seqlens[0], to another value.
set(prefix "\"fused\":{\"cache_seqlens\":\\[")
if(NOT text MATCHES "${prefix}(-?[0-9]+)")
  message(FATAL_ERROR "${SRC}: no fused cache_seqlens to alter")
endif()
set(was "${CMAKE_MATCH_1}")
if(was STREQUAL "7")
  set(now 8)
else()
  set(now 7)
endif()
string(REGEX REPLACE "${prefix}${was}" "\"fused\":{\"cache_seqlens\":[${now}" altered "${text}")
file(WRITE "${WORK}/altered.json" "${altered}")
cli_step(altered_element 1
         "FAIL ${WORK}/altered.json: [^\n]*not byte-stable: byte [0-9]+: fused\\.cache_seqlens\\[0\\]: the file has ${now}, the rewrite ${was}\n"
         replay --exact "${WORK}/altered.json")
cli_step(altered_summary 1 "0 passed, 1 failed" replay --exact "${WORK}/altered.json")

# Same JSON, one byte more: only the byte check can see it.
string(REPLACE "\"minimized\":" "\"minimized\": " spaced "${text}")
file(WRITE "${WORK}/spaced.json" "${spaced}")
cli_step(plain_replay_passes 0 "1 passed, 0 failed" replay "${WORK}/spaced.json")
cli_step(layout 1
         "FAIL ${WORK}/spaced.json: not byte-stable: byte [0-9]+: the same JSON laid out differently"
         replay --exact "${WORK}/spaced.json")
