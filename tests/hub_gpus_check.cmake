# gmfuzz sweep --gpus 0,0: two hubs, each started with CUDA_VISIBLE_DEVICES=0,
# serving the jobs to the end (builtin:cpu: no GPU needed to test placement).
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${GMFUZZ} sweep --target builtin:cpu --gpus 0,0 --jobs 2 --cases 500
                        --seed 3 --time 60 --no-minimize --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "ran .*: 1000 execs")
  message(FATAL_ERROR "sweep --gpus 0,0: exit ${rc}\n${out}")
endif()
foreach(k 0 1)
  file(READ ${OUT}/logs/hub-${k}.log log)
  if(NOT log MATCHES "CUDA_VISIBLE_DEVICES 0\\)")
    message(FATAL_ERROR "hub ${k} did not run on device 0:\n${log}")
  endif()
endforeach()
execute_process(COMMAND ${GMFUZZ} sweep --target builtin:cpu --gpus 0,x --out ${OUT}-bad
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 2 OR NOT out MATCHES "--gpus: bad or missing value '0,x'")
  message(FATAL_ERROR "--gpus 0,x was not refused by name: exit ${rc}\n${out}")
endif()
message(STATUS "ok: two hubs on device 0, a bad list refused")
