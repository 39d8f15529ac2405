# Efficacy on python: targets (issue 23): each planted fault of the torch
# example (examples/torch_fused.py, GMFUZZ_TORCH_FAULT) and of the
# specializing CPU stand-in (examples/specializing_cpu.py, GMFUZZ_SPEC_FAULT)
# gives 1 to 3 NEW buckets on a fixed sweep, none of them the bare
# "target_deviates|-|-" (tests/efficacy_targets.sh); two torch faults at
# once at least 2; q_last_row_plus_one, which breaks only the last row of
# cu_seqlens_q, exactly 1 over every bs the sweep draws; the correct targets
# none. A sweep of --cases N with a seed is one fixed set of cases whatever
# the machine's load (--time only caps it: the script fails a run that did
# not check all N; 20,000 stand-in cases took 34 to 168 s on the loaded
# 2-core VM; a stand-in's class schedule counts runs then, not seconds:
# fuzz/fuzz_sched.h), so its buckets are too: each
# count below is what every run gives, as measured (each run's buckets:
# efficacy-targets/NAME.table.txt in the build tree). Included after targets.cmake
# (GMFUZZ_TEST_PYTHON, GMFUZZ_TARGETS_OUT).
set(EFFICACY_TARGETS_OUT ${CMAKE_CURRENT_BINARY_DIR}/efficacy-targets)

# efficacy.NAME: MIN to MAX new buckets from a sweep of CASES cases of TARGET with ENV.
function(gmfuzz_efficacy_target name min max target cases)
  cmake_parse_arguments(E "MINIMIZE" "" "ENV;ARGS" ${ARGN})
  if(NOT E_MINIMIZE)
    list(APPEND E_ARGS --no-minimize)
  endif()
  add_test(NAME efficacy.${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/efficacy_targets.sh ${GMFUZZ_TEST_PYTHON}
                   $<TARGET_FILE:gmfuzz> ${EFFICACY_TARGETS_OUT}/${name} ${min} ${max} ${E_ENV}
                   -- sweep --target python:${PROJECT_SOURCE_DIR}/examples/${target}
                   --target-device cpu --cases ${cases} --jobs 1 --seed 3 --time 900
                   ${E_ARGS})
  set_tests_properties(efficacy.${name} PROPERTIES SKIP_RETURN_CODE 77
                       LABELS "efficacy;python" TIMEOUT 1000)
endfunction()

foreach(fault scan_restart_1024 swa_pad_first_tile page1_live_columns sentinel_eq_minus1
              floor_div no_loc_keeps last_page_dropped row_stride_pages swa_int32)
  gmfuzz_efficacy_target(torch_${fault} 1 3 torch_fused.py 2000 ENV GMFUZZ_TORCH_FAULT=${fault})
endforeach()
# One row breaks, the last, whatever bs: one bucket. Minimized here, so that
# the reproducer is in the bucket of its raw finding too.
gmfuzz_efficacy_target(torch_q_last_row_plus_one 1 1 torch_fused.py 2000 MINIMIZE
                       ENV GMFUZZ_TORCH_FAULT=q_last_row_plus_one)
gmfuzz_efficacy_target(torch_floor_div_and_q_last_row_plus_one 2 6 torch_fused.py 2000
                       ENV GMFUZZ_TORCH_FAULT=floor_div+q_last_row_plus_one)
gmfuzz_efficacy_target(torch_none 0 0 torch_fused.py 2000 ENV GMFUZZ_TORCH_FAULT=)

set(EFFICACY_STANDIN_ENV GMFUZZ_STANDIN_COMPILE_S=0.05 GMFUZZ_STANDIN_WIDE_S=0.5
    GMFUZZ_STANDIN_LOAD_S=0.01)
# tok_guard_dropped and loc_sentinel_eq read through a dropped guard: the
# stand-in reads what lies before the mapping, as the GPU kernel does
# (specializing_cpu.py, _read_unguarded), not the mapping's own tail.
foreach(fault scan_past_1000 swa_out_tile_pad page_cols_past_512 loc_sentinel_eq floor_div
        tok_guard_dropped)
  gmfuzz_efficacy_target(standin_${fault} 1 3 specializing_cpu.py 20000
                         ENV GMFUZZ_SPEC_FAULT=${fault} ${EFFICACY_STANDIN_ENV}
                         ARGS --target-cache ${EFFICACY_TARGETS_OUT}/standin_${fault}.cache)
endforeach()
# A fault of the bs-1 kernel alone, in two modes: the sweep (seed 3) meets
# it at about case 42,000. `--cases` counts the class budget in runs, not
# seconds (fuzz/fuzz_sched.h), so that is the same case on every machine.
gmfuzz_efficacy_target(standin_bs1_no_offset 1 3 specializing_cpu.py 50000
                       ENV GMFUZZ_SPEC_FAULT=bs1_no_offset ${EFFICACY_STANDIN_ENV}
                       ARGS --target-cache ${EFFICACY_TARGETS_OUT}/standin_bs1_no_offset.cache)
gmfuzz_efficacy_target(standin_none 0 0 specializing_cpu.py 20000
                       ENV GMFUZZ_SPEC_FAULT= ${EFFICACY_STANDIN_ENV}
                       ARGS --target-cache ${EFFICACY_TARGETS_OUT}/standin_none.cache)
