# python: targets and the three-way reference through the real Python
# worker (docs/TARGETS.md), on torch's CPU build: CI installs Debian's
# python3-torch. Skipped (77) where the interpreter has no torch.
if(EXISTS /usr/bin/python3)
  set(GMFUZZ_TEST_PYTHON /usr/bin/python3 CACHE FILEPATH "The interpreter of the python: target tests")
else()
  set(GMFUZZ_TEST_PYTHON python3 CACHE FILEPATH "The interpreter of the python: target tests")
endif()
set(GMFUZZ_TORCH_TARGET python:${PROJECT_SOURCE_DIR}/examples/torch_fused.py)
set(GMFUZZ_TARGETS_OUT ${CMAKE_CURRENT_BINARY_DIR}/targets)

# targets.NAME: gmfuzz ARGS exits RC with a line matching REGEX.
function(gmfuzz_target_test name rc regex)
  cmake_parse_arguments(T "" "" "ENV;ARGS;LABELS" ${ARGN})
  add_test(NAME targets.${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/targets_check.sh ${GMFUZZ_TEST_PYTHON}
                   $<TARGET_FILE:gmfuzz> ${GMFUZZ_TARGETS_OUT}/${name} ${rc} ${regex}
                   ${T_ENV} -- ${T_ARGS})
  set_tests_properties(targets.${name} PROPERTIES SKIP_RETURN_CODE 77
                       LABELS "python;${T_LABELS}" TIMEOUT 600)
endfunction()

set(TORCH_CPU --target ${GMFUZZ_TORCH_TARGET} --target-device cpu)

# agree --gpus (issue 12 item 5): one process per listed device (a list that
# repeats one here), the same totals; a planted torch fault's exit code.
add_test(NAME cli.agree_gpus_spread
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/agree_spread_check.sh $<TARGET_FILE:gmfuzz>
                 ${GMFUZZ_VECTORS} ${GMFUZZ_TORCH_TARGET} ${GMFUZZ_TEST_PYTHON})
set_tests_properties(cli.agree_gpus_spread PROPERTIES LABELS "cli;python" SKIP_RETURN_CODE 77
                     TIMEOUT 300)

# The torch example of the fused semantics passes the 250 vectors exactly,
# and the torch legacy sequence agrees with the C reference on them.
gmfuzz_target_test(torch_vectors 0 "^250 passed, 0 failed"
                   ARGS replay ${TORCH_CPU} ${GMFUZZ_VECTORS})
# The same staged as on CUDA (CALL_PLACED's tensors copied into the worker's arena and
# the outputs back into the block; docs/TARGETS.md, "Placed calls"), and a planted fault
# still found that way.
gmfuzz_target_test(torch_vectors_staged 0 "^250 passed, 0 failed" ENV GMFUZZ_WORKER_IN_PLACE=0
                   ARGS replay ${TORCH_CPU} ${GMFUZZ_VECTORS})
gmfuzz_target_test(legacy_vectors_staged 0 "^250 passed, 0 failed" ENV GMFUZZ_WORKER_IN_PLACE=0
                   ARGS replay --reference python: ${GMFUZZ_VECTORS})
gmfuzz_target_test(sweep_staged_finds_floor_div 1 "found [0-9]+ new signature"
                   ENV GMFUZZ_WORKER_IN_PLACE=0 GMFUZZ_TORCH_FAULT=floor_div
                   ARGS sweep ${TORCH_CPU} --cases 20000 --jobs 1 --seed 3 --time 300
                        --stop-on-new --no-minimize --out ${GMFUZZ_TARGETS_OUT}/sweep_staged)
# On a GPU: the examples on CUDA, placed batches used in place (the shared block
# registered, a device mirror) and staged (GMFUZZ_WORKER_IN_PLACE=0).
gmfuzz_target_test(triton_vectors_cuda 0 "^250 passed, 0 failed" LABELS gpu ENV REQUIRE=triton
                   ARGS replay --target python:${PROJECT_SOURCE_DIR}/examples/triton_fused.py
                        ${GMFUZZ_VECTORS})
gmfuzz_target_test(torch_vectors_cuda 0 "^250 passed, 0 failed" LABELS gpu ENV REQUIRE=cuda
                   ARGS replay --target ${GMFUZZ_TORCH_TARGET} ${GMFUZZ_VECTORS})
gmfuzz_target_test(torch_vectors_cuda_staged 0 "^250 passed, 0 failed" LABELS gpu
                   ENV REQUIRE=cuda GMFUZZ_WORKER_IN_PLACE=0
                   ARGS replay --target ${GMFUZZ_TORCH_TARGET} ${GMFUZZ_VECTORS})
gmfuzz_target_test(legacy_vectors 0 "^250 passed, 0 failed"
                   ARGS replay --reference python: ${GMFUZZ_VECTORS})
# ... and on 20,000 generated cases (a reference_drift would be new). The
# count is the point, not the time; --time is only a cap here. The sanitized
# tree checks the three-way path's memory on 2,000 (the 20,000 took 224-244 s
# there on a loaded 2-core machine); the Release tree holds the semantics.
if(GMFUZZ_SANITIZE)
  set(GMFUZZ_LEGACY_GENERATED 2000)
else()
  set(GMFUZZ_LEGACY_GENERATED 20000)
endif()
gmfuzz_target_test(legacy_generated 0 "ran .*: ${GMFUZZ_LEGACY_GENERATED} execs"
                   ARGS sweep --reference python: --cases ${GMFUZZ_LEGACY_GENERATED} --jobs 1 --seed 7
                        --time 900 --no-minimize --out ${GMFUZZ_TARGETS_OUT}/legacy_generated)
set_tests_properties(targets.legacy_generated PROPERTIES TIMEOUT 1000)

# Every planted fault of the torch example is found by a sweep (fixed
# budget and seed) and, in the libFuzzer tree, by a short fuzz campaign.
# Here and below, a campaign that must find something or check N cases ends
# by --stop-on-new, --cases or --runs; its --time is only a cap, 300 s, far
# past what a loaded 2-core machine needs (the sweeps found their faults
# within 12 s under two CPU burners, the survives_ sweeps ended within 52 s; the
# fuzz_finds_ campaigns found theirs within 15 s and 1,149 of 20,000 runs).
set(GMFUZZ_TORCH_FAULTS scan_restart_1024 swa_pad_first_tile page1_live_columns
    sentinel_eq_minus1 floor_div no_loc_keeps last_page_dropped row_stride_pages swa_int32)
# Runs of 16 cases a shape (--shape-run) still find a fault that shows only past bs 1024.
gmfuzz_target_test(sweep_shape_runs_find_scan_restart_1024 1 "found [0-9]+ new signature"
                   ENV GMFUZZ_TORCH_FAULT=scan_restart_1024
                   ARGS sweep ${TORCH_CPU} --shape-run 16 --cases 20000 --jobs 1 --seed 3
                        --time 300 --stop-on-new --no-minimize
                        --out ${GMFUZZ_TARGETS_OUT}/sweep_shape_runs)
foreach(fault ${GMFUZZ_TORCH_FAULTS})
  gmfuzz_target_test(sweep_finds_${fault} 1 "found [0-9]+ new signature"
                     ENV GMFUZZ_TORCH_FAULT=${fault}
                     ARGS sweep ${TORCH_CPU} --cases 20000 --jobs 1 --seed 3 --time 300
                          --stop-on-new --no-minimize --out ${GMFUZZ_TARGETS_OUT}/sweep_${fault})
  if(GMFUZZ_FUZZ_ACTIVE)
    gmfuzz_target_test(fuzz_finds_${fault} 1 "found [0-9]+ new signature" LABELS fuzz
                       ENV GMFUZZ_TORCH_FAULT=${fault}
                       ARGS fuzz ${TORCH_CPU} --runs 20000 --jobs 1 --seed 3 --time 300
                            --stop-on-new --no-minimize --out ${GMFUZZ_TARGETS_OUT}/fuzz_${fault})
  endif()
endforeach()

# A worker that raises, segfaults or hangs is survived: the case is a
# finding of its own class, and the sweep goes on to its end.
foreach(what raised:raise crashed:segfault hung:hang)
  string(REPLACE ":" ";" pair ${what})
  list(GET pair 0 class)
  list(GET pair 1 fault)
  gmfuzz_target_test(survives_${fault} 1 "signature [a-z0-9_]+\\|target_${class}\\|-"
                     ENV GMFUZZ_TORCH_FAULT=${fault}
                     ARGS sweep ${TORCH_CPU} --target-timeout 2 --target-compile-timeout 3 --cases 200 --jobs 1 --seed 5
                          --batch 8 --time 300 --no-minimize
                          --out ${GMFUZZ_TARGETS_OUT}/survives_${fault})
endforeach()
# The same in a libFuzzer campaign, whose job checks its inputs on the
# target 32 at a time (fuzz/fuzz_defer.h): the batch that raised, died or
# hung is found out case by case, and the campaign goes on. --stop-on-new
# ends it at that finding: the 274 seeds run before any --runs limit, and
# with 25 of them hanging (each a worker restart) the campaign took its whole
# 300 s cap under load (a 40 s cap ran out at the 42nd seed: 'found nothing
# new'; found after 65 and 93 s under load). --stall-timeout 300: libFuzzer
# reports no count in the seed phase, and under load it passed the default
# 60 s: the job was killed as no_progress again and again, its finding lost.
if(GMFUZZ_FUZZ_ACTIVE)
  foreach(what raised:raise crashed:segfault hung:hang)
    string(REPLACE ":" ";" pair ${what})
    list(GET pair 0 class)
    list(GET pair 1 fault)
    gmfuzz_target_test(fuzz_survives_${fault} 1 "signature [a-z0-9_]+\\|target_${class}\\|-" LABELS fuzz
                       ENV GMFUZZ_TORCH_FAULT=${fault}
                       ARGS fuzz ${TORCH_CPU} --target-timeout 2 --target-compile-timeout 3 --runs 100 --jobs 1 --seed 5
                            --time 300 --stall-timeout 300 --stop-on-new --no-minimize
                            --out ${GMFUZZ_TARGETS_OUT}/fuzz_survives_${fault})
  endforeach()
  # Checked one input at a time (GMFUZZ_TARGET_BATCH=1), a fault is found too.
  gmfuzz_target_test(fuzz_unbatched_finds_floor_div 1 "found [0-9]+ new signature" LABELS fuzz
                     ENV GMFUZZ_TORCH_FAULT=floor_div GMFUZZ_TARGET_BATCH=1
                     ARGS fuzz ${TORCH_CPU} --runs 20000 --jobs 1 --seed 3 --time 300
                          --stop-on-new --no-minimize --out ${GMFUZZ_TARGETS_OUT}/fuzz_unbatched)
endif()
# ... and a raise when the worker stages a placed batch, as on CUDA.
gmfuzz_target_test(survives_raise_staged 1 "signature [a-z0-9_]+\\|target_raised\\|-"
                   ENV GMFUZZ_TORCH_FAULT=raise GMFUZZ_WORKER_IN_PLACE=0
                   ARGS sweep ${TORCH_CPU} --target-timeout 2 --target-compile-timeout 3 --cases 200 --jobs 1 --seed 5
                        --batch 8 --time 300 --no-minimize
                        --out ${GMFUZZ_TARGETS_OUT}/survives_raise_staged)

# Inputs are read-only (docs/TARGETS.md, "Inputs are read-only"): a target that returns the
# right outputs and then changes seq_lens[0] or req_to_token[0][0] is found as
# target_wrote_input, its bucket naming the input and the element; used in place (the
# worker's tensors are views of the shared block), staged (GMFUZZ_WORKER_IN_PLACE=0: the
# worker copies what its input tensors hold back) and through a target hub. Every call with
# rows writes, so the first batch finds it: no schedule or machine speed decides.
gmfuzz_target_test(writes_seq_lens_found 1 "bucket: target_wrote_input\\|seq_lens\\|\\[0\\]"
                   ENV GMFUZZ_TORCH_FAULT=writes_seq_lens
                   ARGS sweep ${TORCH_CPU} --cases 200 --jobs 1 --seed 5 --time 120 --stop-on-new
                        --out ${GMFUZZ_TARGETS_OUT}/writes_seq_lens_found)
gmfuzz_target_test(writes_req_to_token_found 1
                   "bucket: target_wrote_input\\|req_to_token\\|\\[0\\]\\[0\\]"
                   ENV GMFUZZ_TORCH_FAULT=writes_req_to_token GMFUZZ_WORKER_IN_PLACE=0
                   ARGS sweep ${TORCH_CPU} --cases 200 --jobs 1 --seed 5 --time 120 --stop-on-new
                        --no-minimize --out ${GMFUZZ_TARGETS_OUT}/writes_req_to_token_found)
gmfuzz_target_test(hub_writes_input_found 1
                   "bucket: target_wrote_input\\|req_to_token\\|\\[0\\]\\[0\\]"
                   ENV GMFUZZ_TORCH_FAULT=writes_req_to_token
                   ARGS sweep ${TORCH_CPU} --hubs 1 --jobs 2 --cases 200 --seed 5 --time 120
                        --stop-on-new --no-minimize --out ${GMFUZZ_TARGETS_OUT}/hub_writes_input)

# The same for a lib: target (tests/data/lib/host_target.c: the C ABI and a CUDA runtime
# over host memory, so no GPU is needed): its worker downloads the inputs after the launch;
# directly and through a target hub. And without a fault it is no finding at all.
add_library(gmfuzz_test_host_target MODULE data/lib/host_target.c
            ${PROJECT_SOURCE_DIR}/kernel/fused_cpu.c ${PROJECT_SOURCE_DIR}/kernel/fused_params.c)
target_include_directories(gmfuzz_test_host_target PRIVATE ${PROJECT_SOURCE_DIR}/kernel)
set_target_properties(gmfuzz_test_host_target PROPERTIES C_VISIBILITY_PRESET hidden PREFIX "")
gmfuzz_c_target(gmfuzz_test_host_target)
set(HOST_LIB lib:$<TARGET_FILE:gmfuzz_test_host_target>)
gmfuzz_target_test(lib_clean 0 "ran .*: 400 execs" LABELS lib ENV REQUIRE=none
                   ARGS sweep --target ${HOST_LIB} --cases 400 --jobs 1 --seed 5 --time 120
                        --no-minimize --out ${GMFUZZ_TARGETS_OUT}/lib_clean)
gmfuzz_target_test(lib_writes_input 1 "bucket: target_wrote_input\\|seq_lens\\|\\[0\\]"
                   LABELS lib ENV REQUIRE=none GMFUZZ_LIB_FAULT=writes_seq_lens
                   ARGS sweep --target ${HOST_LIB} --cases 200 --jobs 1 --seed 5 --time 120
                        --stop-on-new --out ${GMFUZZ_TARGETS_OUT}/lib_writes_input)
gmfuzz_target_test(lib_writes_input_hub 1
                   "bucket: target_wrote_input\\|req_to_token\\|\\[0\\]\\[0\\]"
                   LABELS lib ENV REQUIRE=none GMFUZZ_LIB_FAULT=writes_req_to_token
                   ARGS sweep --target ${HOST_LIB} --hubs 1 --jobs 2 --cases 200 --seed 5
                        --time 120 --stop-on-new --no-minimize
                        --out ${GMFUZZ_TARGETS_OUT}/lib_writes_input_hub)

# A compile is not execution, and a crash or a hang is a finding once it happens again
# (docs/TARGETS.md, "Compiles and loads"): tests/data/python/jit_target.py reports its
# 3 s "compile" of the 3-row kernel (no hang at a 1 s limit), silent_target.py does not
# (its hang is confirmed with the compile limit: unreliable, not new), crashes once
# (unreliable, not new) or really hangs (confirmed: new). 2,000 cases hold a 3-row batch
# (1.5 % of them) with a certainty of 1 - 1e-13.
set(JIT_TARGET python:${CMAKE_CURRENT_SOURCE_DIR}/data/python/jit_target.py)
set(SILENT_TARGET python:${CMAKE_CURRENT_SOURCE_DIR}/data/python/silent_target.py)
set(JIT_ARGS --target-device cpu --target-timeout 1 --target-compile-timeout 20 --schedule naive
             --cases 2000 --jobs 1 --seed 5 --batch 8 --time 300 --no-minimize)
gmfuzz_target_test(slow_compile_is_no_finding 0 "target JIT: [1-9][0-9]* kernels compiled"
                   ENV GMFUZZ_TEST_JIT_S=3
                   ARGS sweep --target ${JIT_TARGET}:slow_compile ${JIT_ARGS}
                        --out ${GMFUZZ_TARGETS_OUT}/slow_compile_is_no_finding)
gmfuzz_target_test(slow_silent_compile_is_unreliable 0 "unreliable .*: 0 crashes, 1 hang,"
                   ENV GMFUZZ_TEST_JIT_S=3
                       GMFUZZ_TEST_JIT_DIR=${GMFUZZ_TARGETS_OUT}/slow_silent_compile_is_unreliable/jit
                   ARGS sweep --target ${SILENT_TARGET}:slow_silent ${JIT_ARGS}
                        --out ${GMFUZZ_TARGETS_OUT}/slow_silent_compile_is_unreliable)
gmfuzz_target_test(crash_once_is_unreliable 0 "unreliable .*: 1 crash, 0 hangs,"
                   ENV GMFUZZ_TEST_JIT_DIR=${GMFUZZ_TARGETS_OUT}/crash_once_is_unreliable/jit
                   ARGS sweep --target ${SILENT_TARGET}:crashes_once ${JIT_ARGS}
                        --out ${GMFUZZ_TARGETS_OUT}/crash_once_is_unreliable)
gmfuzz_target_test(real_hang_is_confirmed 1 "signature [a-z0-9_]+\\|target_hung\\|-"
                   ARGS sweep --target ${SILENT_TARGET}:hangs ${JIT_ARGS} --target-compile-timeout 3
                        --stop-on-new --out ${GMFUZZ_TARGETS_OUT}/real_hang_is_confirmed)

# --minimize-time bounds the campaign past its finding (--stop-on-new) when the finding is a
# hang that every minimization step repeats (found + 6 s + 14 s for the stop and the reports;
# found within a 150 s budget: 28 s on a loaded 2-core machine).
add_test(NAME targets.wall_clock_holds
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/targets_wallclock.sh ${GMFUZZ_TEST_PYTHON}
                 $<TARGET_FILE:gmfuzz> ${SILENT_TARGET}:hangs ${GMFUZZ_TARGETS_OUT}/wall_clock
                 150 6 14)
set_tests_properties(targets.wall_clock_holds PROPERTIES LABELS python SKIP_RETURN_CODE 77
                     TIMEOUT 300)

# The JIT-specializing CPU stand-in (examples/specializing_cpu.py), scheduled by class
# (docs/TARGETS.md, "Specialization classes"): seed 1 makes job 0's first class a big batch,
# whose scan block compiles for up to 0.1 + 12 s, past the 2 s call limit: reported, no
# finding (3,000 cases, not 40 s: the compile and the worker's start fill much of 40 s on a
# loaded machine); and planted faults are found by a sweep in classes.
set(STANDIN_TARGET python:${PROJECT_SOURCE_DIR}/examples/specializing_cpu.py)
gmfuzz_target_test(standin_slow_wide_compile_is_no_finding 0 "target JIT: [1-9][0-9]* kernels compiled"
                   ENV GMFUZZ_STANDIN_COMPILE_S=0.1 GMFUZZ_STANDIN_WIDE_S=12
                   ARGS sweep --target ${STANDIN_TARGET} --target-device cpu --target-timeout 2
                        --jobs 1 --seed 1 --cases 3000 --time 300 --no-minimize
                        --target-cache ${GMFUZZ_TARGETS_OUT}/standin_slow_wide_compile_is_no_finding/cache
                        --out ${GMFUZZ_TARGETS_OUT}/standin_slow_wide_compile_is_no_finding/campaign)
foreach(fault scan_past_1000 loc_sentinel_eq page_cols_past_512)
  gmfuzz_target_test(standin_sweep_finds_${fault} 1 "found [0-9]+ new signature"
                     ENV GMFUZZ_SPEC_FAULT=${fault} GMFUZZ_STANDIN_COMPILE_S=0.05
                         GMFUZZ_STANDIN_WIDE_S=0.5 GMFUZZ_STANDIN_LOAD_S=0.01
                     ARGS sweep --target ${STANDIN_TARGET} --target-device cpu --jobs 1 --seed 3
                          --time 300 --stop-on-new --no-minimize
                          --target-cache ${GMFUZZ_TARGETS_OUT}/standin_sweep_finds_${fault}/cache
                          --out ${GMFUZZ_TARGETS_OUT}/standin_sweep_finds_${fault}/campaign)
endforeach()

# A reproducer found on a python: target, exported with `gmfuzz export
# pytest`, runs unchanged against that target (its recorded module file and
# device): it fails with the fault and passes without.
add_test(NAME targets.export_runs_on_target
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/targets_export.sh ${GMFUZZ_TEST_PYTHON}
                 $<TARGET_FILE:gmfuzz> ${PROJECT_SOURCE_DIR}/examples/torch_fused.py
                 ${GMFUZZ_TARGETS_OUT}/export_runs_on_target)
set_tests_properties(targets.export_runs_on_target PROPERTIES SKIP_RETURN_CODE 77 LABELS python
                     TIMEOUT 300)

# Target hubs (campaign/campaign_hub.h): one process owns the target for all
# jobs. A fault is found through it, a crashing worker behind it is
# survived, and so is the death of the hub itself.
gmfuzz_target_test(hub_finds_floor_div 1 "found [0-9]+ new signature"
                   ENV GMFUZZ_TORCH_FAULT=floor_div
                   ARGS sweep ${TORCH_CPU} --hubs 1 --jobs 2 --cases 10000 --seed 3 --time 300
                        --stop-on-new --no-minimize --out ${GMFUZZ_TARGETS_OUT}/hub_floor_div)
gmfuzz_target_test(hub_survives_segfault 1 "target workers restarted: [1-9]"
                   ENV GMFUZZ_TORCH_FAULT=segfault
                   ARGS sweep ${TORCH_CPU} --hubs 1 --jobs 2 --cases 100 --batch 8 --seed 3
                        --time 300
                        --no-minimize --out ${GMFUZZ_TARGETS_OUT}/hub_segfault)
gmfuzz_target_test(hub_builtin_cases 0 "ran .*: 4000 execs"
                   ARGS sweep --target builtin:cpu --hubs 2 --jobs 2 --cases 2000 --seed 5
                        --time 300 --no-minimize --out ${GMFUZZ_TARGETS_OUT}/hub_builtin)
add_test(NAME targets.hub_killed
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hub_kill.sh ${GMFUZZ_TEST_PYTHON}
                 $<TARGET_FILE:gmfuzz> ${GMFUZZ_TORCH_TARGET} ${GMFUZZ_TARGETS_OUT}/hub_killed)
set_tests_properties(targets.hub_killed PROPERTIES SKIP_RETURN_CODE 77 LABELS python TIMEOUT 300)
# --gpus LIST: one hub per device listed (a list may repeat one: tested on
# one machine), each hub's process limited to its device.
add_test(NAME targets.hub_gpus_list
         COMMAND ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz> -DOUT=${GMFUZZ_TARGETS_OUT}/hub_gpus
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/hub_gpus_check.cmake)
set_tests_properties(targets.hub_gpus_list PROPERTIES LABELS cli TIMEOUT 120)
# campaign.json's "placement": each job's runs (pid, hub, device), on a
# --gpus list that repeats one device (issue 12 item 5).
add_test(NAME targets.placement_record
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/placement_check.py $<TARGET_FILE:gmfuzz>
                 ${GMFUZZ_TARGETS_OUT}/placement)
set_tests_properties(targets.placement_record PROPERTIES LABELS cli TIMEOUT 120)

# Nothing is green that did not run (issue 24 item 1): the hostile target
# (tests/data/python/hostile_target.py) takes 40 s to import, or blocks. A
# campaign whose jobs checked no case, or that spent most of its time on one
# unanswered call, exits 4 and says why; a target that does not start within
# --target-start-timeout is an infrastructure failure named as such.
set(HOSTILE_TARGET python:${CMAKE_CURRENT_SOURCE_DIR}/data/python/hostile_target.py)
set(HOSTILE_SWEEP sweep --target ${HOSTILE_TARGET} --target-device cpu --jobs 1 --no-minimize)
gmfuzz_target_test(slow_start_checks_nothing 4
                   "problem: the jobs checked no case: the budget ended while job-0's target had not finished its start-up"
                   ENV GMFUZZ_HOSTILE_IMPORT_S=40
                   ARGS ${HOSTILE_SWEEP} --time 15 --out ${GMFUZZ_TARGETS_OUT}/slow_start_checks_nothing)
gmfuzz_target_test(start_timeout_is_infrastructure 4
                   "problem: target did not start within 3 s [(]--target-start-timeout[)]: job-0 gave up"
                   ENV GMFUZZ_HOSTILE_IMPORT_S=40
                   ARGS ${HOSTILE_SWEEP} --time 60 --target-start-timeout 3
                        --out ${GMFUZZ_TARGETS_OUT}/start_timeout_is_infrastructure)
gmfuzz_target_test(start_timeout_is_infrastructure_hub 4
                   "target did not start within 3 s [(]--target-start-timeout[)]: target hub 0"
                   ENV GMFUZZ_HOSTILE_IMPORT_S=40
                   ARGS ${HOSTILE_SWEEP} --hubs 1 --time 60 --target-start-timeout 3
                        --out ${GMFUZZ_TARGETS_OUT}/start_timeout_is_infrastructure_hub)
# Every call blocks: whatever the machine's speed, no case is checked in 15 s
# (the 10 s call limit runs out, but the hang's re-run has the 300 s compile limit).
gmfuzz_target_test(blocked_call_checks_nothing 4 "problem: the jobs checked no case"
                   ENV GMFUZZ_HOSTILE_BLOCK=all
                   ARGS ${HOSTILE_SWEEP} --time 15 --out ${GMFUZZ_TARGETS_OUT}/blocked_call_checks_nothing)
# Calls past the 200th block: the first batches are answered, then one call
# takes the rest of the 45 s (its limit is 300 s): most of the time the target
# had since its start-up, however long that start-up took on a loaded machine.
gmfuzz_target_test(blocked_most_of_budget 4
                   "problem: most of the budget went into one unanswered wait: job-0 had waited"
                   ENV GMFUZZ_HOSTILE_BLOCK=after:200
                   ARGS ${HOSTILE_SWEEP} --time 45 --target-timeout 300
                        --out ${GMFUZZ_TARGETS_OUT}/blocked_most_of_budget)
if(GMFUZZ_FUZZ_ACTIVE)
  # In a libFuzzer job the inputs the model finds out of bounds are checked
  # without the target: either nothing was checked, or the target never answered.
  gmfuzz_target_test(fuzz_blocked_target_checks_nothing 4
                     "problem: (the jobs checked no case|the target never answered a call)"
                     LABELS fuzz ENV GMFUZZ_HOSTILE_BLOCK=all
                     ARGS fuzz --target ${HOSTILE_TARGET} --target-device cpu --jobs 1 --time 15
                          --no-minimize --out ${GMFUZZ_TARGETS_OUT}/fuzz_blocked_target_checks_nothing)
endif()
