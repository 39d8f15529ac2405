# Tests of the planted faults and of the campaign driver (`gmfuzz fuzz`).
# Included by tests/CMakeLists.txt.

# --- Planted faults (kernel/fused_faults.h) --------------------------------
# fused_cpu.c compiled once per fault, its entry points renamed, linked next
# to the correct kernel: each test checks that its fault shows where the
# catalogue says (tests/test_faults.c). Not in a tree that is itself built
# with a fault: there the "correct" kernel is not.
if(GMFUZZ_FAULT STREQUAL "")
  add_library(test_faults_main OBJECT test_faults.c)
  target_include_directories(test_faults_main PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(test_faults_main PRIVATE gmfuzz_kernel_cpu)
  gmfuzz_c_target(test_faults_main)
  foreach(fault IN LISTS GMFUZZ_FAULT_NAMES)
    string(TOUPPER "${fault}" macro)
    add_library(test_fault_kernel_${fault} OBJECT ${PROJECT_SOURCE_DIR}/kernel/fused_cpu.c)
    target_link_libraries(test_fault_kernel_${fault} PRIVATE gmfuzz_kernel_cpu)
    target_compile_definitions(test_fault_kernel_${fault} PRIVATE GMFUZZ_FAULT_${macro}=1
                               fused_cpu_run=fault_fused_cpu_run
                               fused_oob_describe=fault_fused_oob_describe)
    gmfuzz_c_target(test_fault_kernel_${fault})
    add_executable(test_fault_${fault} $<TARGET_OBJECTS:test_faults_main>
                   $<TARGET_OBJECTS:test_fault_kernel_${fault}>)
    target_link_libraries(test_fault_${fault} PRIVATE gmfuzz_kernel_cpu)
    add_test(NAME fault.${fault} COMMAND test_fault_${fault} ${fault})
    set_tests_properties(fault.${fault} PROPERTIES LABELS "unit;faults")
  endforeach()
  list(GET GMFUZZ_FAULT_NAMES 0 first_fault)
  add_test(NAME fault.catalogue COMMAND test_fault_${first_fault} --catalogue
                                        ${PROJECT_SOURCE_DIR}/kernel/fused_program.h)
  set_tests_properties(fault.catalogue PROPERTIES LABELS "unit;faults")
endif()

# --- The campaign driver (campaign/campaign_*.c) --------------------------------
gmfuzz_test(test_campaign SOURCES test_campaign.c LIBS gmfuzz_campaign
            ARGS ${CMAKE_CURRENT_BINARY_DIR}/campaign-unit ${CMAKE_CURRENT_SOURCE_DIR}/data
                 ${PROJECT_SOURCE_DIR}/corpus/known.json)
set_tests_properties(test_campaign PROPERTIES LABELS "unit;campaign")
gmfuzz_test(test_campaign_engines SOURCES test_campaign_engines.c LIBS gmfuzz_campaign)
set_tests_properties(test_campaign_engines PROPERTIES LABELS "unit;campaign")

# A stand-in libFuzzer target (the real per-input check, libFuzzer's
# command line and output), so `gmfuzz fuzz` runs end to end in every tree.
add_executable(fake_libfuzzer fake_libfuzzer.c)
target_link_libraries(fake_libfuzzer PRIVATE gmfuzz_fuzz)
gmfuzz_c_target(fake_libfuzzer)

# `gmfuzz fuzz` end to end on the stand-in target.
function(gmfuzz_campaign_test name rc regex)
  cmake_parse_arguments(T "" "REPLAY" "" ${ARGN})
  set(extra)
  if(DEFINED T_REPLAY)
    set(extra -DREPLAY=${T_REPLAY})
  endif()
  list(JOIN T_UNPARSED_ARGUMENTS "|" args)
  add_test(NAME campaign.${name}
           COMMAND ${CMAKE_COMMAND} -E env FAKE_EXEC_US=1000
                   ${CMAKE_COMMAND} -DGMFUZZ=$<TARGET_FILE:gmfuzz>
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/campaign-${name} -DRC=${rc}
                   "-DREGEX=${regex}" "-DARGS=${args}" ${extra}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/campaign_check.cmake)
  set_tests_properties(campaign.${name} PROPERTIES LABELS "cli;campaign")
endfunction()
set(FAKE $<TARGET_FILE:fake_libfuzzer>)
set(CASES ${CMAKE_CURRENT_SOURCE_DIR}/data/cases)
# Strict baseline: the two differences of the test cases are new. By
# default each job saves each signature once and goes on...
# (--runs ends the jobs, so the outcome does not depend on the machine's
# speed.)
gmfuzz_campaign_test(fake_strict 1
  "found 2 new buckets [(]2 of 2 buckets&&bucket class:negative_token_rounding[|]page_table[|]predicted: 1 signature, 2 inputs; repro: [^ ]*/repros/class_negative_token_rounding[.]page_table[.]predicted[.][.]decode[.]negative_token_rounding[.]page_table[.]json [(]bs 1[)]&&bucket fused_out_of_bounds[|]read of req_to_token[|]-: 1 signature&&found 2 new signatures [(]2 of 2 signatures; 4 failing inputs[)]&&signature decode[|]negative_token_rounding[|]page_table: 2 inputs&&signature decode[|]fused_out_of_bounds[|]-: 2 inputs&&repros/class_negative_token_rounding.page_table.predicted..decode.negative_token_rounding.page_table.json [(]bs 1 -> 1, minimized&&ran [0-9.]+ s: 600 execs&& 0 restarts&&exit 1: new signatures found"
  --target ${FAKE} --seeds ${CASES} --strict-baseline --jobs 2 --runs 300 --time 120 REPLAY 2)
# ... with --abort-on-failure each job stops at each, is restarted on a
# baseline that lists it, and goes on. (A job restarted after the other one
# found the second signature never stops on it: 3 or 4 stops; and 2 when the
# second job reads its baseline only after the first job's signature was
# added to it, so that its first stop is at the other one: seen under ASan,
# where the jobs start apart.)
gmfuzz_campaign_test(fake_strict_abort 1
  "found 2 new signatures [(]2 of 2 signatures; ([234]) failing inputs[)]&& [234] restarts&&exit 1: new signatures found"
  --target ${FAKE} --seeds ${CASES} --strict-baseline --jobs 2 --runs 300 --time 120
  --abort-on-failure REPLAY 2)
# The shipped baseline knows both: nothing new; --runs ends the jobs early.
gmfuzz_campaign_test(fake_nothing_new 0
  "found nothing new&&ran [0-9.]+ s: 600 execs&&0 restarts&&exit 0: nothing new"
  --target ${FAKE} --seeds ${CASES} --jobs 2 --runs 300 --time 60)
# --stop-on-new: the campaign ends at the first new signature (the job
# aborts there, so that it cannot have found the second yet).
gmfuzz_campaign_test(fake_stop_on_new 1
  "found 1 new signature &&not minimized&&exit 1: new signatures found"
  --target ${FAKE} --seeds ${CASES} --strict-baseline --jobs 1 --time 60 --stop-on-new
  --abort-on-failure --no-minimize)
# A target that exits at once, saving nothing: given up, exit 4.
gmfuzz_campaign_test(broken_target 4
  "problem: job-0 stopped within 5 s without saving a failure [(]exit 2, 3 times in a row[)]&&exit 4"
  --target $<TARGET_FILE:test_campaign> --seeds ${CASES} --jobs 1 --time 30)
gmfuzz_cli_test(fuzz_usage 2 "unknown option '--frobnicate'" "fuzz|--frobnicate")
gmfuzz_cli_test(fuzz_bad_jobs 2 "--jobs: bad or missing value 'many'" "fuzz|--jobs|many")
gmfuzz_cli_test(sweep_bad_shape_run 2 "--shape-run: bad or missing value '0'" "sweep|--shape-run|0")
gmfuzz_cli_test(fuzz_help 0 "exit codes: 0 nothing new found" "fuzz|--help")
gmfuzz_cli_test(fuzz_no_target 4 "no AFL[+][+] target gmfuzz-afl-cuda .*Build it"
                "fuzz|--engine|afl++|--backend|cuda|--out|${CMAKE_CURRENT_BINARY_DIR}/campaign-none")
gmfuzz_cli_test(fuzz_missing_target 2 "--target /nonexistent/t: not an executable file"
                "fuzz|--target|/nonexistent/t")
foreach(sig INT TERM)
  string(TOLOWER "${sig}" lower)
  add_test(NAME campaign.sig${lower}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/campaign_sigint.sh $<TARGET_FILE:gmfuzz> ${FAKE}
                   ${CASES} ${CMAKE_CURRENT_BINARY_DIR}/campaign-sig${lower} ${sig})
  set_tests_properties(campaign.sig${lower} PROPERTIES LABELS "cli;campaign")
endforeach()

# SIGKILL of the driver: no job outlives it (campaign/campaign_proc.h).
add_test(NAME campaign.sigkill
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/campaign_sigkill.sh $<TARGET_FILE:gmfuzz> ${FAKE}
                 ${CASES} ${CMAKE_CURRENT_BINARY_DIR}/campaign-sigkill)
set_tests_properties(campaign.sigkill PROPERTIES LABELS "cli;campaign")

# Two campaigns into one folder: the second refuses it (campaign/campaign_lock.h).
add_test(NAME campaign.lock
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/campaign_lock.sh $<TARGET_FILE:gmfuzz> ${FAKE}
                 ${CASES} ${CMAKE_CURRENT_BINARY_DIR}/campaign-lock)
set_tests_properties(campaign.lock PROPERTIES LABELS "cli;campaign")

# A disk that fills up: the campaign ends with exit 6, its record final.
add_test(NAME campaign.disk_full
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/campaign_disk_full.sh $<TARGET_FILE:gmfuzz> ${FAKE}
                 ${CASES} ${CMAKE_CURRENT_BINARY_DIR}/campaign-disk-full)
set_tests_properties(campaign.disk_full PROPERTIES LABELS "cli;campaign" SKIP_RETURN_CODE 77)

# The driver's loop under load: budget, 1 Hz samples, Ctrl-C, restart
# causes, stalled and spinning jobs (campaign/campaign_run.c).
foreach(part budget sigint causes stall spin)
  add_test(NAME campaign.timing_${part}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/campaign_timing.sh $<TARGET_FILE:gmfuzz> ${FAKE}
                   ${CASES} ${CMAKE_CURRENT_BINARY_DIR}/campaign-timing-${part} ${part})
  set_tests_properties(campaign.timing_${part} PROPERTIES LABELS "cli;campaign" RUN_SERIAL TRUE)
endforeach()

# The minimization in child processes: a second Ctrl-C, a crash there, its budget
# (campaign/campaign_minimizer.h). A slow python: target (torch; the
# interpreter as tests/targets.cmake picks it).
if(EXISTS /usr/bin/python3)
  set(campaign_python /usr/bin/python3)
else()
  set(campaign_python python3)
endif()
foreach(part second crash budget)
  add_test(NAME campaign.minimizer_${part}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/campaign_minimizer.sh $<TARGET_FILE:gmfuzz> ${FAKE}
                   ${CASES} ${CMAKE_CURRENT_BINARY_DIR}/campaign-minimizer-${part}
                   ${campaign_python} ${part})
  set_tests_properties(campaign.minimizer_${part} PROPERTIES LABELS "cli;campaign;python"
                       SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

# --- Efficacy: the fuzzer finds every planted fault, as 1 to 3 buckets ------
# bench/detect_faults.sh builds one libFuzzer target per fault in a tree of
# its own (clang, -DGMFUZZ_FUZZ=ON, CPU only; switching faults recompiles
# the kernel's two files), then each test runs one job from the seed corpus
# with the same exec budget and seed (--buckets: the whole budget) and
# counts the NEW buckets (triage/triage_bucket.h): each fault must give 1 to 3
# (the scans that restart per segment, are exclusive or saturate first
# differ where the data puts it, past the case's empty rows or where the sum
# passes int32, so any scan region can be a bucket's: found, every bucket in
# cu_seqlens_k/q; 60,000-run campaigns of scan_exclusive gave 2 to 4 over
# seeds 1-9, @rows<512 and @rows<1024 among them), each of them its doing
# (its failure does not replay on the correct kernel); two faults planted together (GMFUZZ_FAULT=a+b) at least 2; "none"
# (the correct kernel, same budget) none. The table is in
# efficacy/<fault>/table.txt. The sub-tree does not depend on this tree's
# flags, so the sanitizer tree leaves these to the others; without clang
# they skip.
# 60,000 executions: libFuzzer schedules by execution time (the target's
# -entropic_scale_per_exec_time), so a fixed seed is not a fixed run under
# CI's load; negative_q_stride_shifted, found within 1 s alone, went unfound
# in 20,000 once. Under two CPU burners its first finding came after 1,198
# to 22,477 executions over seeds 1-8 (mean about 12,000, a long tail), so a
# fault with none of its buckets after the budget gets it again, resumed, up
# to 5 times (detect_faults.sh --rounds): a miss in 300,000 would be e^-25 of
# such a tail. The bucket counts (at most 3) are over all its rounds.
set(GMFUZZ_EFFICACY_RUNS 60000 CACHE STRING
    "Exec budget of each efficacy test (bench/detect_faults.sh --runs)")
# 4,000 cases: a default sweep of seed 1 finds every fault within its first
# 1,353 cases (docs/FUZZING.md, "Planted faults found by a sweep"); the same
# seed and count are the same cases on any machine, so the margin only
# guards changes to the generator.
set(GMFUZZ_EFFICACY_SWEEP_CASES 4000 CACHE STRING
    "Cases of each sweep efficacy test (bench/detect_faults.sh --sweep --runs)")
set(GMFUZZ_EFFICACY_PAIR "absent_out_pad_minus_one+scan_exclusive")
if(NOT GMFUZZ_SANITIZE AND GMFUZZ_FAULT STREQUAL "")
  set(efficacy_build ${CMAKE_CURRENT_BINARY_DIR}/efficacy-build)
  set(detect ${PROJECT_SOURCE_DIR}/bench/detect_faults.sh)
  add_test(NAME efficacy.build
           COMMAND ${detect} --build-only --build ${efficacy_build} ${GMFUZZ_FAULT_NAMES}
                   ${GMFUZZ_EFFICACY_PAIR} none)
  set_tests_properties(efficacy.build PROPERTIES FIXTURES_SETUP efficacy LABELS efficacy
                       SKIP_RETURN_CODE 77 TIMEOUT 1200)
  foreach(fault IN LISTS GMFUZZ_FAULT_NAMES ITEMS ${GMFUZZ_EFFICACY_PAIR} none)
    string(REPLACE "+" "_and_" test_name "${fault}")
    add_test(NAME efficacy.${test_name}
             COMMAND ${detect} --buckets --check --no-build --build ${efficacy_build}
                     --runs ${GMFUZZ_EFFICACY_RUNS} --seed 1 --time 300
                     --out ${CMAKE_CURRENT_BINARY_DIR}/efficacy/${test_name} ${fault})
    set_tests_properties(efficacy.${test_name} PROPERTIES FIXTURES_REQUIRED efficacy
                         LABELS efficacy SKIP_RETURN_CODE 77 TIMEOUT 900)
  endforeach()
  # The sweep finds every fault the fuzzer finds (issue 23): one default
  # sweep job per variant (its builtin kernel is the faulted one), seed 1,
  # GMFUZZ_EFFICACY_SWEEP_CASES cases. Generated cases of a fixed seed and
  # count are the same on any machine, loaded or not: the --time cap only
  # guards a hang. A fault counts when one new bucket is its doing (a pair:
  # two), the correct kernel none.
  foreach(fault IN LISTS GMFUZZ_FAULT_NAMES ITEMS ${GMFUZZ_EFFICACY_PAIR} none)
    string(REPLACE "+" "_and_" test_name "${fault}")
    add_test(NAME efficacy_sweep.${test_name}
             COMMAND ${detect} --buckets --sweep --check --no-build --build ${efficacy_build}
                     --runs ${GMFUZZ_EFFICACY_SWEEP_CASES} --seed 1 --time 600
                     --out ${CMAKE_CURRENT_BINARY_DIR}/efficacy-sweep/${test_name} ${fault})
    set_tests_properties(efficacy_sweep.${test_name} PROPERTIES FIXTURES_REQUIRED efficacy
                         LABELS efficacy SKIP_RETURN_CODE 77 TIMEOUT 900)
  endforeach()
endif()

# Nothing is green that did not run (issue 24 item 1): --cases cut short by
# --time is exit 4 (a builtin:cpu job cannot check 10^8 cases in 3 s).
gmfuzz_cli_test(sweep_cases_cut_by_time 4 "problem: --cases 100000000 was cut short by --time 3: job-0 checked"
                "sweep|--target|builtin:cpu|--cases|100000000|--time|3|--jobs|1|--no-minimize|--out|${CMAKE_CURRENT_BINARY_DIR}/campaign-cases-cut")
# ... and an agree that checked nothing is exit 5, as a replay of no document.
set(GMFUZZ_EMPTY_DIR ${CMAKE_CURRENT_BINARY_DIR}/data/empty)
file(MAKE_DIRECTORY ${GMFUZZ_EMPTY_DIR})
gmfuzz_cli_test(agree_nothing_checked 5 "gmfuzz agree: nothing was checked"
                "agree|--backends|cpu,cpu|${GMFUZZ_EMPTY_DIR}")
# A target's processes end with the campaign (issue 24 item 4): a helper it
# starts in a session of its own is gone after the campaign, with and without
# a target hub.
foreach(hubs 0 1)
  add_test(NAME campaign.helpers_end_with_it_hubs${hubs}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/campaign_helpers.sh ${campaign_python}
                   $<TARGET_FILE:gmfuzz> ${CMAKE_CURRENT_SOURCE_DIR}/data/python/hostile_target.py
                   ${CMAKE_CURRENT_BINARY_DIR}/campaign-helpers-hubs${hubs} ${hubs})
  set_tests_properties(campaign.helpers_end_with_it_hubs${hubs} PROPERTIES
                       LABELS "cli;campaign;python" SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
